/**
 * Soak: tens of thousands of interactions mixing every command (slash commands, autocomplete,
 * buttons, select menus, the message menu, refusals of bad input), answered by the real app in a
 * child process against the fake Discord and fake upstreams in this one. The child reports its own
 * heap (after a full GC), RSS, open file descriptors and event-loop delay, so nothing the driver or
 * the fakes allocate is counted. Production limiter settings throughout: most answers come from the
 * caches and the local card database, and whatever would exceed a limit is answered "busy".
 *
 *     npx tsx bench/soak.ts [--interactions=50000] [--concurrency=32]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { InteractionResponseType, type APIButtonComponentWithCustomId, type APIStringSelectComponent } from 'discord.js';
import { createGatewayApp, type GatewayApp } from '../src/app/gateway.js';
import { loadConfig } from '../src/runtime/config.js';
import { createLogger } from '../src/runtime/logger.js';
import { startFakeDiscord, type FakeDiscord, type FakeMessage, type InteractionExchange, type InteractionOrigin } from '../test/fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../test/fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../test/fakes/wallhaven.js';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../test/fakes/ygoprodeck.js';
import { writeCardSnapshot } from '../test/helpers/card-snapshot.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const SOAK_TOKEN = 'soak-discord-token.MTAxMDEwMTAxMDEw.soakpart0123456789';
const CHILD_FLAG = '--soak-child';
const MiB = 1024 * 1024;

export interface SoakOptions {
  /** Interactions to send (default 50,000). */
  interactions?: number;
  /** Interactions in flight at once (default 32). */
  concurrency?: number;
  /** Interactions between two measurements (default a twentieth of the soak). */
  sampleEvery?: number;
  /** Largest heap growth (after GC) over the second half still called a plateau (default 16 MiB). */
  heapPlateauBytes?: number;
  /** Largest RSS growth over the second half still called a plateau (default 48 MiB). */
  rssPlateauBytes?: number;
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
}

/** One measurement inside the bot's process. */
export interface SoakSample {
  interactions: number;
  heapUsedBytes: number;
  rssBytes: number;
  openFileDescriptors: number;
  /**
   * discord.js REST request handlers alive. One is made per route and major parameter, and the
   * webhook routes that complete deferred replies carry each interaction's token, so they grow with
   * traffic until discord.js sweeps them (hourly by default): the heap's slow climb in a short soak.
   */
  discordRestHandlers: number;
}

export interface SoakResult {
  interactions: number;
  durationMs: number;
  interactionsPerSecond: number;
  /** How the interactions ended: answered with content, refused with a sentence ("busy" included), or not at all. */
  outcomes: { answered: number; refused: number; busy: number; unanswered: number };
  /** Error-level log lines the bot wrote (an unexpected failure each). */
  errorLogLines: number;
  samples: SoakSample[];
  heap: { startBytes: number; endBytes: number; secondHalfGrowthBytes: number; plateau: boolean };
  rss: { startBytes: number; endBytes: number; maxBytes: number; secondHalfGrowthBytes: number; plateau: boolean };
  fileDescriptors: { start: number; end: number; max: number; growth: number };
  /** Event-loop delay in the bot's process over the whole soak, in ms. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

// ---- the bot's side (child process) ------------------------------------------------------------

type ChildRequest = { type: 'sample' } | { type: 'reset-delay' } | { type: 'stop' };
type ChildReport =
  | { type: 'ready' }
  | ({ type: 'sample'; errorLogLines: number; delay: SoakResult['eventLoopDelayMs'] } & Omit<SoakSample, 'interactions'>);

async function runChild(): Promise<void> {
  const send = (report: ChildReport) => process.send!(report);
  let errorLogLines = 0;
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const logger = createLogger({
    level: config.logLevel,
    destination: {
      write(line: string) {
        if (line.includes('"level":50') || line.includes('"level":60')) errorLogLines++;
      },
    },
  });
  const app: GatewayApp = await createGatewayApp({ config, logger });
  await app.start();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (request: ChildRequest) => {
    if (request.type === 'reset-delay') delay.reset();
    else if (request.type === 'sample') {
      // Exposed by --expose-gc: the heap measured is what survives a full collection.
      globalThis.gc?.();
      const memory = process.memoryUsage();
      send({
        type: 'sample',
        heapUsedBytes: memory.heapUsed,
        rssBytes: memory.rss,
        openFileDescriptors: readdirSync('/proc/self/fd').length,
        discordRestHandlers: app.client.rest.handlers.size,
        errorLogLines,
        delay: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
      });
    } else {
      void app.stop().then(() => process.exit(0));
    }
  });
  send({ type: 'ready' });
}

// ---- the driver's side --------------------------------------------------------------------------

interface Fixtures {
  discord: FakeDiscord;
  geojs: FakeGeoJs;
  wallhaven: FakeWallhaven;
  ygoprodeck: FakeYgoprodeck;
  dataDir: string;
}

interface SoakWorld extends Fixtures {
  cardIds: number[];
  cardNames: string[];
  addresses: string[];
  wallpaperIds: string[];
  /** Search answers with ◀ ▶ buttons, and the user they belong to. */
  pagers: { message: FakeMessage; user: InteractionOrigin['user'] }[];
  /** `/card search` answers with a select menu. */
  menus: FakeMessage[];
  random: () => number;
}

const USERS = 500;
const user = (index: number): InteractionOrigin['user'] => ({ id: String(1_360_000_000_000_000_000n + BigInt(index % USERS)), username: `soak${index % USERS}` });

function pick<T>(world: SoakWorld, items: readonly T[]): T {
  return items[Math.floor(world.random() * items.length)]!;
}

function buttonIn(message: FakeMessage, label: string): APIButtonComponentWithCustomId | undefined {
  for (const row of message.components ?? []) {
    for (const component of 'components' in row ? row.components : []) {
      if (component.type === 2 && 'custom_id' in component && component.label === label) return component;
    }
  }
  return undefined;
}

function selectIn(message: FakeMessage): APIStringSelectComponent | undefined {
  for (const row of message.components ?? []) {
    for (const component of 'components' in row ? row.components : []) {
      if (component.type === 3) return component;
    }
  }
  return undefined;
}

/** The interaction mix, by weight: every command, its autocomplete, its components, and bad input. */
const MIX: [weight: number, start: (world: SoakWorld, sequence: number) => Promise<InteractionExchange>][] = [
  [18, (w, n) => w.discord.autocomplete({ name: 'card', subcommand: 'show', options: { name: pick(w, w.cardNames).slice(0, 3 + (n % 8)) }, focused: 'name', user: user(n) })],
  [14, (w, n) => w.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(pick(w, w.cardIds)) }, user: user(n) })],
  [4, (w, n) => w.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: pick(w, w.cardNames), language: 'fr' }, user: user(n) })],
  [7, (w, n) => w.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: pick(w, ['dragon', 'magician', 'blue eyes', 'hero', 'sky striker']) }, user: user(n) })],
  [2, (w, n) => w.discord.chatInput({ name: 'card', subcommand: 'random', user: user(n) })],
  [4, (w, n) => {
    const menu = pick(w, w.menus);
    const select = selectIn(menu)!;
    return w.discord.select({ customId: select.custom_id, values: [pick(w, select.options).value], message: menu, user: user(n) });
  }],
  [11, (w, n) => w.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: `${pick(w, w.addresses)} ${pick(w, w.addresses)}` }, user: user(n) })],
  [5, (w, n) => w.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: pick(w, w.addresses) }, user: user(n) })],
  [5, (w, n) => w.discord.messageContext({ name: 'Locate IP addresses', targetContent: `sshd: failed login from ${pick(w, w.addresses)} port 22`, user: user(n) })],
  [6, (w, n) => w.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: pick(w, w.wallpaperIds) }, user: user(n) })],
  [4, (w, n) => w.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query: pick(w, ['nature', 'city', 'space', 'anime']) }, user: user(n) })],
  [1, (w, n) => w.discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query: pick(w, ['nature', 'city']) }, user: user(n) })],
  [5, (w) => {
    const pager = pick(w, w.pagers);
    return w.discord.button({ customId: buttonIn(pager.message, '▶')!.custom_id, message: pager.message, user: pager.user });
  }],
  [3, (w, n) => w.discord.autocomplete({ name: 'wallpaper', subcommand: 'search', options: { resolution: pick(w, ['19', '1920x', '25', '']) }, focused: 'resolution', user: user(n) })],
  [3, (w, n) => w.discord.chatInput({ name: 'status', user: user(n) })],
  [4, (w, n) =>
    w.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: pick(w, ['../../etc/passwd', 'fe80::1%eth0', '[x](https://evil.example) @everyone', '8.8.8.8/8']) }, user: user(n) }),
  ],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

function startInteraction(world: SoakWorld, sequence: number): Promise<InteractionExchange> {
  let roll = world.random() * TOTAL_WEIGHT;
  for (const [weight, start] of MIX) {
    roll -= weight;
    if (roll < 0) return start(world, sequence);
  }
  return MIX[0]![1](world, sequence);
}

type Outcome = keyof SoakResult['outcomes'];
const ANSWER_TIMEOUT_MS = 30_000;
const BUSY = /^Almanac is busy with /;

/** How an interaction ended, from what the fake Discord received. */
async function outcomeOf(exchange: InteractionExchange): Promise<Outcome> {
  try {
    const callback = await exchange.callback(ANSWER_TIMEOUT_MS);
    if (callback.type === InteractionResponseType.ApplicationCommandAutocompleteResult) return 'answered';
    let message: FakeMessage | undefined;
    if (callback.type === InteractionResponseType.ChannelMessageWithSource || callback.type === InteractionResponseType.UpdateMessage) {
      message = (await exchange.final(ANSWER_TIMEOUT_MS)) as FakeMessage;
    } else {
      const notProgress = (write: { message: FakeMessage }) => !write.message.content.startsWith('⏳ ');
      const waits = [exchange.waitForEdit(notProgress, ANSWER_TIMEOUT_MS), exchange.waitForFollowUp(undefined, ANSWER_TIMEOUT_MS)];
      for (const wait of waits) wait.catch(() => undefined);
      message = (await Promise.any(waits)).message;
    }
    if (message.embeds.length > 0) return 'answered';
    return BUSY.test(message.content) ? 'busy' : 'refused';
  } catch {
    return 'unanswered';
  }
}

interface BotChild {
  process: ChildProcess;
  /** Starts the event-loop delay histogram afresh (start-up and set-up are not part of the soak). */
  resetDelay(): void;
  sample(): Promise<Extract<ChildReport, { type: 'sample' }>>;
}

async function startBotChild(fixtures: Fixtures): Promise<BotChild> {
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DISCORD_TOKEN: SOAK_TOKEN,
      DISCORD_API_URL: fixtures.discord.apiUrl,
      GEOJS_URL: fixtures.geojs.url,
      WALLHAVEN_URL: fixtures.wallhaven.url,
      YGOPRODECK_URL: fixtures.ygoprodeck.url,
      YGOPRODECK_IMAGES_URL: fixtures.ygoprodeck.imagesUrl,
      DATA_DIR: fixtures.dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (report: ChildReport) => (report.type === 'ready' ? resolve() : reject(new Error('soak bot: unexpected first report'))));
    child.once('exit', (code) => reject(new Error(`soak bot exited with ${code} before it was ready`)));
  });
  return {
    process: child,
    resetDelay() {
      child.send({ type: 'reset-delay' } satisfies ChildRequest);
    },
    sample() {
      return new Promise((resolve) => {
        child.once('message', (report: ChildReport) => {
          if (report.type === 'sample') resolve(report);
        });
        child.send({ type: 'sample' } satisfies ChildRequest);
      });
    },
  };
}

async function prepareWorld(fixtures: Fixtures): Promise<SoakWorld> {
  const random = seededRandom(2_026);
  const dump = fixtures.ygoprodeck.cards;
  const cards = Array.from({ length: 400 }, () => dump[Math.floor(random() * dump.length)]!);
  const world: SoakWorld = {
    ...fixtures,
    random,
    cardIds: cards.map((card) => card.id),
    cardNames: cards.map((card) => card.name),
    addresses: ['8.8.8.8', '1.1.1.1', '81.2.69.142', '202.12.27.33', '2001:4860:4860::8888', '10.0.0.1', ...Array.from({ length: 34 }, (_, index) => `81.2.70.${index + 1}`)],
    wallpaperIds: fixtures.wallhaven.byPurity('sfw').slice(0, 40).map((wallpaper) => wallpaper.id),
    pagers: [],
    menus: [],
  };
  // Messages the components of the mix act on.
  for (const [index, query] of ['nature', 'city', 'space'].entries()) {
    const owner = user(10_000 + index);
    const exchange = await fixtures.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query }, user: owner });
    world.pagers.push({ message: await exchange.final(ANSWER_TIMEOUT_MS), user: owner });
  }
  for (const query of ['dragon', 'magician', 'hero']) {
    const exchange = await fixtures.discord.chatInput({ name: 'card', subcommand: 'search', options: { query } });
    world.menus.push(await exchange.final(ANSWER_TIMEOUT_MS));
  }
  return world;
}

/** Runs the soak and returns its figures (see `SoakResult`). */
export async function runSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const interactions = options.interactions ?? 50_000;
  const concurrency = options.concurrency ?? 32;
  const sampleEvery = options.sampleEvery ?? Math.max(1, Math.floor(interactions / 20));
  const log = options.log ?? (() => undefined);
  if (!Number.isInteger(interactions) || interactions < 1) throw new TypeError(`runSoak: option "interactions" must be a positive integer, got ${interactions}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`runSoak: option "concurrency" must be a positive integer, got ${concurrency}`);

  const dataDir = await mkdtemp(join(tmpdir(), 'almanac-soak-'));
  const [discord, geojs, wallhaven, ygoprodeck] = await Promise.all([startFakeDiscord({ token: SOAK_TOKEN }), startFakeGeoJs(), startFakeWallhaven(), startFakeYgoprodeck({ cards: loadCardDump() })]);
  const fixtures: Fixtures = { discord, geojs, wallhaven, ygoprodeck, dataDir };
  let bot: BotChild | undefined;
  try {
    await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
    log('starting the bot');
    bot = await startBotChild(fixtures);
    log('bot ready; preparing the messages the mix presses buttons on');
    const world = await prepareWorld(fixtures);
    log(`sending ${interactions} interactions, ${concurrency} at a time`);
    bot.resetDelay();

    const outcomes: SoakResult['outcomes'] = { answered: 0, refused: 0, busy: 0, unanswered: 0 };
    const samples: SoakSample[] = [];
    let errorLogLines = 0;
    let delay: SoakResult['eventLoopDelayMs'] = { p50: 0, p99: 0, max: 0 };
    const measure = async (done: number) => {
      const report = await bot!.sample();
      samples.push({
        interactions: done,
        heapUsedBytes: report.heapUsedBytes,
        rssBytes: report.rssBytes,
        openFileDescriptors: report.openFileDescriptors,
        discordRestHandlers: report.discordRestHandlers,
      });
      errorLogLines = report.errorLogLines;
      delay = report.delay;
      log(
        `${done} interactions: heap ${(report.heapUsedBytes / MiB).toFixed(1)} MiB, RSS ${(report.rssBytes / MiB).toFixed(1)} MiB, ` +
          `${report.openFileDescriptors} fds, ${report.discordRestHandlers} REST handlers, event-loop p99 ${delay.p99.toFixed(1)} ms`,
      );
    };
    await measure(0);

    const started = performance.now();
    let next = 0;
    let done = 0;
    let nextSample = sampleEvery;
    const worker = async () => {
      while (next < interactions) {
        const sequence = next++;
        const outcome = await outcomeOf(await startInteraction(world, sequence));
        outcomes[outcome]++;
        done++;
        // The fake keeps every REST call for inspection; a soak has no use for them.
        if (discord.calls.length > 10_000) discord.calls.length = 0;
        if (done >= nextSample) {
          nextSample += sampleEvery;
          await measure(done);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const durationMs = performance.now() - started;
    if (samples.at(-1)!.interactions !== interactions) await measure(interactions);

    const middle = samples.find((sample) => sample.interactions >= interactions / 2) ?? samples[0]!;
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const heapGrowth = last.heapUsedBytes - middle.heapUsedBytes;
    const rssGrowth = last.rssBytes - middle.rssBytes;
    return {
      interactions,
      durationMs: Math.round(durationMs),
      interactionsPerSecond: Math.round((interactions / durationMs) * 1000),
      outcomes,
      errorLogLines,
      samples,
      heap: { startBytes: first.heapUsedBytes, endBytes: last.heapUsedBytes, secondHalfGrowthBytes: heapGrowth, plateau: heapGrowth < (options.heapPlateauBytes ?? 16 * MiB) },
      rss: {
        startBytes: first.rssBytes,
        endBytes: last.rssBytes,
        maxBytes: Math.max(...samples.map((sample) => sample.rssBytes)),
        secondHalfGrowthBytes: rssGrowth,
        plateau: rssGrowth < (options.rssPlateauBytes ?? 48 * MiB),
      },
      fileDescriptors: {
        start: first.openFileDescriptors,
        end: last.openFileDescriptors,
        max: Math.max(...samples.map((sample) => sample.openFileDescriptors)),
        growth: last.openFileDescriptors - first.openFileDescriptors,
      },
      eventLoopDelayMs: { p50: round(delay.p50), p99: round(delay.p99), max: round(delay.max) },
    };
  } finally {
    if (bot) {
      const exited = new Promise((resolve) => bot!.process.once('exit', resolve));
      bot.process.send({ type: 'stop' } satisfies ChildRequest);
      await exited;
    }
    await Promise.all([discord.close(), geojs.close(), wallhaven.close(), ygoprodeck.close()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function numberArgument(name: string): number | undefined {
  const argument = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return argument === undefined ? undefined : Number(argument.slice(name.length + 3));
}

if (process.argv.includes(CHILD_FLAG)) {
  await runChild();
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runSoak({
    interactions: numberArgument('interactions'),
    concurrency: numberArgument('concurrency'),
    log: (line) => console.error(line),
  });
  const { samples, ...summary } = result;
  console.log(JSON.stringify({ ...summary, samples: samples.length }, null, 2));
}
