import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GEOJS_CACHE_TTL_MS } from '../../src/services/geojs/geojs.js';
import { GEOJS_MEMBER_SHARE, WALLHAVEN_MEMBER_SHARE, YGOPRODECK_MEMBER_SHARE } from '../../src/runtime/member-shares.js';
import { createLocalLimiterFactory, type LimiterFactory } from '../../src/upstream/limiter.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import type { InteractionOrigin } from '../fakes/discord.js';
import type { RecordedRequest } from '../fakes/fake-server.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { writeCardSnapshot } from '../helpers/card-snapshot.js';
import { waitForLanguageDatabases } from '../helpers/language-databases.js';
import { answerOf, CacheClock, clockedCaches, crashLines, FINAL_ANSWER_WITHIN_MS, expectPlainSentence, scaledLimiters } from '../helpers/reliability.js';

/**
 * One member's share of every upstream, end to end with all three fakes: an expired cache entry is
 * refreshed only on the share of the member who asked for it, and one member flooding every command
 * at once neither pushes an upstream past their share nor keeps a bystander waiting for more than the flooder's share of each upstream.
 * Wallhaven's limiter runs 20× faster against a fake whose window is 20× shorter; the caches and the
 * member budgets read clocks the tests move.
 */

const SCALE = 20;
/** Longer than Wallhaven's search TTL (5 minutes) and GeoJS's (12 hours): every entry is expired. */
const EXPIRE_EVERYTHING_MS = GEOJS_CACHE_TTL_MS + 60_000;
const member = (n: number): InteractionOrigin['user'] => ({ id: `1358${String(n).padStart(15, '0')}`, username: `member${n}` });
const GEOJS_SLOW_DOWN = /^Slow down: GeoJS lookups are shared by everyone here, and you have looked up your 60 new addresses for now\. Try again in \d+ seconds? \(addresses already looked up stay free\)\.$/;

/** Ten public addresses no one looked up before, distinct for each `list`. */
const addressList = (series: number, list: number) => Array.from({ length: 10 }, (_, n) => `11.${series}.${list}.${n + 1}`);

describe('each member’s share of every upstream', () => {
  let wallhaven: FakeWallhaven;
  let geo: FakeGeoJs;
  let ygoprodeck: FakeYgoprodeck;
  let dataDir: string;
  let bot: TestBot;
  const cacheClock = new CacheClock();
  let now = Date.now();

  const search = (resolution: string, user: InteractionOrigin['user']) =>
    bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution }, user });
  const lookup = (addresses: string[], user: InteractionOrigin['user']) =>
    bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: addresses.join(' ') }, user });
  const showCard = (id: number, user: InteractionOrigin['user']) => bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(id) }, user });
  const geoAddressesAsked = () => geo.requestsTo('/v1/ip/geo').flatMap((request) => (request.query.get('ip') ?? '').split(','));
  const artDownloads = () => ygoprodeck.requestsTo('/images/cards/').length;

  /** Until every upstream queue is empty: background refreshes have been sent. */
  async function upstreamsIdle(): Promise<void> {
    const services = bot.app.services;
    for (const limiter of [() => services.wallhaven.health().limiter, () => services.geo.health().limiter, () => services.cards.health().limiter]) {
      await expect.poll(() => limiter().queued + limiter().running, { timeout: 20_000 }).toBe(0);
    }
  }

  beforeAll(async () => {
    wallhaven = await startFakeWallhaven({ rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: WALLHAVEN_RATE_LIMIT.windowMs / SCALE } });
    geo = await startFakeGeoJs();
    ygoprodeck = await startFakeYgoprodeck();
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-fair-share-'));
    await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
    const scaled = scaledLimiters(SCALE);
    const production = createLocalLimiterFactory();
    const limiterFactory: LimiterFactory = (options) => (options.upstream === 'wallhaven' ? scaled(options) : production(options));
    bot = await startTestBot({
      env: { WALLHAVEN_URL: wallhaven.url, GEOJS_URL: geo.url, YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl, DATA_DIR: dataDir },
      overrides: { limiterFactory, cacheFactory: clockedCaches(cacheClock), clock: { now: () => new Date(now) } },
      // Discord's 3 s to acknowledge is wall-clock time: under a flood of 120 interactions it measures
      // how fast this machine is, not Almanac, so it is measured by `npm run bench` (floods) instead.
      // Here a bystander's wait is bounded by what is queued ahead of them (see below).
      discord: { callbackDeadlineMs: FINAL_ANSWER_WITHIN_MS },
    });
    expect(await bot.app.services.cards.whenReady(30_000)).toBe(true);
    await waitForLanguageDatabases(bot.app.services.cards);
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await Promise.all([wallhaven?.close(), geo?.close(), ygoprodeck?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await upstreamsIdle();
    for (const fake of [wallhaven, geo]) fake.reset();
    ygoprodeck.server.reset();
    // Each test starts well after the last: every member's share is whole again.
    now += 10 * 60_000;
  });

  it('refreshes an expired search or address only on the share of the member who asked, and serves it as it is past that share', { timeout: 60_000 }, async () => {
    // Searches and addresses other members looked up earlier, each within their own share.
    const resolutions = Array.from({ length: 20 }, (_, index) => `100x${index + 1}`);
    for (const [index, resolution] of resolutions.entries()) expect((await answerOf(await search(resolution, member(100 + index)))).embeds).toHaveLength(1);
    const lists = Array.from({ length: 7 }, (_, list) => addressList(1, list));
    for (const [index, list] of lists.entries()) expect((await answerOf(await lookup(list, member(200 + index)))).embeds).toHaveLength(list.length);
    expect(wallhaven.requests).toHaveLength(20);
    expect(geoAddressesAsked()).toHaveLength(70);
    await upstreamsIdle();
    wallhaven.reset();
    geo.reset();

    cacheClock.advance(EXPIRE_EVERYTHING_MS);
    now += 10 * 60_000;
    const rerunner = member(1);
    const searches = [];
    for (const resolution of resolutions) searches.push(await answerOf(await search(resolution, rerunner)));
    const lookups = [];
    for (const list of lists) lookups.push(await answerOf(await lookup(list, rerunner)));
    await upstreamsIdle();

    // Every answer came from the cache at once; only the member's share was spent refreshing.
    expect(searches.map((answer) => answer.embeds.length)).toEqual(resolutions.map(() => 1));
    expect(lookups.map((answer) => answer.embeds.length)).toEqual(lists.map((list) => list.length));
    expect(wallhaven.requests).toHaveLength(WALLHAVEN_MEMBER_SHARE.limit);
    expect(geoAddressesAsked()).toHaveLength(GEOJS_MEMBER_SHARE.limit);

    // The refreshes were charged: a search nobody made before is now refused to this member.
    expectPlainSentence(await answerOf(await search('100x999', rerunner)), /^Slow down: Wallhaven requests are shared by everyone here/);
    expect(wallhaven.requests).toHaveLength(WALLHAVEN_MEMBER_SHARE.limit);
    expect(crashLines(bot)).toEqual([]);
  });

  it('holds one member flooding every command to their share of each upstream, and answers a bystander with card art meanwhile', { timeout: 90_000 }, async () => {
    const resolutions = Array.from({ length: 20 }, (_, index) => `200x${index + 1}`);
    for (const [index, resolution] of resolutions.entries()) await answerOf(await search(resolution, member(300 + index)));
    await upstreamsIdle();
    cacheClock.advance(EXPIRE_EVERYTHING_MS);
    now += 10 * 60_000;
    wallhaven.reset();
    geo.reset();
    ygoprodeck.server.reset();

    const flooder = member(2);
    const newCards = ygoprodeck.cards.slice(0, 40);
    const flood = await Promise.all([
      ...resolutions.map((resolution) => search(resolution, flooder)),
      ...Array.from({ length: 60 }, (_, list) => lookup(addressList(2, list), flooder)),
      ...newCards.map((card) => showCard(card.id, flooder)),
    ]);

    // A bystander during the flood is answered with data, and waits at most for the flooder's share of
    // each upstream: their request is sent no later than right after the flooder's share of requests,
    // however slow the machine (a wall-clock deadline here would measure the machine, not the queue).
    const bystander = member(3);
    const bystanderCard = ygoprodeck.cards[100]!;
    const [card, place, wallpapers] = await Promise.all([
      showCard(bystanderCard.id, bystander).then((exchange) => answerOf(exchange)),
      lookup(['8.8.8.8'], bystander).then((exchange) => answerOf(exchange)),
      search('300x1', bystander).then((exchange) => answerOf(exchange)),
    ]);
    expect(card.embeds[0]?.title).toContain(bystanderCard.name);
    expect(card.files).toHaveLength(1);
    expect(place.embeds[0]?.title).toContain('8.8.8.8');
    expect(wallpapers.embeds).toHaveLength(1);
    /** How many requests went to the upstream before the bystander's. */
    const queuedAhead = (requests: RecordedRequest[], isBystanders: (request: RecordedRequest) => boolean) => {
      const position = requests.findIndex(isBystanders);
      expect(position, 'the bystander’s request was sent').toBeGreaterThanOrEqual(0);
      return position;
    };
    expect(queuedAhead(wallhaven.requests, (request) => request.url.includes('300x1'))).toBeLessThanOrEqual(WALLHAVEN_MEMBER_SHARE.limit);
    // Each lookup of the flooder is one batch of 10 addresses at most.
    expect(queuedAhead(geo.requestsTo('/v1/ip/geo'), (request) => request.query.get('ip')!.split(',').includes('8.8.8.8'))).toBeLessThanOrEqual(GEOJS_MEMBER_SHARE.limit / 10);
    expect(queuedAhead(ygoprodeck.requestsTo('/images/cards/'), (request) => request.path.includes(String(bystanderCard.id)))).toBeLessThanOrEqual(YGOPRODECK_MEMBER_SHARE.limit);

    const answers = await Promise.all(flood.map((exchange) => answerOf(exchange)));
    await upstreamsIdle();
    const [searches, lookups, cards] = [answers.slice(0, 20), answers.slice(20, 80), answers.slice(80)];
    // Every stale search is still answered; lookups past the share are refused in private; every card is shown.
    expect(searches.every((answer) => answer.embeds.length === 1)).toBe(true);
    const refused = lookups.filter((answer) => answer.embeds.length === 0);
    expect(lookups.length - refused.length).toBeLessThanOrEqual(GEOJS_MEMBER_SHARE.limit / 10);
    for (const answer of refused) {
      expectPlainSentence(answer, GEOJS_SLOW_DOWN);
      expect(answer.ephemeral).toBe(true);
    }
    expect(cards.every((answer) => answer.embeds.length === 1)).toBe(true);
    expect(cards.filter((answer) => answer.files.length === 1).length).toBeLessThanOrEqual(YGOPRODECK_MEMBER_SHARE.limit);

    // No upstream saw more than the flooder's share, plus the bystander's one request.
    expect(wallhaven.requests.length).toBeLessThanOrEqual(WALLHAVEN_MEMBER_SHARE.limit + 1);
    expect(geoAddressesAsked().length).toBeLessThanOrEqual(GEOJS_MEMBER_SHARE.limit + 1);
    expect(artDownloads()).toBeLessThanOrEqual(YGOPRODECK_MEMBER_SHARE.limit + 1);

    // Operators see the refusals per upstream.
    const status = await answerOf(await bot.discord.chatInput({ name: 'status' }));
    const geoField = status.embeds[0]!.fields!.find((field) => field.name.endsWith('GeoJS'))!;
    expect(geoField.value).toMatch(/Member share refusals: [1-9]\d*/);
    expect(crashLines(bot)).toEqual([]);
  });
});
