/**
 * What the benchmark parts share on the bench's side: the fake upstreams (optionally
 * time-compressed), a DATA_DIR holding a card database snapshot, the bot in the bench's own
 * process, and timing of one interaction through the fake Discord.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InteractionResponseType } from 'discord.js';
import { pino } from 'pino';
import { commands } from '../commands/index.js';
import { CARD_LANGUAGES } from '../src/cards/card.js';
import type { RawCard } from '../src/cards/normalise-card.js';
import { createCardService } from '../src/services/ygoprodeck/card-service-factory.js';
import { WALLHAVEN_RATE_LIMIT } from '../src/wallpaper/wallhaven-site.js';
import { YGOPRODECK_UPSTREAM_LIMIT } from '../src/services/ygoprodeck/ygoprodeck-limits.js';
import type { InteractionCallback, InteractionExchange } from '../test/fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../test/fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../test/fakes/wallhaven.js';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../test/fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../test/helpers/bot.js';
import { TRIVIAL_COMMAND } from './bot-shared.js';

/** A bot token shaped like a real one; only the fake Discord ever sees it. */
export const BENCH_TOKEN = 'bench-discord-token.MTAxMDEwMTAxMDEw.benchpart0123456789';

export interface BenchUpstreams {
  geojs: FakeGeoJs;
  wallhaven: FakeWallhaven;
  ygoprodeck: FakeYgoprodeck;
  /** Environment pointing the bot at these fakes. */
  env: Record<string, string>;
  /** The upstreams' window limits as these fakes enforce them (divided by the time scale). */
  windows: { ygoprodeckMs: number; wallhavenMs: number };
  close(): Promise<void>;
}

/** The three fake upstreams, YGOPRODeck serving `cards` (the whole real card database by default). */
export async function startBenchUpstreams(timeScale = 1, cards: RawCard[] = loadCardDump()): Promise<BenchUpstreams> {
  const windows = {
    ygoprodeckMs: YGOPRODECK_UPSTREAM_LIMIT.windowMs / timeScale,
    wallhavenMs: WALLHAVEN_RATE_LIMIT.windowMs / timeScale,
  };
  const geojs = await startFakeGeoJs();
  const wallhaven = await startFakeWallhaven({ rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: windows.wallhavenMs } });
  const ygoprodeck = await startFakeYgoprodeck({
    cards,
    rateLimit: { windowMs: windows.ygoprodeckMs, maxRequests: YGOPRODECK_UPSTREAM_LIMIT.maxRequests },
  });
  return {
    geojs,
    wallhaven,
    ygoprodeck,
    env: { GEOJS_URL: geojs.url, WALLHAVEN_URL: wallhaven.url, YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
    windows,
    async close() {
      await Promise.all([geojs.close(), wallhaven.close(), ygoprodeck.close()]);
    },
  };
}

/**
 * A DATA_DIR whose card database snapshots were written by the bot's own code: the card service
 * downloads the whole database once from the fake YGOPRODeck and persists it, as on a first start;
 * with `languages`, it also waits for every language's database (downloaded after English).
 * `minCards` lowers the smallest download the bot accepts (5,000 cards), for a tiny run's dump.
 */
export async function prepareSnapshotDir(ygoprodeckUrl: string, options: { languages?: boolean; minCards?: number } = {}): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'almanac-bench-snapshot-'));
  const database = options.minCards === undefined ? {} : { database: { minCards: options.minCards } };
  const cards = createCardService({ baseUrl: ygoprodeckUrl, dataDir, logger: pino({ level: 'silent' }), ...database });
  try {
    await cards.start();
    if (!(await cards.whenReady(120_000))) throw new Error('the card database was not downloaded from the fake YGOPRODeck within 120 s (or it was refused)');
    const deadline = performance.now() + 180_000;
    while (options.languages === true && !CARD_LANGUAGES.every((language) => cards.languageReady(language))) {
      if (performance.now() > deadline) throw new Error('the language databases were not downloaded from the fake YGOPRODeck within 180 s');
      await sleep(100);
    }
  } catch (error) {
    await cards.close();
    await removeDir(dataDir);
    throw error;
  }
  await cards.close();
  return dataDir;
}

/** A fresh copy of a prepared DATA_DIR, so that images one run stores never warm another. */
export async function copyDataDir(source: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'almanac-bench-data-'));
  await cp(source, copy, { recursive: true });
  return copy;
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface TimedCallback {
  exchange: InteractionExchange;
  callback: InteractionCallback;
  /** INTERACTION_CREATE dispatch to the arrival of the acknowledgement, in ms. */
  latencyMs: number;
}

/** Waits for an interaction's acknowledgement and times it from the fake Discord's own clock. */
export async function timeCallback(started: Promise<InteractionExchange>, timeoutMs = 10_000): Promise<TimedCallback> {
  const exchange = await started;
  const callback = await exchange.callback(timeoutMs);
  const { dispatchedAt, acknowledgedAt } = exchange.timing();
  if (acknowledgedAt === undefined) throw new Error(`interaction ${exchange.id}: acknowledged without an arrival time`);
  return { exchange, callback, latencyMs: acknowledgedAt - dispatchedAt };
}

/**
 * What an interaction answered: its acknowledgement, or, when the bot deferred (it defers whatever
 * takes over 250 ms, which a busy machine can make of a cached answer too), the message it then
 * wrote, in the acknowledgement's shape. Checks read this, so that load can slow a sample down
 * (reported as deferred) but never make a right answer look wrong and stop the run.
 */
export async function answerOf(timed: TimedCallback): Promise<{ answer: InteractionCallback; deferred: boolean }> {
  if (timed.callback.type !== InteractionResponseType.DeferredChannelMessageWithSource) return { answer: timed.callback, deferred: false };
  const final = await timed.exchange.final(30_000);
  return { answer: { type: InteractionResponseType.ChannelMessageWithSource, data: { content: final.content, embeds: final.embeds }, files: final.files }, deferred: true };
}

/** Lets callbacks and timers queued by the last interaction run before the next one starts. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts a bot on a copy of the snapshot DATA_DIR (checking its card database loaded); `stop` also removes the copy. */
export async function startOnSnapshotCopy<Bot extends { stop(): Promise<void>; app: { services: { cards: { ready: boolean } } } }>(
  snapshotDir: string,
  start: (dataDir: string) => Promise<Bot>,
): Promise<{ bot: Bot; stop(): Promise<void> }> {
  const dataDir = await copyDataDir(snapshotDir);
  let bot: Bot | undefined;
  try {
    bot = await start(dataDir);
    if (!bot.app.services.cards.ready) throw new Error('the card database snapshot did not load');
  } catch (error) {
    await bot?.stop();
    await removeDir(dataDir);
    throw error;
  }
  return {
    bot,
    async stop() {
      await bot.stop();
      await removeDir(dataDir);
    },
  };
}

/**
 * The bot in this process, on a copy of the snapshot DATA_DIR, with production limiter settings.
 * Its GeoJS member share is lifted: the latency scenarios ask hundreds of new addresses as one
 * member, which the share (60 a minute) would refuse, and what they time is the lookup, not the
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
