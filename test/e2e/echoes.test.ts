import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { injectedLinks } from '../helpers/payload-checks.js';
import { answerOf } from '../helpers/reliability.js';

/**
 * Whatever a member types, the bot's echo of it is inert, even in a public message: no link (bare,
 * `<…>` or masked), no mention pill or timestamp, no markdown. Each command that quotes its input
 * back goes through the one escaping path (src/render/user-text.ts).
 */

const HOSTILE = 'see https://evil.example/x <https://evil.example/y> [free](https://evil.example/z) <@123456789012345678> @everyone <t:0:R> **bold**';

function expectInert(text: string): void {
  expect(injectedLinks(text, HOSTILE, true)).toEqual([]);
  expect(text).not.toMatch(/<[@#/:at]|@(everyone|here)|(?<!\\)\*\*/);
}

describe('echoes of user text', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;

  beforeAll(async () => {
    // The fake's few cards are refused as a database (too few): card lookups stay remote, "still loading".
    ygoprodeck = await startFakeYgoprodeck();
    bot = await startTestBot({ env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl } });
  });

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('/card show while the card database loads: the public answer quotes the name without a live link', { timeout: 30_000 }, async () => {
    const answer = await answerOf(await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: HOSTILE } }));
    expect(answer.content).toMatch(/^No card is named exactly “see https:\u200b\/\/evil\.example\/x/);
    expectInert(answer.content);
  });

  it('/ip lookup: the entries it refuses are quoted inert', async () => {
    const answer = await answerOf(await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: HOSTILE, public: true } }));
    expect(answer.content).toContain('I look up IP addresses, host names and URLs. Not looked up:');
    expectInert(answer.content);
  });
});
