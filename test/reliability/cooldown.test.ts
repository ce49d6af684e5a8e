import { ComponentType, InteractionResponseType, type APIButtonComponentWithCustomId } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shareSpentSentence } from '../../src/render/member-share.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { WALLHAVEN_MEMBER_SHARE } from '../../src/runtime/member-shares.js';
import { WALLHAVEN_LIMITS, maxStartsInWindow } from '../../src/services/wallhaven/wallhaven.js';
import { decodePagerId, encodePagerId } from '../../src/wallpaper/pager-state.js';
import { createLocalLimiter } from '../../src/upstream/limiter.js';
import type { FakeMessage, InteractionOrigin } from '../fakes/discord.js';
import { PER_PAGE, startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { answerOf, crashLines, expectPlainSentence, scaledLimiters } from '../helpers/reliability.js';

/**
 * The per-user Wallhaven budget (production setting: 10 requests per user in any minute), end to
 * end. Time for the budget comes from the app clock, which the tests move; the limiter runs 20×
 * faster against a fake with a 20× shorter window.
 */

const SCALE = 20;
const member = (n: number): InteractionOrigin['user'] => ({ id: `13560000000000${String(n).padStart(5, '0')}`, username: `member${n}` });
const SLOW_DOWN = /^Slow down: Wallhaven requests are shared by everyone here, and you have used your 10 for now\. Try again in \d+ seconds? \(results already loaded stay free\)\.$/;

function nextButton(message: FakeMessage): APIButtonComponentWithCustomId {
  const buttons = (message.components ?? []).flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []));
  const next = buttons.find((component) => component.type === ComponentType.Button && 'custom_id' in component && component.label === '▶');
  if (!next || !('custom_id' in next)) throw new Error('no ▶ button on the message');
  return next as APIButtonComponentWithCustomId;
}

describe('the per-user Wallhaven budget', () => {
  let wallhaven: FakeWallhaven;
  let bot: TestBot;
  let now = Date.now();
  const ids = () => wallhaven.byPurity('sfw').map((wallpaper) => wallpaper.id);
  const show = (id: string, user: InteractionOrigin['user']) => bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id }, user });

  beforeAll(async () => {
    wallhaven = await startFakeWallhaven({ rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: WALLHAVEN_RATE_LIMIT.windowMs / SCALE } });
    bot = await startTestBot({
      env: { WALLHAVEN_URL: wallhaven.url },
      overrides: { limiterFactory: scaledLimiters(SCALE), clock: { now: () => new Date(now) } },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await wallhaven?.close();
  });

  beforeEach(() => {
    wallhaven.reset();
    // Each test starts a minute after the last: every budget is whole again.
    now += 2 * WALLHAVEN_MEMBER_SHARE.windowMs;
  });

  it('is a share of the shared budget: no one member can spend it all', () => {
    expect(WALLHAVEN_MEMBER_SHARE).toEqual({ limit: 10, windowMs: 60_000 });
    const sharedPerWindow = maxStartsInWindow(WALLHAVEN_LIMITS.minTimeMs, WALLHAVEN_RATE_LIMIT.windowMs);
    expect(WALLHAVEN_MEMBER_SHARE.limit * 4).toBeLessThanOrEqual(sharedPerWindow);
  });

  it('serves a member’s first 10 new requests in a minute, refuses the rest at once without a request, and keeps serving others', async () => {
    const flooder = member(1);
    const wanted = ids().slice(0, 14);
    const answers = [];
    for (const id of wanted) answers.push(await answerOf(await show(id, flooder)));
    expect(answers.slice(0, 10).map((answer) => answer.embeds[0]?.title)).toEqual(wanted.slice(0, 10).map((id) => `Wallpaper ${id}`));
    for (const refused of answers.slice(10)) {
      expectPlainSentence(refused, SLOW_DOWN);
      expect(refused.ephemeral).toBe(true);
      // The clock stood still: the first of the 10 leaves the window a whole minute from now.
      expect(refused.content).toBe(shareSpentSentence('wallhaven', 10, 60_000));
    }
    expect(wallhaven.requests).toHaveLength(10);

    // Someone else is not held back by the flooder.
    expect((await answerOf(await show(wanted[12]!, member(2)))).embeds[0]?.title).toBe(`Wallpaper ${wanted[12]}`);
    // A wallpaper already loaded costs nothing, even to the flooder.
    expect((await answerOf(await show(wanted[3]!, flooder))).embeds[0]?.title).toBe(`Wallpaper ${wanted[3]}`);
    expect(wallhaven.requests).toHaveLength(11);

    now += 30_000;
    expect((await answerOf(await show(wanted[11]!, flooder))).content).toBe(shareSpentSentence('wallhaven', 10, 30_000));
    now += 30_000;
    expect((await answerOf(await show(wanted[11]!, flooder))).embeds[0]?.title).toBe(`Wallpaper ${wanted[11]}`);
    expect(crashLines(bot)).toEqual([]);

    // Operators see the refusals (4 and 1 above) per upstream, in /status and in /metrics.
    const status = await answerOf(await bot.discord.chatInput({ name: 'status' }));
    const wallhavenField = status.embeds[0]!.fields!.find((field) => field.name.endsWith('Wallhaven'))!;
    expect(wallhavenField.value).toContain('Member share refusals: 5');
    expect(await bot.app.services.metrics.registry.metrics()).toMatch(/^almanac_member_share_refusals_total\{upstream="wallhaven"[^}]*\} 5$/m);
  });

  it('keeps paging through loaded pages and drawing from a loaded random page free once the budget is spent', async () => {
    const user = member(3);
    const page = (await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: '1920x1080' }, user }))).message;
    expect((await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query: 'nature' }, user }))).embeds).toHaveLength(1);
    for (const id of ids().slice(20, 28)) await answerOf(await show(id, user));
    expect(wallhaven.requests).toHaveLength(10);
    expectPlainSentence(await answerOf(await show(ids()[30]!, user)), SLOW_DOWN);

    const state = decodePagerId(nextButton(page).custom_id)!;
    const press = (index: number) => bot.discord.button({ customId: encodePagerId({ ...state, index, action: 'next' }), message: page, user });
    const withinPage = await answerOf(await press(0));
    expect(withinPage.embeds[0]?.footer?.text).toMatch(/^2 \//);
    const random = await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query: 'nature' }, user }));
    expect(random.embeds).toHaveLength(1);
    expect(wallhaven.requests).toHaveLength(10);

    // The next upstream page is a new request: refused on the side, the wallpaper on show stays.
    const pastPage = await press(PER_PAGE - 1);
    const refused = await answerOf(pastPage);
    expectPlainSentence(refused, SLOW_DOWN);
    expect(refused.ephemeral).toBe(true);
    expect(pastPage.edits()).toEqual([]);
    expect(wallhaven.requests).toHaveLength(10);
  });
});

describe('the per-user Wallhaven budget while the shared queue is long', () => {
  let wallhaven: FakeWallhaven;
  let bot: TestBot;

  beforeAll(async () => {
    wallhaven = await startFakeWallhaven();
    // Starts 3 s apart: with two requests allowed at once, the limiter then expects 3 s for one request
    // ahead, the least wait worth a note (the real 1.4 s took five requests ahead, 8 s to drain); a budget of 1.
    bot = await startTestBot({
      env: { WALLHAVEN_URL: wallhaven.url },
      overrides: { limiterFactory: (options) => createLocalLimiter({ ...options, minTimeMs: 3_000 }), memberShares: { wallhaven: { limit: 1 } } },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await wallhaven?.close();
  });

  it('refuses a member over budget, and serves cached results, at once and without a public queue note', { timeout: 30_000 }, async () => {
    const ids = wallhaven.byPurity('sfw').map((wallpaper) => wallpaper.id);
    const show = (id: string, user: InteractionOrigin['user']) => bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id }, user });
    const spender = member(100);
    expect((await answerOf(await show(ids[0]!, spender))).embeds).toHaveLength(1);
    const queued = [await show(ids[1]!, member(101))];
    await expect.poll(() => bot.app.services.wallhaven.expectedWaitMs()).toBeGreaterThanOrEqual(3_000);

    const refused = await answerOf(await show(ids[10]!, spender));
    expect(refused.callbackType).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toMatch(/^Slow down: /);
    const cached = await answerOf(await show(ids[0]!, spender));
    expect(cached.callbackType).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(cached.embeds[0]?.title).toBe(`Wallpaper ${ids[0]}`);

    // A member who really waits in that queue is told why, then gets the wallpaper.
    const waiting = await show(ids[2]!, member(102));
    for (const exchange of [...queued, waiting]) expect((await answerOf(exchange)).embeds).toHaveLength(1);
    expect(waiting.edits()[0]!.message.content).toMatch(/^⏳ Wallhaven allows 45 requests a minute/);
  });
});
