import { ComponentType, InteractionResponseType, type APIButtonComponentWithCustomId } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { decodePagerId, encodePagerId } from '../../src/wallpaper/pager-state.js';
import type { FakeMessage, InteractionExchange } from '../fakes/discord.js';
import { htmlPage, json } from '../fakes/fake-server.js';
import { PER_PAGE, startFakeWallhaven, WALLHAVEN_TAGS, type FakeWallhaven } from '../fakes/wallhaven.js';
import { CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../helpers/bot.js';
import {
  answerOf,
  applyFault,
  CacheClock,
  clockedCaches,
  crashLines,
  endFault,
  expectNoSecretLeaks,
  expectPlainSentence,
  scaledLimiters,
  startFaultProxy,
  UPSTREAM_FAULTS,
  type Answer,
  type FaultAnswers,
  type FaultProxy,
  type UpstreamFault,
  TEST_REQUEST_TIMEOUT_MS,
} from '../helpers/reliability.js';

/**
 * Every Wallhaven fault of the issue, through every path that spends a Wallhaven request: /wallpaper
 * search, show and random, and a ▶ press that needs the next upstream page. The limiter's spacing
 * and pauses run 20× faster against a fake whose window is 20× shorter (same count per window).
 */

const SCALE = 20;

const FAULT_ANSWERS: FaultAnswers = {
  unexpectedShape: json(200, { data: [{ id: 'NOT-AN-ID', purity: 'sfw' }], meta: { current_page: 'one' } }),
  // Wallhaven's real 429 is an HTML page.
  rateLimitPage: (headers) => htmlPage(429, 'Too many requests - wallhaven.cc', headers),
};

const EXPECTED_SENTENCE: Record<UpstreamFault['kind'], RegExp> = {
  unavailable: /^Wallhaven is unavailable right now, try again in a minute\.$/,
  bad_response: /^Wallhaven sent an answer we could not read; try again later\.$/,
  rate_limited: /^Wallhaven asked us to slow down; try again in \d+ seconds?\.$/,
};

function nextButton(message: FakeMessage): APIButtonComponentWithCustomId {
  for (const row of message.components ?? []) {
    if (row.type !== ComponentType.ActionRow) continue;
    for (const component of row.components) {
      if (component.type === ComponentType.Button && 'custom_id' in component && component.label === '▶') return component;
    }
  }
  throw new Error('no ▶ button on the message');
}

describe('Wallhaven faults through every path that spends a Wallhaven request', () => {
  let wallhaven: FakeWallhaven;
  let proxy: FaultProxy;
  let bot: TestBot;
  const cacheClock = new CacheClock();
  let fresh = 0;
  const sfwIds = () => wallhaven.byPurity('sfw').map((wallpaper) => wallpaper.id);
  /** Option values no earlier call used, so only Wallhaven can answer them. */
  const freshResolution = () => `100x${100 + fresh++}`;
  const freshId = () => sfwIds()[fresh++ % sfwIds().length]!;
  // Every two-letter piece of a tag name matches that tag: dozens of distinct random pools.
  const RANDOM_QUERIES = [...new Set(WALLHAVEN_TAGS.flatMap((tag) => [...tag.name].slice(1).map((letter, index) => `${tag.name[index]}${letter}`)))].filter((query) => !query.includes(' '));
  let randomQuery = 0;
  const freshRandomQuery = () => RANDOM_QUERIES[randomQuery++]!;

  const search = (resolution: string) => bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution } });
  const show = (id: string) => bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id } });
  const random = (query: string) => bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query } });
  /** Presses ▶ as if the pager showed the result at `index` of the search on `message`. */
  const pressNextFrom = (message: FakeMessage, index: number) => {
    const state = decodePagerId(nextButton(message).custom_id)!;
    return bot.discord.button({ customId: encodePagerId({ ...state, index, action: 'next' }), message });
  };

  /** One exchange per Wallhaven-spending path, each needing a request no cache can answer. */
  async function everyPath(pager: FakeMessage): Promise<[string, InteractionExchange][]> {
    return Promise.all([
      search(freshResolution()).then((exchange) => ['search', exchange] as [string, InteractionExchange]),
      show(freshId()).then((exchange) => ['show', exchange] as [string, InteractionExchange]),
      random(freshRandomQuery()).then((exchange) => ['random', exchange] as [string, InteractionExchange]),
      // The last result of page 1: ▶ needs page 2, which nobody loaded yet.
      pressNextFrom(pager, PER_PAGE - 1).then((exchange) => ['▶ to a new page', exchange] as [string, InteractionExchange]),
    ]);
  }

  function expectWallpaper(path: string, answer: Answer): void {
    expect(answer.embeds, `${path}: ${answer.content}`).toHaveLength(1);
    expect(answer.embeds[0]!.title, path).toMatch(/^Wallpaper [a-z0-9]{6}$/);
  }

  beforeAll(async () => {
    wallhaven = await startFakeWallhaven({
      apiKey: CANARY_WALLHAVEN_KEY,
      rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: WALLHAVEN_RATE_LIMIT.windowMs / SCALE },
    });
    proxy = await startFaultProxy(wallhaven.url);
    bot = await startTestBot({
      env: { WALLHAVEN_URL: proxy.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY },
      overrides: {
        // Pauses 40× shorter still: a 429's (scaled) minute is then 1.5 s.
        limiterFactory: scaledLimiters(SCALE, { pauseScale: 2 * SCALE }),
        cacheFactory: clockedCaches(cacheClock),
        // One tester makes every call; the per-user budget has its own tests (cooldown.test.ts).
        memberShares: { wallhaven: { limit: 10_000 } },
        requestTimeoutMs: TEST_REQUEST_TIMEOUT_MS,
      },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await proxy?.close();
    await wallhaven?.close();
  });

  const endWallhavenFault = () => endFault(proxy, () => [bot.app.services.wallhaven.health().limiter]);

  beforeEach(endWallhavenFault);

  it.each(UPSTREAM_FAULTS)('$name: every path acknowledges within 3 s and ends in a plain sentence within 20 s', { timeout: 60_000 }, async (fault) => {
    const pager = (await answerOf(await search(freshResolution()))).message;
    applyFault(proxy, fault, FAULT_ANSWERS);
    // At once: with two requests in flight at most, a timeout costs two rounds of 8 s, still under 20 s.
    const exchanges = await everyPath(pager);
    for (const [path, exchange] of exchanges) {
      const answer = await answerOf(exchange);
      expectPlainSentence(answer, EXPECTED_SENTENCE[fault.kind]);
      // Only the invoking user sees it, unless the reply had already been deferred in public.
      if (answer.callbackType === InteractionResponseType.ChannelMessageWithSource) expect(answer.ephemeral, path).toBe(true);
    }
    // The failed press answered on the side: the wallpaper on show was not replaced.
    expect(exchanges[3]![1].edits()).toEqual([]);
    if (fault.kind === 'rate_limited') {
      const sent = proxy.requests.length;
      const waiting = await answerOf(await show(freshId()));
      expectPlainSentence(waiting, EXPECTED_SENTENCE.rate_limited);
      expect(proxy.requests.length).toBe(sent);
      if (fault.retryAfterSeconds === undefined) {
        // No Retry-After: a whole window (60 s), scaled.
        const pausedFor = bot.app.services.wallhaven.health().limiter.pausedUntil! - Date.now();
        expect(pausedFor).toBeGreaterThan(WALLHAVEN_RATE_LIMIT.windowMs / (2 * SCALE) - 500);
      }
    }

    await endWallhavenFault();
    const recovered = await everyPath((await answerOf(await search(freshResolution()))).message);
    for (const [path, exchange] of recovered) expectWallpaper(path, await answerOf(exchange));
    expect(crashLines(bot)).toEqual([]);
  });

  it.each(UPSTREAM_FAULTS)('$name: results loaded before, even expired, are still served', { timeout: 30_000 }, async (fault) => {
    const id = freshId();
    const query = freshRandomQuery();
    const resolution = freshResolution();
    expectWallpaper('show', await answerOf(await show(id)));
    const page = (await answerOf(await search(resolution))).message;
    expectWallpaper('random', await answerOf(await random(query)));
    // Past every TTL (search pages 5 min, details 1 h).
    cacheClock.advance(2 * 60 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    applyFault(proxy, fault, FAULT_ANSWERS);

    const again = await answerOf(await show(id));
    expectWallpaper('show', again);
    expect(again.embeds[0]!.title).toBe(`Wallpaper ${id}`);
    expectWallpaper('search', await answerOf(await search(resolution)));
    expectWallpaper('▶ within the loaded page', await answerOf(await pressNextFrom(page, 0)));
    // Random picks come from the page of random results drawn before.
    expectWallpaper('random', await answerOf(await random(query)));

    await endWallhavenFault();
    expect(crashLines(bot)).toEqual([]);
  });

  it('keeps the key and the token out of logs, replies, /status, /metrics and Wallhaven URLs through all of it', async () => {
    expect(proxy.requests.length + wallhaven.requests.length).toBeGreaterThan(0);
    await expectNoSecretLeaks(bot, [proxy, wallhaven]);
  });
});

describe('a Wallhaven 429 while other callers wait in the queue', () => {
  let wallhaven: FakeWallhaven;
  let proxy: FaultProxy;
  let bot: TestBot;

  beforeAll(async () => {
    wallhaven = await startFakeWallhaven();
    proxy = await startFaultProxy(wallhaven.url);
    bot = await startTestBot({
      env: { WALLHAVEN_URL: proxy.url },
      // Real pauses: the point is what happens to the callers queued during one.
      overrides: { limiterFactory: scaledLimiters(SCALE, { pauseScale: 1 }), memberShares: { wallhaven: { limit: 10_000 } } },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await proxy?.close();
    await wallhaven?.close();
  });

  it('answers every queued caller at once, instead of holding them for the whole pause', async () => {
    // Every request takes a moment and is refused: two are in flight when the first 429 lands, the rest queued.
    proxy.mode = 'slow';
    proxy.slowMs = 300;
    proxy.answerEveryRequest(FAULT_ANSWERS.rateLimitPage({ 'retry-after': '40' }));
    const ids = wallhaven.byPurity('sfw').slice(0, 6).map((wallpaper) => wallpaper.id);
    const exchanges = await Promise.all(ids.map((id) => bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id } })));
    const answers = await Promise.all(exchanges.map((exchange) => answerOf(exchange)));
    for (const answer of answers) expectPlainSentence(answer, /^Wallhaven asked us to slow down; try again in (39|40) seconds\.$/);
    // Everyone was told while the 40 s pause was still on, and the queued calls never reached Wallhaven.
    expect(bot.app.services.wallhaven.health().limiter.pausedUntil).toBeGreaterThan(Date.now());
    expect(proxy.requests.length).toBeLessThanOrEqual(2);
  });
});
