import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LimiterFactory } from '../../src/services/limiter.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { createSharedState } from '../../src/state/index.js';
import { shardOf, startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN, CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../helpers/bot.js';
import { writeCardSnapshot } from '../helpers/card-snapshot.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { answerOf, expectPlainSentence, scaledLimiters, startFaultProxy, type FaultProxy } from '../helpers/reliability.js';

/**
 * A fleet: three bot instances, each running one gateway shard of three, sharing one Redis, against
 * one fake Discord whose guilds spread over the shards and one set of fake upstreams: what one
 * instance fetched the others reuse, and a pause one instance meets stops the others. (The floods
 * over the fleet, ten times an upstream's limit, are `npm run bench -- --only floods`:
 * bench/floods/fleet.test.ts.) Wallhaven's limiters run 20× faster against a fake whose window is
 * 20× shorter.
 */

const PROCESSES = 3;
const SCALE = 20;
const WALLHAVEN_WINDOW_MS = WALLHAVEN_RATE_LIMIT.windowMs / SCALE;

/** The fleet's limiters, Wallhaven's time-compressed; YGOPRODeck's and GeoJS's at production speed, as in floods.test.ts. */
function wallhavenScaled(fleet: LimiterFactory): LimiterFactory {
  const scaled = scaledLimiters(SCALE, {}, fleet);
  return (options) => (options.upstream === 'wallhaven' ? scaled(options) : fleet(options));
}

const member = (n: number) => ({ id: `1358${String(n).padStart(15, '0')}`, username: `fleet${n}` });

describeWithRedis('a fleet of three shard processes on one Redis', () => {
  let redis: RedisServer;
  let discord: FakeDiscord;
  let wallhaven: FakeWallhaven;
  let wallhavenProxy: FaultProxy;
  let ygoprodeck: FakeYgoprodeck;
  let geo: FakeGeoJs;
  let dataDirs: string[] = [];
  const bots: TestBot[] = [];

  /** A guild on `shard`'s process, the `index`-th of the fake's guilds there. */
  const guildOn = (shard: number, index = 0) => discord.guilds.filter((guild) => shardOf(guild.id, PROCESSES) === shard)[index]!.id;

  beforeAll(async () => {
    redis = await startRedisServer();
    discord = await startFakeDiscord({ token: CANARY_TOKEN, guilds: PROCESSES * 2, shardCount: PROCESSES, maxConcurrency: PROCESSES });
    wallhaven = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: WALLHAVEN_WINDOW_MS } });
    wallhavenProxy = await startFaultProxy(wallhaven.url);
    ygoprodeck = await startFakeYgoprodeck();
    geo = await startFakeGeoJs();
    for (let shard = 0; shard < PROCESSES; shard++) {
      const dataDir = await mkdtemp(join(tmpdir(), 'almanac-fleet-'));
      dataDirs.push(dataDir);
      await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
      // Built here rather than by the app from REDIS_URL, so that its fleet limiters can be time-compressed.
      const state = await createSharedState({ redisUrl: redis.url, logger: pino({ level: 'silent' }), processId: `shard-${shard}`, expectedFleetSize: PROCESSES });
      bots.push(
        await startTestBot({
          joinDiscord: discord,
          env: {
            SHARD_COUNT: String(PROCESSES),
            SHARD_IDS: String(shard),
            REDIS_URL: redis.url,
            DATA_DIR: dataDir,
            WALLHAVEN_URL: wallhavenProxy.url,
            WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY,
            YGOPRODECK_URL: ygoprodeck.url,
            YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl,
            GEOJS_URL: geo.url,
          },
          state,
          overrides: { limiterFactory: wallhavenScaled(state.limiterFactory) },
        }),
      );
    }
  });

  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await discord?.close();
    await Promise.all([wallhavenProxy?.close(), wallhaven?.close(), ygoprodeck?.close(), geo?.close()]);
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    dataDirs = [];
    await redis?.stop();
  });

  it('the same wallpaper search and the same address asked on two instances cost one upstream request each', async () => {
    const address = '81.2.200.17';
    const resolution = '1234x567';
    const wallhavenBefore = wallhaven.requests.filter((request) => request.query.get('atleast') === resolution).length;
    const geoBefore = geo.requestsTo('/v1/ip/geo').length;
    for (const shard of [0, 1]) {
      const origin = { user: member(5_000 + shard), guildId: guildOn(shard) };
      const found = await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution }, ...origin }));
      expect(found.embeds).toHaveLength(1);
      expect((await answerOf(await discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, ...origin }))).embeds).toHaveLength(1);
    }
    expect(wallhaven.requests.filter((request) => request.query.get('atleast') === resolution).length - wallhavenBefore).toBe(1);
    expect(geo.requestsTo('/v1/ip/geo').length - geoBefore).toBe(1);
  });

  it('a 429 seen through one instance stops the others from sending to Wallhaven until it ends', { timeout: 20_000 }, async () => {
    // Scaled 20×: a 40 s Retry-After pauses the fleet for 2 s.
    await new Promise((resolve) => setTimeout(resolve, WALLHAVEN_WINDOW_MS));
    wallhavenProxy.reset();
    wallhavenProxy.nextResponses.push({ status: 429, headers: { 'retry-after': '40' }, body: 'Too Many Requests' });
    const first = await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: '400x1' }, user: member(6_000), guildId: guildOn(0) }));
    expectPlainSentence(first);
    const proxied = wallhavenProxy.requests.length;
    for (const shard of [1, 2]) {
      const other = await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `400x${shard + 1}` }, user: member(6_000 + shard), guildId: guildOn(shard) }));
      expectPlainSentence(other);
    }
    expect(wallhavenProxy.requests.length, 'another instance sent to Wallhaven during the pause').toBe(proxied);
    await expect
      .poll(async () => (await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: '400x9' }, user: member(6_009), guildId: guildOn(2) }))).embeds.length, {
        timeout: 10_000,
        interval: 500,
      })
      .toBe(1);
  });
});
