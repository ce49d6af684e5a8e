/**
 * End-to-end latency: INTERACTION_CREATE dispatched by the fake Discord → the bot's acknowledgement
 * arriving back at it, through the real discord.js client and the fake upstreams on loopback. Every
 * scenario runs interleaved with a trivial command (one sample of each per round, in a shuffled
 * order), so each ratio compares samples taken under the same conditions.
 *
 * This part runs the bot in the bench's own process (`startTestBot`, production limiter settings);
 * only ratios between scenarios are meaningful here, since the fake Discord shares the event loop.
 */
import { InteractionResponseType } from 'discord.js';
import { commands } from '../commands/index.js';
import type { InteractionCallback } from '../test/fakes/discord.js';
import { FAKE_GEO_RECORDS } from '../test/fakes/geojs.js';
import { WALLHAVEN_CATALOGUE } from '../test/fakes/wallhaven.js';
import { startTestBot, type TestBot } from '../test/helpers/bot.js';
import { CARD_QUERIES } from './card-queries.js';
import { TRIVIAL_COMMAND } from './bot-shared.js';
import { settle, sleep, startOnSnapshotCopy, timeCallback, type BenchUpstreams, type TimedCallback } from './harness.js';
import { median, seededRandom, shuffled, summarize, type LatencySummary } from './stats.js';

/** Cards shown by passcode, as an autocomplete pick sends them (all warmed before measuring). */
export const CACHED_CARDS = [46986414, 89631139, 14558127, 83764718, 5318639, 55144522, 44095762, 12580477, 70368879, 4031928];
const CACHED_ADDRESSES = Object.keys(FAKE_GEO_RECORDS);
/** Few: warming each costs a request at Wallhaven's real 1.4 s spacing. */
const CACHED_WALLPAPERS = WALLHAVEN_CATALOGUE.filter((wallpaper) => wallpaper.purity === 'sfw')
  .slice(0, 3)
  .map((wallpaper) => wallpaper.id);
/** Enough samples to warm every item a cached scenario rotates through. */
const WARMING_SAMPLES = Math.max(CACHED_CARDS.length, CACHED_ADDRESSES.length, CACHED_WALLPAPERS.length);
/**
 * What users type into the name box: the labelled queries except old and OCG names, which the
 * bench's matcher evaluation feeds as extra names but the bot's database only has when YGOPRODeck
 * lists them as `beta_name`.
 */
export const TYPED_QUERIES = CARD_QUERIES.filter((labelled) => labelled.category !== 'old-name').map((labelled) => labelled.query);
/** GeoJS's limiter spaces request starts 100 ms apart; uncached samples are spaced wider so none waits in its queue. */
const UNCACHED_SPACING_MS = 110;

export interface E2eLatencyOptions {
  rounds?: number;
  warmupRounds?: number;
}

export interface ScenarioLatency extends LatencySummary {
  key: string;
  label: string;
  cached: boolean;
  /** p50 and p99 over the trivial command's p50 and p99 in the same run. */
  p50Ratio: number;
  p99Ratio: number;
  /**
   * Median CPU time of this process (bot and fake Discord together) from dispatch to the answer,
   * and its ratio to the trivial command's: unlike wall time, not stretched while other processes
   * hold the cores.
   */
  cpuP50Ms: number;
  cpuP50Ratio: number;
}

export interface E2eLatencyResult {
  rounds: number;
  trivial: LatencySummary;
  trivialCpuP50Ms: number;
  scenarios: ScenarioLatency[];
}

interface Scenario {
  key: string;
  label: string;
  cached: boolean;
  run(bot: TestBot, sample: number): Promise<TimedCallback>;
  /** Throws when the answer is not the one the scenario is about (an error reply would be timed otherwise). */
  check(callback: InteractionCallback): void;
}

function expectMessage(callback: InteractionCallback, what: string, holds: (callback: InteractionCallback) => boolean): void {
  if (callback.type !== InteractionResponseType.ChannelMessageWithSource || !holds(callback)) {
    throw new Error(`${what}: unexpected answer ${JSON.stringify({ type: callback.type, content: callback.data?.content })}`);
  }
}

const TRIVIAL: Scenario = {
  key: 'trivial',
  label: 'trivial command (constant reply)',
  cached: true,
  run: (bot) => timeCallback(bot.discord.chatInput({ name: TRIVIAL_COMMAND.data.name })),
  check: (callback) => expectMessage(callback, 'trivial', (c) => c.data?.content === 'pong'),
};

const SCENARIOS: readonly Scenario[] = [
  {
    key: 'card-show-cached',
    label: '/card show (cached card and art)',
    cached: true,
    run: (bot, sample) =>
      timeCallback(bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(CACHED_CARDS[sample % CACHED_CARDS.length]) } })),
    check: (callback) => expectMessage(callback, '/card show', (c) => (c.data?.embeds?.length ?? 0) === 1 && c.files.length === 1),
  },
  {
    key: 'card-autocomplete',
    label: '/card show autocomplete (typed queries)',
    cached: true,
    run: (bot, sample) =>
      timeCallback(
        bot.discord.autocomplete({
          name: 'card',
          subcommand: 'show',
          options: { name: TYPED_QUERIES[sample % TYPED_QUERIES.length]! },
          focused: 'name',
        }),
      ),
    check: (callback) => {
      if (callback.type !== InteractionResponseType.ApplicationCommandAutocompleteResult || (callback.data?.choices?.length ?? 0) === 0) {
        throw new Error(`autocomplete: unexpected answer of type ${callback.type}`);
      }
    },
  },
  {
    key: 'ip-lookup-cached',
    label: '/ip lookup (cached)',
    cached: true,
    run: (bot, sample) =>
      timeCallback(bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: CACHED_ADDRESSES[sample % CACHED_ADDRESSES.length]! } })),
    check: (callback) => expectMessage(callback, '/ip lookup', (c) => (c.data?.embeds?.length ?? 0) === 1),
  },
  {
    key: 'ip-lookup-uncached',
    label: '/ip lookup (uncached: one GeoJS request)',
    cached: false,
    // 11.0.0.0/8 is ordinary public space; each sample asks an address never asked before.
    run: (bot, sample) =>
      timeCallback(bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: `11.${(sample >> 8) & 255}.${sample & 255}.7` } })),
    check: (callback) => expectMessage(callback, '/ip lookup uncached', (c) => (c.data?.embeds?.length ?? 0) === 1),
  },
  {
    key: 'wallpaper-show-cached',
    label: '/wallpaper show (cached)',
    cached: true,
    run: (bot, sample) =>
      timeCallback(bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: CACHED_WALLPAPERS[sample % CACHED_WALLPAPERS.length]! } })),
    check: (callback) => expectMessage(callback, '/wallpaper show', (c) => (c.data?.embeds?.length ?? 0) >= 1),
  },
];

/**
 * The bot in this process, on a copy of the snapshot DATA_DIR, with production limiter settings.
 * Its GeoJS member share is lifted: the uncached scenario asks hundreds of new addresses as one
 * member, which the share (60 a minute) would refuse, and what it times is the lookup, not the
 * share (whose check still runs on every request). The replay (economy.ts) keeps every share.
 */
export function startInProcessBot(upstreams: BenchUpstreams, snapshotDir: string): Promise<{ bot: TestBot; stop(): Promise<void> }> {
  return startOnSnapshotCopy(snapshotDir, (dataDir) =>
    startTestBot({
      env: { ...upstreams.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      commands: [...commands, TRIVIAL_COMMAND],
      overrides: { memberShares: { geojs: { limit: Number.MAX_SAFE_INTEGER } } },
    }),
  );
}

export async function benchE2eLatency(bot: TestBot, options: E2eLatencyOptions = {}): Promise<E2eLatencyResult> {
  const rounds = options.rounds ?? 250;
  const warmupRounds = options.warmupRounds ?? 30;
  const random = seededRandom(7);

  const cachedScenarios = [TRIVIAL, ...SCENARIOS.filter((candidate) => candidate.cached)];
  // Fill the caches (card art, GeoJS records, Wallhaven details); a first fetch may be deferred.
  for (const scenario of cachedScenarios) {
    for (let sample = 0; sample < WARMING_SAMPLES; sample++) {
      const { exchange, callback } = await scenario.run(bot, sample);
      if (callback.type === InteractionResponseType.DeferredChannelMessageWithSource) await exchange.final(30_000);
    }
  }
  // Now every cached answer must come at once, without a deferral.
  for (const scenario of cachedScenarios) {
    for (let sample = 0; sample < WARMING_SAMPLES; sample++) scenario.check((await scenario.run(bot, sample)).callback);
  }
  // Warm the JIT on every path before anything is recorded.
  for (let round = 0; round < warmupRounds; round++) {
    for (const scenario of cachedScenarios) {
      await scenario.run(bot, round);
      await settle();
    }
  }

  const samples = new Map<string, number[]>([TRIVIAL, ...SCENARIOS].map((scenario) => [scenario.key, []]));
  const cpuSamples = new Map<string, number[]>([TRIVIAL, ...SCENARIOS].map((scenario) => [scenario.key, []]));
  let lastUncachedAt = -Infinity;
  for (let round = 0; round < rounds; round++) {
    for (const scenario of shuffled([TRIVIAL, ...SCENARIOS], random)) {
      if (!scenario.cached) {
        const wait = lastUncachedAt + UNCACHED_SPACING_MS - performance.now();
        if (wait > 0) await sleep(wait);
        lastUncachedAt = performance.now();
      }
      const cpuBefore = process.cpuUsage();
      const timed = await scenario.run(bot, round);
      const cpu = process.cpuUsage(cpuBefore);
      scenario.check(timed.callback);
      samples.get(scenario.key)!.push(timed.latencyMs);
      cpuSamples.get(scenario.key)!.push((cpu.user + cpu.system) / 1e3);
      await settle();
    }
  }

  const trivial = summarize(samples.get(TRIVIAL.key)!);
  const trivialCpuP50Ms = median(cpuSamples.get(TRIVIAL.key)!);
  return {
    rounds,
    trivial,
    trivialCpuP50Ms,
    scenarios: SCENARIOS.map((scenario) => {
      const summary = summarize(samples.get(scenario.key)!);
      const cpuP50Ms = median(cpuSamples.get(scenario.key)!);
      return {
        key: scenario.key,
        label: scenario.label,
        cached: scenario.cached,
        ...summary,
        p50Ratio: summary.p50Ms / trivial.p50Ms,
        p99Ratio: summary.p99Ms / trivial.p99Ms,
        cpuP50Ms,
        cpuP50Ratio: cpuP50Ms / trivialCpuP50Ms,
      };
    }),
  };
}
