import { ComponentType, InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeDiscord, InteractionExchange } from '../fakes/discord.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import { answerOf } from '../helpers/reliability.js';

/**
 * A refusal is for the member who asked, even when the command had already shown a public
 * placeholder ("Almanac is thinking…"): the placeholder goes, the sentence comes privately. And a
 * lone UTF-16 surrogate in anything a member types reaches no reply, custom_id or upstream.
 */

/** The bots wait this long for the loading database instead of 10 s: still well past the deferral at 250 ms. */
const LOAD_WAIT_MS = 2_000;

/** A lone high surrogate: valid in Discord's JSON, not in UTF-8. */
const LONE = '\uD83C';
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** /card show of a name no card has, while the card database loads: deferred publicly, then refused. */
async function refusedWhileLoading(discord: FakeDiscord): Promise<{ exchange: InteractionExchange; content: string; ephemeral: boolean }> {
  const exchange = await discord.chatInput({ name: 'card', subcommand: 'show', options: { name: `Nosuch${LONE} Card` } });
  const callback = await exchange.callback();
  // The wait for the database is public: the card it may bring is for the channel.
  expect(callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
  const answer = await answerOf(exchange);
  return { exchange, content: answer.content, ephemeral: answer.ephemeral };
}

function expectPrivateRefusal(result: Awaited<ReturnType<typeof refusedWhileLoading>>): void {
  expect(result.content).toMatch(/^No card is named exactly “Nosuch\uFFFD Card”\./);
  expect(result.content).not.toMatch(UNPAIRED);
  expect(result.ephemeral).toBe(true);
  // The public placeholder is gone, and no public message ever carried the refusal.
  expect(result.exchange.original).toBeUndefined();
  expect(result.exchange.edits().filter((edit) => edit.message.content.startsWith('No card'))).toEqual([]);
}

describe('refusals after a public deferral, through the gateway', () => {
  let ygoprodeck: FakeYgoprodeck;
  let wallhaven: FakeWallhaven;
  let bot: TestBot;

  beforeAll(async () => {
    // A first start on a slow link: the card database is still loading during these tests.
    [ygoprodeck, wallhaven] = await Promise.all([startFakeYgoprodeck(), startFakeWallhaven()]);
    ygoprodeck.wholeDownloadDelayMs = 60_000;
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl, WALLHAVEN_URL: wallhaven.url },
      overrides: { cardLoadWaitMs: LOAD_WAIT_MS },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await Promise.all([ygoprodeck?.close(), wallhaven?.close()]);
  });

  it('/card show while the database loads: the refusal is private and the public placeholder deleted', { timeout: 30_000 }, async () => {
    expectPrivateRefusal(await refusedWhileLoading(bot.discord));
  });

  it('a lone surrogate in a search reaches neither the pager’s custom_ids, its embed nor Wallhaven', async () => {
    const answer = await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query: `nature -zz${LONE}` } }));
    expect(answer.embeds).toHaveLength(1);
    const customIds = answer.components.flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : [])).flatMap((component) => ('custom_id' in component ? [component.custom_id] : []));
    expect(customIds.length).toBeGreaterThan(0);
    for (const customId of customIds) expect(customId).not.toMatch(UNPAIRED);
    expect(JSON.stringify(answer.embeds)).not.toMatch(/\\ud[89ab]/i);
    expect(wallhaven.requests.at(-1)?.query.get('q')).toBe('nature -zz\uFFFD');
  });

  it('a lone surrogate in an /ip lookup entry is quoted as U+FFFD', async () => {
    const answer = await answerOf(await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: `1.2.3${LONE}` } }));
    expect(answer.content).toContain('1.2.3\uFFFD');
    expect(answer.content).not.toMatch(UNPAIRED);
  });
});

describe('refusals after a public deferral, over HTTP', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestHttpBot;

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    ygoprodeck.wholeDownloadDelayMs = 60_000;
    bot = await startTestHttpBot({ env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl }, overrides: { cardLoadWaitMs: LOAD_WAIT_MS } });
  });

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('/card show while the database loads: the placeholder is deleted through the webhook, the refusal follows privately', { timeout: 30_000 }, async () => {
    expectPrivateRefusal(await refusedWhileLoading(bot.discord));
  });
});
