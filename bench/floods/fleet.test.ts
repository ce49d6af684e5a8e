import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LimiterFactory } from '../../src/services/limiter.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { YGOPRODECK_UPSTREAM_LIMIT } from '../../src/services/ygoprodeck-limits.js';
import { createSharedState } from '../../src/state/index.js';
import { shardOf, startFakeDiscord, type FakeDiscord, type InteractionExchange } from '../../test/fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../../test/fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../../test/fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../../test/fakes/ygoprodeck.js';
import { CANARY_TOKEN, CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../../test/helpers/bot.js';
import { writeCardSnapshot } from '../../test/helpers/card-snapshot.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../../test/helpers/redis-server.js';
import { answerOf, crashLines, expectPlainSentence, scaledLimiters, startFaultProxy, type Answer, type FaultProxy } from '../../test/helpers/reliability.js';

/**
 * A fleet: three bot instances, each running one gateway shard of three, sharing one Redis, against
 * one fake Discord whose guilds spread over the shards and one set of fake upstreams. Floods of ten
 * times an upstream's limit arrive spread over the instances within a second: the FLEET must stay
 * within each upstream's limit, every interaction must be acknowledged within Discord's 3 s (the
 * fake refuses a later callback) and answered, and what one instance fetched the others reuse.
 * Wallhaven's limiters run 20× faster against a fake whose window is 20× shorter, as in floods.test.ts beside this file;
 * YGOPRODeck's run at production speed against its real 20-a-second window.
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
const BUSY = (label: string) => new RegExp(`^Almanac is busy with ${label} requests; try again in \\d+ seconds?\\.$`);

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
  /** Guilds in turn over every shard: interaction `index` goes to process `index % PROCESSES`. */
  const spreadGuild = (index: number) => guildOn(index % PROCESSES, Math.floor(index / PROCESSES) % 2);

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

  /** Sends `count` interactions at once; the flood must leave within a second. */
  async function flood(count: number, send: (index: number) => Promise<InteractionExchange>): Promise<Answer[]> {
    const logStart = bots.map((bot) => bot.logs.lines.length);
    const started = Date.now();
    const exchanges = await Promise.all(Array.from({ length: count }, (_, index) => send(index)));
    expect(Date.now() - started, 'the flood took longer than a second to send').toBeLessThan(1_000);
    const settled = await Promise.allSettled(exchanges.map((exchange) => answerOf(exchange)));
    const lost = settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(lost, `${lost.length} of ${count} interactions unanswered`).toEqual([]);
    const answers = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    // Nobody waits forever: every instance ends with nothing in flight.
    for (const bot of bots) await expect.poll(() => bot.app.router.inFlight).toBe(0);
    // Unexpected errors of this flood only (a bug, rather than a plain refusal).
    bots.forEach((bot, index) => expect(crashLines(bot, logStart[index])).toEqual([]));
    return answers;
  }

  it('Wallhaven: 450 calls over the three instances keep the fleet at or under 45 in any (scaled) minute', { timeout: 30_000 }, async () => {
    const ids = wallhaven.byPurity('sfw').map((wallpaper) => wallpaper.id);
    const answers = await flood(450, (index) => {
      const origin = { user: member(index), guildId: spreadGuild(index) };
      if (index % 3 === 0) return discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: ids[index % ids.length]! }, ...origin });
      if (index % 3 === 1) return discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `100x${index}` }, ...origin });
      return discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query: 'aeinst'[index % 6]! }, ...origin });
    });
    const served = answers.filter((answer) => answer.embeds.length === 1);
    const busy = answers.filter((answer) => BUSY('Wallhaven').test(answer.content));
    for (const answer of busy) expectPlainSentence(answer);
    expect(served.length + busy.length).toBe(450);
    expect(wallhaven.maxInWindow(WALLHAVEN_WINDOW_MS)).toBeLessThanOrEqual(WALLHAVEN_RATE_LIMIT.requests);
    for (const bot of bots) expect(bot.logs.text).not.toContain('answered 429');
  });

  it('YGOPRODeck: 200 /card show needing art over the three instances stay under 20 a second, unblocked', { timeout: 40_000 }, async () => {
    const cards = ygoprodeck.cards.slice(0, 200);
    const answers = await flood(200, (index) =>
      discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(cards[index]!.id) }, user: member(1_000 + index), guildId: spreadGuild(index) }),
    );
    expect(answers.filter((answer) => answer.embeds.length !== 1).map((answer) => answer.content)).toEqual([]);
    for (const bot of bots) {
      await expect.poll(() => bot.app.services.cards.health().limiter.queued + bot.app.services.cards.health().limiter.running, { timeout: 25_000 }).toBe(0);
    }
    expect(ygoprodeck.server.maxInWindow(YGOPRODECK_UPSTREAM_LIMIT.windowMs)).toBeLessThanOrEqual(YGOPRODECK_UPSTREAM_LIMIT.maxRequests);
    expect(ygoprodeck.blocked).toBe(false);
    // Each card's art is downloaded once for the fleet.
    const images = ygoprodeck.requestsTo('/images/cards/').map((request) => request.path);
    expect(images.length).toBe(new Set(images).size);
  });
});
