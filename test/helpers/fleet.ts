import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { LimiterFactory } from '../../src/upstream/limiter.js';
import { createSharedState } from '../../src/state/index.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { shardOf, startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN, CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from './bot.js';
import { writeCardSnapshot } from './card-snapshot.js';
import { startFleetStores, type FleetStores } from './fleet-stores.js';
import type { RedisServer } from './redis-server.js';
import { scaledLimiters, startFaultProxy, type FaultProxy } from './reliability.js';

/** Processes (each one gateway shard of as many) in a test fleet. */
export const FLEET_PROCESSES = 3;
/** Wallhaven's limiters run this much faster, against a fake whose window is as much shorter. */
export const FLEET_WALLHAVEN_SCALE = 20;
export const FLEET_WALLHAVEN_WINDOW_MS = WALLHAVEN_RATE_LIMIT.windowMs / FLEET_WALLHAVEN_SCALE;

/**
 * A fleet: three bot instances, each running one gateway shard of three, sharing one real Redis
 * and one PostgreSQL database (test/helpers/fleet-stores.ts: fleet tests need both), against one
 * fake Discord whose guilds spread over the shards and one set of fake upstreams (Wallhaven behind
 * a fault proxy). Used by the fleet's tests (test/reliability/fleet.test.ts) and
 * its floods (bench/floods/fleet.test.ts).
 */
export interface TestFleet {
  redis: RedisServer;
  stores: FleetStores;
  discord: FakeDiscord;
  wallhaven: FakeWallhaven;
  wallhavenProxy: FaultProxy;
  ygoprodeck: FakeYgoprodeck;
  geo: FakeGeoJs;
  bots: TestBot[];
  /** A guild on `shard`'s process, the `index`-th of the fake's guilds there. */
  guildOn(shard: number, index?: number): string;
  stop(): Promise<void>;
}

/** The fleet's limiters, Wallhaven's time-compressed; YGOPRODeck's and GeoJS's at production speed. */
function wallhavenScaled(fleet: LimiterFactory): LimiterFactory {
  const scaled = scaledLimiters(FLEET_WALLHAVEN_SCALE, {}, fleet);
  return (options) => (options.upstream === 'wallhaven' ? scaled(options) : fleet(options));
}

export async function startTestFleet(): Promise<TestFleet> {
  const stores = await startFleetStores();
  const { redis } = stores;
  const discord = await startFakeDiscord({ token: CANARY_TOKEN, guilds: FLEET_PROCESSES * 2, shardCount: FLEET_PROCESSES, maxConcurrency: FLEET_PROCESSES });
  const wallhaven = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: FLEET_WALLHAVEN_WINDOW_MS } });
  const wallhavenProxy = await startFaultProxy(wallhaven.url);
  const ygoprodeck = await startFakeYgoprodeck();
  const geo = await startFakeGeoJs();
  const dataDirs: string[] = [];
  const bots: TestBot[] = [];
  for (let shard = 0; shard < FLEET_PROCESSES; shard++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'almanac-fleet-'));
    dataDirs.push(dataDir);
    await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
    // Built here rather than by the app from REDIS_URL, so that its fleet limiters can be time-compressed.
    const state = await createSharedState({ redisUrl: redis.url, logger: pino({ level: 'silent' }), processId: `shard-${shard}`, expectedFleetSize: FLEET_PROCESSES });
    bots.push(
      await startTestBot({
        joinDiscord: discord,
        env: {
          SHARD_COUNT: String(FLEET_PROCESSES),
          SHARD_IDS: String(shard),
          ...stores.env,
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
  return {
    redis,
    stores,
    discord,
    wallhaven,
    wallhavenProxy,
    ygoprodeck,
    geo,
    bots,
    guildOn: (shard, index = 0) => discord.guilds.filter((guild) => shardOf(guild.id, FLEET_PROCESSES) === shard)[index]!.id,
    async stop() {
      for (const bot of bots) await bot.stop();
      await discord.close();
      await Promise.all([wallhavenProxy.close(), wallhaven.close(), ygoprodeck.close(), geo.close()]);
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
      await stores.stop();
    },
  };
}
