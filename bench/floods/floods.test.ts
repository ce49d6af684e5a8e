import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEOJS_LIMITS } from '../../src/services/geojs/geojs.js';
import type { LimiterState } from '../../src/runtime/status-report.js';
import { maxStartsInWindow, WALLHAVEN_LIMITS } from '../../src/services/wallhaven/wallhaven.js';
import { WALLHAVEN_MEMBER_SHARE } from '../../src/runtime/member-shares.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { YGOPRODECK_LIMITS, YGOPRODECK_UPSTREAM_LIMIT } from '../../src/services/ygoprodeck/ygoprodeck-limits.js';
import type { InteractionExchange, InteractionOrigin } from '../../test/fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../../test/fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../../test/fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../../test/fakes/ygoprodeck.js';
import { CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../../test/helpers/bot.js';
import { writeCardSnapshot } from '../../test/helpers/card-snapshot.js';
import { answerOf, crashLines, expectNoSecretLeaks, expectPlainSentence, scaledLimiters, type Answer } from '../../test/helpers/reliability.js';

/**
 * Floods: ten times each upstream's limit in interactions, all sent within one second, each from a
 * different member. Every interaction must be answered (a "busy" sentence counts), no upstream
 * window may go over its limit, the bot's queues stay within their bounds, and nothing is left
 * hanging afterwards. Wallhaven's limiter runs 20× faster against a fake whose window is 20× shorter.
 */

const member = (n: number): InteractionOrigin['user'] => ({ id: `1357${String(n).padStart(15, '0')}`, username: `member${n}` });
const BUSY = (label: string) => new RegExp(`^Almanac is busy with ${label} requests; try again in \\d+ seconds?\\.$`);

/** Watches a limiter's state while a flood runs: the largest queue and concurrency it reached. */
function watchLimiter(state: () => LimiterState): { stop(): { maxQueued: number; maxRunning: number } } {
  let maxQueued = 0;
  let maxRunning = 0;
  const timer = setInterval(() => {
    const now = state();
    maxQueued = Math.max(maxQueued, now.queued);
    maxRunning = Math.max(maxRunning, now.running);
  }, 2);
  return {
    stop() {
      clearInterval(timer);
      return { maxQueued, maxRunning };
    },
  };
}

/** Sends `count` interactions back to back; fails if sending them took a second or more. */
async function sendWithinASecond(count: number, send: (index: number) => Promise<InteractionExchange>): Promise<InteractionExchange[]> {
  const started = Date.now();
  const exchanges = await Promise.all(Array.from({ length: count }, (_, index) => send(index)));
  expect(Date.now() - started, 'the flood took longer than a second to send').toBeLessThan(1_000);
  return exchanges;
}

async function allAnswered(bot: TestBot, exchanges: InteractionExchange[]): Promise<Answer[]> {
  const answers = await Promise.all(exchanges.map((exchange) => answerOf(exchange)));
  // Nothing hangs: no interaction, queued job or running request is left behind.
  await expect.poll(() => bot.app.router.inFlight).toBe(0);
  return answers;
}

function heapMiB(): number {
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe('floods of ten times each upstream’s limit in one second', () => {
  it('the production limiter settings keep each upstream under its limit, with margin', () => {
    // Wallhaven: 45 a minute; YGOPRODeck: 20 a second (an hour's ban past it); GeoJS: none, 10 a second by choice.
    expect(maxStartsInWindow(WALLHAVEN_LIMITS.minTimeMs, WALLHAVEN_RATE_LIMIT.windowMs)).toBe(43);
    expect(maxStartsInWindow(YGOPRODECK_LIMITS.minTimeMs, YGOPRODECK_UPSTREAM_LIMIT.windowMs)).toBe(8);
    expect(maxStartsInWindow(GEOJS_LIMITS.minTimeMs, 1_000)).toBe(10);
    // A member's share of Wallhaven is under a quarter of what the limiter lets through.
    expect(WALLHAVEN_MEMBER_SHARE.limit).toBeLessThan(43 / 4);
  });

  describe('Wallhaven: 450 /wallpaper calls (45 a minute × 10), scaled 20×', () => {
    const SCALE = 20;
    const windowMs = WALLHAVEN_RATE_LIMIT.windowMs / SCALE;
    let wallhaven: FakeWallhaven;
    let bot: TestBot;

    beforeAll(async () => {
      wallhaven = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs } });
      bot = await startTestBot({
        env: { WALLHAVEN_URL: wallhaven.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY },
        overrides: { limiterFactory: scaledLimiters(SCALE) },
      });
    });

    afterAll(async () => {
      await bot?.stop();
      await wallhaven?.close();
    });

    it('answers every member (a wallpaper or "busy"), keeps every window at or under 45, and stays bounded', { timeout: 60_000 }, async () => {
      const ids = wallhaven.byPurity('sfw').map((wallpaper) => wallpaper.id);
      const heapBefore = heapMiB();
      const watch = watchLimiter(() => bot.app.services.wallhaven.health().limiter);
      // Shows of distinct wallpapers, searches with distinct minimum sizes, and random picks.
      const exchanges = await sendWithinASecond(450, (index) => {
        const user = member(index);
        if (index % 3 === 0) return bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: ids[index % ids.length]! }, user });
        if (index % 3 === 1) return bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `100x${index}` }, user });
        return bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query: `${'aeinst'[index % 6]}` }, user });
      });
      const answers = await allAnswered(bot, exchanges);
      const limiter = watch.stop();

      const served = answers.filter((answer) => answer.embeds.length === 1);
      const busy = answers.filter((answer) => BUSY('Wallhaven').test(answer.content));
      for (const answer of busy) expectPlainSentence(answer);
      expect(served.length + busy.length).toBe(450);
      expect(served.length).toBeGreaterThanOrEqual(WALLHAVEN_LIMITS.maxQueued);
      expect(wallhaven.maxInWindow(windowMs)).toBeLessThanOrEqual(WALLHAVEN_RATE_LIMIT.requests);
      // The fake never had to refuse anything: the limit was held before sending.
      expect(bot.app.services.wallhaven.health().details.rateLimitRemaining).toBeGreaterThanOrEqual(0);
      expect(bot.logs.entries().filter((line) => line.msg === 'interaction refused' && String(line.reason).includes('answered 429'))).toEqual([]);
      expect(limiter.maxQueued).toBeLessThanOrEqual(WALLHAVEN_LIMITS.maxQueued);
      expect(limiter.maxRunning).toBeLessThanOrEqual(WALLHAVEN_LIMITS.maxConcurrent);
      expect(bot.app.services.wallhaven.health().limiter).toMatchObject({ queued: 0, running: 0 });
      expect(heapMiB() - heapBefore).toBeLessThan(150);
      expect(crashLines(bot)).toEqual([]);
    });

    it('lets one member flooding 100 calls spend only their own 10, and the others are still served', { timeout: 60_000 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      wallhaven.reset();
      const flooder = member(10_000);
      // Searches nobody made before: each needs a request.
      const flood = await sendWithinASecond(100, (index) =>
        bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `200x${index + 1}` }, user: flooder }),
      );
      const floodAnswers = await allAnswered(bot, flood);
      const slowDown = floodAnswers.filter((answer) => answer.content.startsWith('Slow down: '));
      expect(floodAnswers.filter((answer) => answer.embeds.length === 1)).toHaveLength(WALLHAVEN_MEMBER_SHARE.limit);
      expect(slowDown).toHaveLength(100 - WALLHAVEN_MEMBER_SHARE.limit);
      for (const answer of slowDown) expect(answer.ephemeral).toBe(true);
      expect(wallhaven.requests).toHaveLength(WALLHAVEN_MEMBER_SHARE.limit);

      const others = await Promise.all(
        [1, 2, 3].map(async (n) => answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `300x${n}` }, user: member(20_000 + n) }))),
      );
      expect(others.map((answer) => answer.embeds.length)).toEqual([1, 1, 1]);
      expect(wallhaven.requests).toHaveLength(WALLHAVEN_MEMBER_SHARE.limit + 3);
      await expectNoSecretLeaks(bot, [wallhaven]);
    });
  });

  describe('GeoJS: 100 /ip lookups (our own 10 a second × 10)', () => {
    let geo: FakeGeoJs;
    let bot: TestBot;

    beforeAll(async () => {
      geo = await startFakeGeoJs();
      bot = await startTestBot({ env: { GEOJS_URL: geo.url } });
    });

    afterAll(async () => {
      await bot?.stop();
      await geo?.close();
    });

    it('answers every member, sending at most 10 requests in any second', { timeout: 60_000 }, async () => {
      const watch = watchLimiter(() => bot.app.services.geo.health().limiter);
      const exchanges = await sendWithinASecond(100, (index) => {
        const address = `81.2.${Math.floor(index / 200)}.${(index % 200) + 1}`;
        const user = member(index);
        return index % 2 === 0
          ? bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, user })
          : bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: `from ${address}`, user });
      });
      const answers = await allAnswered(bot, exchanges);
      const limiter = watch.stop();

      const served = answers.filter((answer) => answer.embeds.length === 1);
      const busy = answers.filter((answer) => BUSY('GeoJS').test(answer.content));
      expect(served.length + busy.length).toBe(100);
      expect(geo.maxInWindow(1_000, '/v1/ip/geo')).toBeLessThanOrEqual(10);
      // Lookups arriving together share requests: far fewer requests than lookups.
      expect(geo.requestsTo('/v1/ip/geo').length).toBeLessThan(25);
      expect(limiter.maxQueued).toBeLessThanOrEqual(GEOJS_LIMITS.maxQueued);
      expect(bot.app.services.geo.health().limiter).toMatchObject({ queued: 0, running: 0 });
      expect(crashLines(bot)).toEqual([]);
    });
  });

  describe('YGOPRODeck: 200 /card calls needing card art (20 a second × 10), production limiter', () => {
    let ygoprodeck: FakeYgoprodeck;
    let bot: TestBot;
    let dataDir: string;

    beforeAll(async () => {
      ygoprodeck = await startFakeYgoprodeck();
      dataDir = await mkdtemp(join(tmpdir(), 'almanac-flood-cards-'));
      await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
      bot = await startTestBot({ env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl, DATA_DIR: dataDir } });
    });

    afterAll(async () => {
      await bot?.stop();
      await ygoprodeck?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('shows every card (with its art when it came within 5 s), never over 10 requests in any second, and is never blocked', { timeout: 60_000 }, async () => {
      const cards = ygoprodeck.cards.slice(0, 200);
      const watch = watchLimiter(() => bot.app.services.cards.health().limiter);
      const exchanges = await sendWithinASecond(200, (index) =>
        bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(cards[index]!.id) }, user: member(index) }),
      );
      const answers = await allAnswered(bot, exchanges);
      const limiter = watch.stop();

      expect(answers.filter((answer) => answer.embeds.length !== 1).map((answer) => answer.content)).toEqual([]);
      // Art that was not there within 5 s is left out of the reply; the downloads queued go on.
      expect(answers.filter((answer) => answer.files.length === 1).length).toBeGreaterThan(0);
      await expect.poll(() => bot.app.services.cards.health().limiter.queued + bot.app.services.cards.health().limiter.running, { timeout: 20_000 }).toBe(0);
      const imageRequests = ygoprodeck.requestsTo('/images/cards/').length;
      expect(imageRequests).toBeGreaterThanOrEqual(YGOPRODECK_LIMITS.maxQueued);
      expect(ygoprodeck.server.maxInWindow(1_000)).toBeLessThanOrEqual(10);
      expect(ygoprodeck.blocked).toBe(false);
      expect(limiter.maxQueued).toBeLessThanOrEqual(YGOPRODECK_LIMITS.maxQueued);
      expect(limiter.maxRunning).toBeLessThanOrEqual(YGOPRODECK_LIMITS.maxConcurrent);
      expect(bot.app.services.cards.health().limiter).toMatchObject({ queued: 0, running: 0 });
      expect(crashLines(bot)).toEqual([]);
    });
  });
});
