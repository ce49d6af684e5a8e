import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { CardImageStore } from '../../../src/services/ygoprodeck/card-images.js';
import { GeoService } from '../../../src/services/geojs/geojs.js';
import type { LimiterOptions, UpstreamLimiter } from '../../../src/upstream/limiter.js';
import { isUpstreamError } from '../../../src/interaction/upstream-error.js';
import { maxStartsInWindow, WallhavenService } from '../../../src/services/wallhaven/wallhaven.js';
import { WALLHAVEN_RATE_LIMIT } from '../../../src/wallpaper/wallhaven-site.js';
import { YgoprodeckClient } from '../../../src/services/ygoprodeck/ygoprodeck.js';
import { createRedisState } from '../../../src/state/redis/index.js';
import { VALUE_FORMAT } from '../../../src/state/redis/value-codec.js';
import type { SharedState } from '../../../src/state/shared-state.js';
import { startFakeGeoJs, type FakeGeoJs } from '../../fakes/geojs.js';
import { startFakeWallhaven, WALLHAVEN_CATALOGUE, type FakeWallhaven } from '../../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../../fakes/ygoprodeck.js';
import { describeWithRedis, emptyRedis, startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

/**
 * Two processes' shared state on one real redis-server (here two instances in one test process,
 * each with its own connections), driving the real services and HTTP stack against the fakes.
 */

const silent = pino({ level: 'silent' });
/**
 * Wallhaven's budget 35 times faster: its 1,400 ms spacing becomes 40 ms and its 60 s window 1,714 ms,
 * so the limiter plans at most 43 starts a window and the upstream allows 45 (the production margin,
 * which absorbs timer jitter: two planned starts 40 ms apart may run 33 ms apart).
 */
const SCALE = 35;
const MIN_TIME_MS = 1_400 / SCALE;
const WINDOW_MS = Math.floor(WALLHAVEN_RATE_LIMIT.windowMs / SCALE);
const PLANNED = maxStartsInWindow(MIN_TIME_MS, WINDOW_MS);
const LIMIT = WALLHAVEN_RATE_LIMIT.requests;
/**
 * A burst: more starts than the limit, so a fleet that does not share its spacing (or a local share
 * that is not divided) fits more than LIMIT into one window; more than that only adds waiting.
 */
const BURST = LIMIT + 10;

function limiterOptions(upstream: LimiterOptions['upstream']): LimiterOptions {
  return { upstream, minTimeMs: MIN_TIME_MS, maxConcurrent: 2, maxQueued: 200, jobExpirationMs: 5_000 };
}

/** The most starts in any `windowMs` span. */
function maxInWindow(starts: number[], windowMs: number): number {
  const sorted = [...starts].sort((left, right) => left - right);
  let best = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= windowMs) first++;
    best = Math.max(best, last - first + 1);
  }
  return best;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describeWithRedis('shared state on a real Redis, two processes', () => {
  let redis: RedisServer;
  let fleet: SharedState[] = [];
  const stops: (() => Promise<unknown>)[] = [];

  async function twoProcesses(): Promise<[SharedState, SharedState]> {
    const first = await createRedisState({ url: redis.url, processId: `p1-${fleet.length}`, logger: silent });
    const second = await createRedisState({ url: redis.url, processId: `p2-${fleet.length}`, logger: silent });
    fleet.push(first, second);
    // Each learns the fleet's size from the other's heartbeat.
    await first.fleet.members();
    await second.fleet.members();
    return [first, second];
  }

  function limiters(states: SharedState[], upstream: LimiterOptions['upstream']): UpstreamLimiter[] {
    const created = states.map((state) => state.limiterFactory(limiterOptions(upstream)));
    stops.push(...created.map((limiter) => () => limiter.stop()));
    return created;
  }

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    for (const state of fleet.splice(0)) await state.close();
    fleet = [];
    await emptyRedis(redis.url);
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('runs on a patched Bottleneck: a settings key lost from Redis 7 is recreated instead of failing every job', async () => {
    const [first] = await twoProcesses();
    const [limiter] = limiters([first], 'geojs');
    await limiter!.schedule(async () => 'warm');
    const admin = new Redis(redis.url);
    try {
      const settingsKeys = await admin.keys('b_almanac:geojs_settings');
      expect(settingsKeys).toHaveLength(1);
      await admin.del(...settingsKeys);
      // Unpatched 2.19.5 compares "ERR SETTINGS_KEY_NOT_FOUND" to "SETTINGS_KEY_NOT_FOUND" and rejects.
      await expect(limiter!.schedule(async () => 'after loss')).resolves.toBe('after loss');
      expect(await admin.exists('b_almanac:geojs_settings')).toBe(1);
    } finally {
      admin.disconnect();
    }
  });

  it('keeps the fleet’s starts within one limit under a burst spread over both processes', async () => {
    const states = await twoProcesses();
    const [first, second] = limiters(states, 'geojs');
    const starts: number[] = [];
    const jobs = Array.from({ length: BURST }, (_, index) => (index % 2 === 0 ? first! : second!).schedule(async () => void starts.push(Date.now())));
    await Promise.all(jobs);
    expect(starts).toHaveLength(BURST);
    expect(PLANNED).toBe(43);
    expect(maxInWindow(starts, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it('stops every process when one sees a 429, and answers the other’s waiting callers at once', async () => {
    const states = await twoProcesses();
    const [first, second] = limiters(states, 'wallhaven');
    let sent = 0;
    const waiting = Array.from({ length: 20 }, () => second!.schedule(async () => void sent++).then(() => 'sent', (error: unknown) => error));
    first!.pause(30_000, 'wallhaven answered 429');
    await until(() => second!.state().pausedUntil !== null, 'the pause to reach the second process');
    const outcomes = await Promise.all(waiting);
    const refused = outcomes.filter((outcome) => isUpstreamError(outcome, 'rate_limited'));
    expect(refused.length).toBeGreaterThan(0);
    const sentBefore = sent;
    await expect(second!.schedule(async () => void sent++)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(sent).toBe(sentBefore);
    // A process that starts during the pause finds it too.
    const [late] = await twoProcesses();
    const [lateLimiter] = limiters([late!], 'wallhaven');
    await until(() => lateLimiter!.state().pausedUntil !== null, 'the pause to reach a late process');
  });

  it('fetches the same address, wallpaper and new card art once for the fleet', async () => {
    const [first, second] = await twoProcesses();
    const geojs: FakeGeoJs = await startFakeGeoJs();
    const wallhaven: FakeWallhaven = await startFakeWallhaven();
    const ygoprodeck: FakeYgoprodeck = await startFakeYgoprodeck();
    const dirs = await Promise.all([mkdtemp(join(tmpdir(), 'almanac-fleet-')), mkdtemp(join(tmpdir(), 'almanac-fleet-'))]);
    stops.push(
      () => geojs.close(),
      () => wallhaven.close(),
      () => ygoprodeck.server.close(),
      () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))),
    );
    const geo = [first!, second!].map((state) => new GeoService({ baseUrl: geojs.url, limiterFactory: state.limiterFactory, cacheFactory: state.cacheFactory }));
    const walls = [first!, second!].map(
      (state) => new WallhavenService({ baseUrl: wallhaven.url, apiKey: undefined, limiterFactory: state.limiterFactory, cacheFactory: state.cacheFactory }),
    );
    const clients = [first!, second!].map(
      (state) =>
        new YgoprodeckClient({ baseUrl: ygoprodeck.url, imagesBaseUrl: ygoprodeck.imagesUrl, limiterFactory: state.limiterFactory, cacheFactory: state.cacheFactory }),
    );
    const images = [first!, second!].map((state, index) => new CardImageStore({ client: clients[index]!, dataDir: dirs[index]!, shared: state.blobs }));
    stops.push(...[...geo, ...walls, ...clients].map((service) => () => service.close()));

    const [left, right] = await Promise.all([geo[0]!.lookup(['8.8.8.8']), geo[1]!.lookup(['8.8.8.8'])]);
    expect(left.get('8.8.8.8')).toEqual(right.get('8.8.8.8'));
    expect(geojs.requests).toHaveLength(1);

    const id = WALLHAVEN_CATALOGUE[0]!.id;
    const details = await Promise.all([walls[0]!.detail(id), walls[1]!.detail(id)]);
    expect(details[1]).toEqual(details[0]);
    expect(wallhaven.requests).toHaveLength(1);
    // Asked again later on the other process: an L2 hit, still one request.
    await walls[1]!.detail(id);
    expect(wallhaven.requests).toHaveLength(1);

    const imageId = ygoprodeck.cards[0]!.card_images![0]!.id;
    const arts = await Promise.all([images[0]!.get(imageId), images[1]!.get(imageId)]);
    expect(arts[1]!.equals(arts[0]!)).toBe(true);
    expect(ygoprodeck.server.requestsTo('/images/')).toHaveLength(1);
    expect(images.map((store) => store.stats().images)).toEqual([1, 1]);
  });

  it('downloads a card database version once for the fleet, and gives it to a process that starts later', async () => {
    const [first, second] = await twoProcesses();
    let downloads = 0;
    const download = async () => {
      downloads++;
      await sleep(50);
      return { cards: [{ id: 46986414, name: 'Dark Magician' }], skipped: 0, downloadedAt: new Date(Date.UTC(2026, 10, 24)) };
    };
    const [left, right] = await Promise.all([first!.downloadOnce('cards:en:1.00', download), second!.downloadOnce('cards:en:1.00', download)]);
    expect(downloads).toBe(1);
    expect(right).toEqual(left);
    expect(right.downloadedAt).toBeInstanceOf(Date);
    const [late] = await twoProcesses();
    expect(await late!.downloadOnce('cards:en:1.00', download)).toEqual(left);
    expect(downloads).toBe(1);
  });

  it('never reads a shared entry of the old layout, and loads for itself when its entry is damaged', async () => {
    const admin = new Redis(redis.url);
    try {
      // An old process's entry (gzipped JSON, base64 body) under the old key, and a damaged one under the new.
      await admin.set('almanac:download:cards:en:1.00', Buffer.concat([Buffer.of(0x01), gzipSync(JSON.stringify({ body: { $base64: 'AA==' } }))]));
      await admin.set(`almanac:download:${VALUE_FORMAT}:cards:en:1.00`, Buffer.concat([Buffer.of(0x01), gzipSync(Buffer.from('damaged'))]));
      await admin.set(`almanac:cache:${VALUE_FORMAT}:damaged:a`, Buffer.from('\x01{"old": "json"}'));
      const [first] = await twoProcesses();
      let downloads = 0;
      const download = async () => ({ body: Buffer.from(`download ${++downloads}`), starts: Uint32Array.of(0) });
      const shared = await first!.downloadOnce('cards:en:1.00', download);
      expect([shared.body.toString(), shared.starts]).toEqual(['download 1', Uint32Array.of(0)]);
      expect(await first!.downloadOnce('cards:fr:1.00', download)).toEqual({ body: Buffer.from('download 2'), starts: Uint32Array.of(0) });
      const cache = first!.cacheFactory<string>({ name: 'damaged', max: 10, ttlMs: 60_000, load: async (key) => `loaded ${key}` });
      expect(await cache.get('a')).toBe('loaded a');
      expect((await admin.keys('almanac:download:*')).sort()).toEqual(['almanac:download:cards:en:1.00', `almanac:download:${VALUE_FORMAT}:cards:en:1.00`, `almanac:download:${VALUE_FORMAT}:cards:fr:1.00`]);
    } finally {
      admin.disconnect();
    }
  });

  it('shares long pager queries, each member’s allowance, each channel’s recent picks and the keys seen once', async () => {
    const [first, second] = await twoProcesses();
    const long = 'northern lights over snowy mountains '.repeat(4);
    const key = await first!.longQueries.remember(long);
    expect(await second!.longQueries.recall(key)).toBe(long);

    const budgets = [first!, second!].map((state) => state.memberShareLedger({ name: 'test', limit: 3, windowMs: 60_000 }));
    const decisions = [];
    for (let use = 0; use < 4; use++) decisions.push(await budgets[use % 2]!.take('member-1'));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(await budgets[1]!.take('member-2')).toEqual({ allowed: true });

    const histories = [first!, second!].map((state) => state.channelHistory({ name: 'test', length: 3, maxChannels: 10 }));
    for (const id of [1, 2, 3, 4]) await histories[id % 2]!.add('channel-1', id);
    expect(await histories[0]!.recent('channel-1')).toEqual([2, 3, 4]);

    const seen = [first!, second!].map((state) => state.seenOnce({ name: 'test', ttlMs: 60_000, maxKeys: 10 }));
    // Seen by both at the same moment: first for exactly one of them, and a repeat for both afterwards.
    expect((await Promise.all(seen.map((set) => set.firstTime('interaction-1')))).sort()).toEqual([false, true]);
    expect(await Promise.all(seen.map((set) => set.firstTime('interaction-1')))).toEqual([false, false]);
    expect(await seen[1]!.firstTime('interaction-2')).toBe(true);
    expect(await seen[0]!.firstTime('interaction-2')).toBe(false);
  });

  it('starts degraded when Redis is unreachable, answering from local shares and caches, and joins once it is up', async () => {
    const unreachable = await startRedisServer();
    await unreachable.kill();
    const state = await createRedisState({ url: unreachable.url, processId: 'alone', logger: silent, expectedFleetSize: 3 });
    fleet.push(state);
    expect(state.health()).toMatchObject({ backend: 'redis', degraded: true, fallbackShareOf: 3 });
    const [limiter] = limiters([state], 'geojs');
    const starts: number[] = [];
    const scheduled = Date.now();
    await Promise.all(Array.from({ length: 4 }, () => limiter!.schedule(async () => void starts.push(Date.now()))));
    // A third of the budget: three spacings between starts, so the fourth starts nine spacings after
    // they were scheduled at the earliest (timers may fire a few ms early). Measured from the
    // scheduling, not between starts: a busy machine can only make a start later, never earlier.
    expect(Math.max(...starts) - scheduled).toBeGreaterThanOrEqual(3 * 3 * MIN_TIME_MS - 10);
    const cache = state.cacheFactory<string>({ name: 'offline', max: 10, ttlMs: 60_000, load: async (key) => `loaded ${key}` });
    expect(await cache.get('a')).toBe('loaded a');
    expect((await state.memberShareLedger({ name: 'offline', limit: 1, windowMs: 60_000 }).take('member')).allowed).toBe(true);
    const seen = state.seenOnce({ name: 'offline', ttlMs: 60_000, maxKeys: 10 });
    expect([await seen.firstTime('k'), await seen.firstTime('k')]).toEqual([true, false]);
    await unreachable.restart();
    stops.push(() => unreachable.stop());
    await until(() => !state.health().degraded, 'Redis to be found');
  });

  it('keeps answering within a local share when Redis dies mid-burst, and shares again once it returns', async () => {
    const states = await twoProcesses();
    const [first, second] = limiters(states, 'ygoprodeck');
    const starts: number[] = [];
    const burst = (count: number) =>
      Array.from({ length: count }, (_, index) => (index % 2 === 0 ? first! : second!).schedule(async () => void starts.push(Date.now())));
    const running = burst(BURST);
    await sleep(MIN_TIME_MS * 5);
    await redis.kill();
    await Promise.all(running);
    expect(starts).toHaveLength(BURST);
    expect(maxInWindow(starts, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    expect(states.map((state) => state.health().degraded)).toEqual([true, true]);
    expect(states.map((state) => state.health().fallbackShareOf)).toEqual([2, 2]);
    // Every job is done: none is left in the shared queue to spend a slot, or a member's announced wait, once Redis returns.
    expect([first!.state(), second!.state()].map(({ queued, running }) => ({ queued, running }))).toEqual([
      { queued: 0, running: 0 },
      { queued: 0, running: 0 },
    ]);

    await redis.restart();
    await until(() => states.every((state) => !state.health().degraded), 'sharing to resume');
    starts.length = 0;
    await Promise.all(burst(LIMIT));
    expect(maxInWindow(starts, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    expect([first!.state().queued, second!.state().queued]).toEqual([0, 0]);

    // Sharing is back: a value loaded by one is a hit for the other.
    let loads = 0;
    const caches = states.map((state) =>
      state.cacheFactory<string>({ name: 'resume', max: 10, ttlMs: 60_000, load: async () => `value ${++loads}` }),
    );
    expect(await caches[0]!.get('k')).toBe('value 1');
    expect(await caches[1]!.get('k')).toBe('value 1');
    expect(loads).toBe(1);
  });

  it('gives a limiter stopped during an outage no shared side when Redis returns', async () => {
    const [state] = await twoProcesses();
    const [stopped] = limiters([state], 'geojs');
    await stopped!.schedule(async () => undefined);
    await redis.kill();
    await until(() => state.health().degraded, 'the outage to be seen');
    await stopped!.stop();
    await redis.restart();
    await until(() => !state.health().degraded, 'sharing to resume');
    // Made after the return, on the same connection: once it has stored its settings, a shared side
    // the stopped limiter had made at the return would have stored its own before.
    const [live] = limiters([state], 'wallhaven');
    await live!.schedule(async () => undefined);
    const client = new Redis(redis.url);
    try {
      const settings = await client.keys('*_settings');
      expect(settings.filter((key) => key.includes('wallhaven'))).toHaveLength(1);
      expect(settings.filter((key) => key.includes('geojs'))).toEqual([]);
    } finally {
      client.disconnect();
    }
  });
});
