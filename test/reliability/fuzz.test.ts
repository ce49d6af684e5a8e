import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import fc from 'fast-check';
import pino from 'pino';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { ALL_APP_PERMISSIONS, SERVER_INSTALLATION, settingsWithoutChoices, type ChannelInfo, type Invoker } from '../../src/interaction/context.js';
import type { ChatInputCommand, MessageContextCommand } from '../../src/interaction/command.js';
import type { MessagePayload, Reply } from '../../src/interaction/reply.js';
import { loadConfig, secretsOf } from '../../src/runtime/config.js';
import { UserError } from '../../src/interaction/errors.js';
import { createLogger } from '../../src/runtime/logger.js';
import { createMetrics } from '../../src/runtime/metrics.js';
import { describeFailure } from '../../src/render/errors.js';
import { createServices, type AppServices } from '../../src/app/services.js';
import { createLocalLimiter } from '../../src/upstream/limiter.js';
import { UpstreamError } from '../../src/interaction/upstream-error.js';
import { startFakeDns, type FakeDns } from '../fakes/dns.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeRdap, type FakeRdap } from '../fakes/rdap.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { testOffThread } from '../helpers/off-thread.js';
import { CANARY_TOKEN, CANARY_WALLHAVEN_KEY } from '../helpers/bot.js';
import { writeCardSnapshot } from '../helpers/card-snapshot.js';
import { LogCapture } from '../helpers/log-capture.js';
import { injectedLinks, payloadProblems, renderedTexts } from '../helpers/payload-checks.js';
import { HOSTILE_STRING } from '../helpers/hostile-input.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const SERVER_SIDE = { installation: SERVER_INSTALLATION, appPermissions: ALL_APP_PERMISSIONS, memberPermissions: { manageServer: false }, settings: settingsWithoutChoices({ locale: 'en-US' }) };

/**
 * Hostile input, fuzzed in process: every string option of every command (found from the command
 * definitions, so a new option is fuzzed too), every autocomplete, every component custom_id and
 * select value, and the message the "Locate IP addresses" menu reads, each with 1,000 values (path
 * traversal, percent-encoding, zone ids, control characters, look-alikes, 6,000 characters, markdown,
 * mentions, masked links); the parsers, URL builders and escapers every value goes through first get
 * 5,000 each in fuzz-parsers.test.ts. The handlers run against the real services and the fake
 * upstreams, with every outgoing request recorded at the HTTP dispatcher.
 *
 * For every value: the handler answers or refuses with a plain sentence (no other error), the
 * answer fits Discord's limits and renders no link from someone else's text, no request leaves an
 * upstream's origin and API path, and no secret appears anywhere.
 */

const RUNS_PER_OPTION = fuzzRuns(1_000);

/** A value for each required option, so the option under test is the only odd one. */
const GOOD_VALUES: Record<string, string> = {
  'ip lookup addresses': '8.8.8.8',
  'ip time address': '8.8.8.8',
  'card show name': 'Dark Magician',
  'card search query': 'dragon',
  'card set name': 'LOB',
  'wallpaper show id': 'whvn.cc/abcdef',
};

const CHANNELS: ChannelInfo[] = [
  { id: 'c-normal', kind: 'guild', ageRestricted: false },
  { id: 'c-adult', kind: 'guild', ageRestricted: true },
  { id: 'c-dm', kind: 'dm', ageRestricted: false },
];
const USER: Invoker = { id: '1358000000000000001', username: 'fuzzer', locale: 'en-US' };
const silent = pino({ level: 'silent' });

/** Where requests may go: each upstream's origin, and its API paths. */
interface AllowedUpstream {
  origin: string;
  prefixes: string[];
}

interface FuzzTarget {
  /** e.g. `wallpaper search query`. */
  label: string;
  command: ChatInputCommand<AppServices>;
  subcommand: string | null;
  option: string;
}

/** Every string option of every chat command, from the definitions Discord is sent. */
function stringOptions(): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const command of commands) {
    if (command.kind !== 'chat') continue;
    const visit = (options: readonly APIApplicationCommandOption[] | undefined, subcommand: string | null) => {
      for (const option of options ?? []) {
        if (option.type === ApplicationCommandOptionType.Subcommand) visit(option.options, option.name);
        else if (option.type === ApplicationCommandOptionType.String) {
          targets.push({ label: [command.data.name, subcommand, option.name].filter(Boolean).join(' '), command, subcommand, option: option.name });
        }
      }
    };
    visit(command.data.options, null);
  }
  return targets;
}

function autocompleteTargets(): FuzzTarget[] {
  return stringOptions().filter((target) => {
    const visit = (options: readonly APIApplicationCommandOption[] | undefined): boolean =>
      (options ?? []).some((option) =>
        option.type === ApplicationCommandOptionType.Subcommand
          ? option.name === target.subcommand && visit(option.options)
          : option.name === target.option && 'autocomplete' in option && option.autocomplete === true,
      );
    return visit(target.command.data.options);
  });
}

describe('hostile input, fuzzed in process through every handler', () => {
  let geo: FakeGeoJs;
  let dns: FakeDns;
  let wallhaven: FakeWallhaven;
  let ygoprodeck: FakeYgoprodeck;
  let dataDir: string;
  let agent: Agent;
  let app: AppServices;
  const logs = new LogCapture();
  const sent: { origin: string; path: string }[] = [];
  let allowed: AllowedUpstream[];
  let rdap: FakeRdap;

  beforeAll(async () => {
    [geo, dns, wallhaven, ygoprodeck] = await Promise.all([
      startFakeGeoJs(),
      // Knows no name: every one typed is NXDOMAIN, answered at once.
      startFakeDns(),
      startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } }),
      startFakeYgoprodeck({ rateLimit: { windowMs: 1_000, maxRequests: Number.MAX_SAFE_INTEGER } }),
    ]);
    rdap = await startFakeRdap();
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-fuzz-'));
    await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
    agent = new Agent({ connections: 16 });
    const dispatcher: Dispatcher = agent.compose((dispatch) => (options, handler) => {
      sent.push({ origin: String(options.origin), path: options.path });
      return dispatch(options, handler);
    });
    const config = loadConfig({
      DISCORD_TOKEN: CANARY_TOKEN,
      WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY,
      GEOJS_URL: geo.url,
      DNS_SERVERS: dns.server,
      WALLHAVEN_URL: wallhaven.url,
      YGOPRODECK_URL: ygoprodeck.url,
      YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl,
      RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl,
      DATA_DIR: dataDir,
    });
    allowed = [
      { origin: geo.url, prefixes: ['/v1/ip/geo.json'] },
      { origin: wallhaven.url, prefixes: ['/api/v1/search', '/api/v1/w/', '/api/v1/collections/'] },
      { origin: ygoprodeck.url, prefixes: ['/api/v7/', '/images/cards/', '/images/cards_small/', '/images/cards_cropped/', '/images/sets/'] },
      { origin: rdap.iana.url, prefixes: ['/rdap/'] },
      ...[rdap.arin, rdap.ripe, rdap.verisign].map((registry) => ({ origin: registry.url, prefixes: [registry.prefix] })),
    ];
    app = await createServices(
      { config, logger: createLogger({ level: 'info', secrets: secretsOf(config), destination: logs }), metrics: createMetrics() },
      {
        dispatcher,
        // No waiting: thousands of cases in all, and the limits themselves are tested elsewhere.
        limiterFactory: (options) => createLocalLimiter({ ...options, minTimeMs: 0, maxConcurrent: 8, maxQueued: 100_000 }),
        memberShares: { wallhaven: { limit: Number.MAX_SAFE_INTEGER }, geojs: { limit: Number.MAX_SAFE_INTEGER } },
        offThread: testOffThread(),
      },
    );
    expect(app.cards.ready).toBe(true);
  });

  afterAll(async () => {
    await app?.close();
    await agent?.close();
    await Promise.all([geo?.close(), dns?.close(), wallhaven?.close(), ygoprodeck?.close(), rdap?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const deferrable = { defer: async () => undefined, progress: async () => undefined };

  /** Runs a handler: its reply, or the sentence the router would send for its refusal. Anything else fails the property. */
  async function outcomeOf(run: () => Promise<Reply | MessagePayload>): Promise<{ payload: MessagePayload; ephemeral: boolean }> {
    try {
      const reply: Reply = await run();
      return { payload: reply, ephemeral: reply.ephemeral === true };
    } catch (error) {
      if (error instanceof UserError || error instanceof UpstreamError) return { payload: { content: describeFailure(error) }, ephemeral: true };
      throw error;
    }
  }

  // Each message is built only for a failure: a payload may carry a picture, which JSON spells out
  // byte by byte, and thousands of values run through here.
  function expectSafe(outcome: { payload: MessagePayload; ephemeral: boolean }, input: string): void {
    const problems = payloadProblems(outcome.payload);
    if (problems.length > 0) expect.fail(`PROBLEM ${JSON.stringify(problems).slice(0, 300)} IN ${JSON.stringify(outcome.payload).slice(0, 400)}`);
    for (const text of renderedTexts(outcome.payload)) {
      const links = injectedLinks(text, input, !outcome.ephemeral);
      if (links.length > 0) expect.fail(`LINK ${JSON.stringify(links).slice(0, 200)} IN ${text.slice(0, 300)}`);
      if (text.includes(CANARY_WALLHAVEN_KEY) || text.includes(CANARY_TOKEN)) expect.fail(`A SECRET IN ${text.slice(0, 300)}`);
    }
  }

  function runChat(target: FuzzTarget, value: string, channel: ChannelInfo) {
    const values: Record<string, string> = {};
    for (const [key, good] of Object.entries(GOOD_VALUES)) {
      const [name, sub, option] = key.split(' ');
      if (name === target.command.data.name && (sub ?? null) === target.subcommand) values[option!] = good;
    }
    values[target.option] = value;
    return outcomeOf(() =>
      target.command.execute(
        {
          interactionId: 'fuzz',
          ...SERVER_SIDE,
          user: USER,
          channel,
          log: silent,
          options: {
            subcommand: target.subcommand,
            getString: (name) => values[name] ?? null,
            getBoolean: () => null,
            getInteger: () => null,
            getAttachment: () => null,
            getChannel: () => null,
          },
          ...deferrable,
        },
        app,
      ),
    );
  }

  describe.each(stringOptions())('/$label', (target) => {
    it(`survives ${RUNS_PER_OPTION} hostile values`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(HOSTILE_STRING, fc.constantFrom(...CHANNELS), async (value, channel) => {
          expectSafe(await runChat(target, value, channel), value);
        }),
        { numRuns: RUNS_PER_OPTION },
      );
    });
  });

  describe.each(autocompleteTargets())('autocomplete of /$label', (target) => {
    it(`suggests only what Discord accepts for ${RUNS_PER_OPTION} hostile values`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(HOSTILE_STRING, async (value) => {
          const choices = await target.command.autocomplete!(
            {
              interactionId: 'fuzz',
          ...SERVER_SIDE,
              user: USER,
              channel: CHANNELS[0]!,
              log: silent,
              options: { subcommand: target.subcommand, getString: (name) => (name === target.option ? value : null), getBoolean: () => null, getInteger: () => null, getAttachment: () => null, getChannel: () => null },
              focused: { name: target.option, value },
            },
            app,
          );
          expect(choices.length).toBeLessThanOrEqual(25);
          for (const choice of choices) {
            expect(payloadProblems({ content: choice.name })).toEqual([]);
            expect(choice.name.length).toBeGreaterThan(0);
            expect(choice.name.length).toBeLessThanOrEqual(100);
            expect(String(choice.value).length).toBeLessThanOrEqual(100);
          }
        }),
        { numRuns: RUNS_PER_OPTION },
      );
    });
  });

  const componentOwners = commands.filter((command): command is ChatInputCommand<AppServices> => command.kind === 'chat' && command.componentPrefix !== undefined);

  describe.each(componentOwners.map((command) => ({ name: command.data.name, command })))('components of /$name', ({ command }) => {
    it(`refuses or answers ${RUNS_PER_OPTION} forged custom_ids and select values`, { timeout: 120_000 }, async () => {
      const prefix = `${command.componentPrefix!}:`;
      const customId = fc.oneof(HOSTILE_STRING.map((rest) => `${prefix}${rest}`), fc.constantFrom(prefix, `${prefix}n`, `${prefix}open`, `${prefix}printings:46986414:9`));
      await fc.assert(
        fc.asyncProperty(customId, fc.array(HOSTILE_STRING, { maxLength: 3 }), fc.constantFrom(...CHANNELS), async (id, values, channel) => {
          const outcome = await outcomeOf(async () => {
            const result = await command.handleComponent!(
              {
                interactionId: 'fuzz',
          ...SERVER_SIDE,
                user: USER,
                channel,
                log: silent,
                customId: id,
                values,
                message: { id: 'm', createdTimestamp: Date.now(), ownerId: USER.id },
                deferUpdate: async () => undefined,
                progress: async () => undefined,
              },
              app,
            );
            return 'update' in result ? result.update : result.reply;
          });
          expectSafe(outcome, [id, ...values].join('\n'));
        }),
        { numRuns: RUNS_PER_OPTION },
      );
    });
  });

  it(`reads ${RUNS_PER_OPTION} hostile messages with "Locate IP addresses"`, { timeout: 120_000 }, async () => {
    const locate = commands.find((command): command is MessageContextCommand<AppServices> => command.kind === 'message')!;
    // Hostile text with real addresses mixed in, so some lookups happen.
    const message = fc.tuple(HOSTILE_STRING, fc.constantFrom('', ' 8.8.8.8 ', ' 2001:4860:4860::8888 ', '[::1]:80', ' 10.0.0.1/8 ', ' fe80::1%eth0 '), HOSTILE_STRING).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(message, async (content) => {
        expectSafe(
          await outcomeOf(() =>
            locate.execute({ interactionId: 'fuzz',
          ...SERVER_SIDE, user: USER, channel: CHANNELS[0]!, log: silent, targetMessage: { id: 'm', content, attachments: [] }, ...deferrable }, app),
          ),
          content,
        );
      }),
      { numRuns: RUNS_PER_OPTION },
    );
  });

  it('sent every request to an upstream origin, inside its API paths, and logged no secret', () => {
    expect(sent.length).toBeGreaterThan(100);
    for (const request of sent) {
      const upstream = allowed.find((candidate) => candidate.origin === request.origin);
      expect(upstream, `a request went to ${request.origin}`).toBeDefined();
      const path = new URL(request.path, request.origin).pathname;
      expect(upstream!.prefixes.some((prefix) => path.startsWith(prefix)), `${request.origin}${path}`).toBe(true);
      // Nothing a server might decode into a way out of the API path.
      expect(decodeURIComponent(path)).not.toMatch(/(^|\/)\.\.?(\/|$)|\\/);
    }
    // DNS was asked only about names it can carry: lowercase LDH labels, never a private suffix.
    expect(dns.queries.length).toBeGreaterThan(0);
    for (const query of dns.queries) {
      if (query.type === 'PTR') continue;
      expect(query.name).toMatch(/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})+$/);
      expect(query.name).not.toMatch(/(^|\.)(localhost|local|internal|home\.arpa)$/);
    }
    expect(logs.text).not.toContain(CANARY_TOKEN);
    expect(logs.text).not.toContain(CANARY_WALLHAVEN_KEY);
  });
});
