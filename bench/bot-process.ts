/**
 * The bot alone in its own process, for the parts that measure one process: start-up, memory,
 * throughput. It runs the same `createGatewayApp` wiring as `src/index.ts` (plus the trivial command and,
 * optionally, time-compressed limiters), against whatever the environment points it at, and talks
 * to the bench over IPC.
 *
 * Spawned by `startBotChild` (bench/bot-child.ts) with `--expose-gc`, compiled to JavaScript
 * (bench/compile.ts) or under tsx, with:
 * - BENCH_TIME_SCALE: divide limiter spacings and the per-user Wallhaven window by this (default 1).
 * - BENCH_SPLIT_LONGEST_DELAY=1: stall readings split their longest delay (bench/longest-delay.ts).
 * and the argument `--deck-composer-idle-ms=<ms>`: the deck composer's child leaves after this long idle.
 * With REDIS_URL (the fleet section) the time-compressed limiters are the fleet's, shared in Redis.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import { createGatewayApp } from '../src/app/gateway.js';
import { CARD_LANGUAGES } from '../src/cards/card.js';
import { commands } from '../commands/index.js';
import { loadConfig, secretsOf } from '../src/runtime/config.js';
import { createLogger } from '../src/runtime/logger.js';
import { mallocTrim } from '../src/runtime/native-memory.js';
import { createSharedState } from '../src/state/index.js';
import { MEMBER_SHARES } from '../src/runtime/member-shares.js';
import { scaledLimiterFactory, TRIVIAL_COMMAND, watchStalls, type BotReport, type MemorySample, type ParentMessage } from './bot-shared.js';

const modulesLoadedAt = performance.now();

/**
 * The bot's memory after a full collection and the `malloc_trim` the bot runs after one
 * (src/runtime/native-memory.ts). The bot trims on libuv's pool, at most once a second, so a reading
 * taken at once would count what the forced collections just handed to glibc and glibc has not yet
 * handed back: run here, the trim is the bot's own, a second sooner. The RSS before it is kept beside.
 */
async function measureMemory(): Promise<MemorySample> {
  // Two passes: the first may only queue finalizers that free more on the second.
  globalThis.gc?.();
  globalThis.gc?.();
  const rssBeforeTrimBytes = process.memoryUsage.rss();
  if (trim) await new Promise<void>((resolve) => trim.async(0, () => resolve()));
  const usage = process.memoryUsage();
  return {
    rssBytes: usage.rss,
    rssBeforeTrimBytes,
    ...residentSplit(),
    heapUsedBytes: usage.heapUsed,
    heapTotalBytes: usage.heapTotal,
    heapSpaceBytes: Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size])),
    externalBytes: usage.external,
    arrayBuffersBytes: usage.arrayBuffers,
    cachedUsers: app.client.users.cache.size,
    cachedMembers: app.client.guilds.cache.reduce((total, guild) => total + guild.members.cache.size, 0),
  };
}

/** Linux's split of the resident set: anonymous memory (heaps, malloc) and mapped files (code). */
function residentSplit(): Pick<MemorySample, 'rssAnonBytes' | 'rssFileBytes'> {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rssAnonBytes: kilobytes('RssAnon'), rssFileBytes: kilobytes('RssFile') };
  } catch {
    return {};
  }
}

function send(report: BotReport): void {
  process.send?.(report);
}

const timeScale = Number(process.env.BENCH_TIME_SCALE ?? '1');
if (!Number.isFinite(timeScale) || timeScale < 1) throw new TypeError(`BENCH_TIME_SCALE must be a number ≥ 1, got ${process.env.BENCH_TIME_SCALE}`);
if (globalThis.gc === undefined) throw new Error('bench/bot-process.ts needs --expose-gc');
const { values: botArguments } = parseArgs({ options: { 'deck-composer-idle-ms': { type: 'string' } } });
const deckComposerIdleMs = botArguments['deck-composer-idle-ms'] === undefined ? undefined : Number(botArguments['deck-composer-idle-ms']);
if (deckComposerIdleMs !== undefined && !(deckComposerIdleMs >= 0)) throw new TypeError(`--deck-composer-idle-ms must be a number ≥ 0, got ${botArguments['deck-composer-idle-ms']}`);

const config = loadConfig(process.env, { require: ['DISCORD_TOKEN'] });
const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });
const trim = mallocTrim(logger);
// Built here rather than by the app, so that its limiters (in process, or the fleet's) can be time-compressed.
const state = await createSharedState({
  redisUrl: config.redisUrl,
  logger,
  ...(config.shards ? { expectedFleetSize: config.shards.count } : {}),
});
const app = await createGatewayApp({
  config,
  logger,
  state,
  commands: [...commands, TRIVIAL_COMMAND],
  overrides: {
    ...(deckComposerIdleMs === undefined ? {} : { deckPictures: { idleMs: deckComposerIdleMs } }),
    ...(timeScale === 1
      ? {}
      : {
          limiterFactory: scaledLimiterFactory(timeScale, state.limiterFactory),
          // Every member's share is a sliding minute: it is time-compressed like the limiters.
          memberShares: {
            wallhaven: { windowMs: MEMBER_SHARES.wallhaven.windowMs / timeScale },
            geojs: { windowMs: MEMBER_SHARES.geojs.windowMs / timeScale },
            ygoprodeck: { windowMs: MEMBER_SHARES.ygoprodeck.windowMs / timeScale },
          },
        }),
  },
});
const servicesReadyAt = performance.now();
const cardsLoadedWithServices = app.services.cards.ready;
await app.start();
const discordReadyAt = performance.now();
// From the moment interactions are answered: a first start's downloads and matcher builds come after it.
const stalls = watchStalls({ splitLongestDelay: process.env.BENCH_SPLIT_LONGEST_DELAY === '1' });
const cardsReady = await app.services.cards.whenReady(120_000);
const cardsReadyAt = performance.now();
// Read before the memory is measured: its forced full collections (100-200 ms) are the bench's, not
// the bot's. Their delay of the event loop is recorded at the loop's next turn; it is dropped then.
const stallsUntilReady = stalls.read();
const memoryAtReady = await measureMemory();
await new Promise((resolve) => setTimeout(resolve, 20));
stalls.read();

send({
  type: 'ready',
  // performance.now() counts from the process's start, so these include Node's own start-up.
  timings: {
    modulesLoadedMs: modulesLoadedAt,
    servicesReadyMs: servicesReadyAt,
    discordReadyMs: discordReadyAt,
    cardsReadyMs: cardsReady ? (cardsLoadedWithServices ? servicesReadyAt : cardsReadyAt) : null,
  },
  cards: app.services.cards.size,
  memory: memoryAtReady,
  stalls: stallsUntilReady,
});

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'read-stalls':
      send({ type: 'stalls', id: message.id, stalls: stalls.read() });
      break;
    case 'languages':
      send({ type: 'languages', id: message.id, ready: CARD_LANGUAGES.filter((language) => app.services.cards.languageReady(language)) });
      break;
    case 'measure-memory':
      void measureMemory().then((memory) => send({ type: 'memory', id: message.id, memory }));
      break;
    case 'interaction-counts':
      void app.services.metrics.interactions.get().then((metric) => {
        const counts: Record<string, number> = {};
        for (const { labels, value } of metric.values) {
          const outcome = String(labels.outcome);
          counts[outcome] = (counts[outcome] ?? 0) + value;
        }
        send({ type: 'interaction-counts', id: message.id, counts });
      });
      break;
    case 'stop':
      void app.stop().then(() => process.exit(0));
      break;
  }
});
