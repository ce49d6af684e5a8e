// Loaded before discord.js on purpose: the process-wide undici dispatcher is then undici 7's, the
// situation in which discord.js's default REST strategy could not upload attachments.
import 'undici';
import { InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import type { AppServices } from '../../src/app/services.js';
import { commands } from '../../commands/index.js';
import type { RecordedCall } from '../fakes/discord.js';
import { fakeJpeg } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { answerOf, crashLines } from '../helpers/reliability.js';

/**
 * Discord's REST API misbehaving under the real bot: 429s on the interaction callback and on the
 * webhook edit that completes a deferred reply, and 5xx on that edit. The bot retries while the
 * interaction token is still good, and when it gives up, the log says which interaction lost what.
 */

const ART = fakeJpeg('probe');

const deferred: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: { name: 'deferred', description: 'defers, then answers' },
  async execute(ctx) {
    await ctx.defer({ ephemeral: false });
    return { content: 'done after deferring' };
  },
};

const attachment: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: { name: 'attachment', description: 'answers with a file' },
  async execute() {
    return { content: 'with a file', files: [{ name: 'probe.jpg', data: ART }] };
  },
};

const isCallback = (call: RecordedCall) => call.method === 'POST' && call.path.endsWith('/callback');
const isEdit = (call: RecordedCall) => call.method === 'PATCH' && call.path.endsWith('/messages/@original');
const isFollowUp = (call: RecordedCall) => call.method === 'POST' && /^\/webhooks\/\d+\/[^/]+$/.test(call.path);
/** The answer (an edit of the public placeholder) and, once it failed, the failure sentence (a private follow-up). */
const isAnswerWrite = (call: RecordedCall) => isEdit(call) || isFollowUp(call);
const rateLimited = (seconds: number) => ({
  status: 429,
  headers: { 'retry-after': String(seconds), 'x-ratelimit-scope': 'user' },
  body: { message: 'You are being rate limited.', retry_after: seconds, global: false },
});
const serverError = { status: 502, body: { message: '502: Bad Gateway', code: 0 } };

describe('Discord REST faults under the real bot', () => {
  let bot: TestBot;

  beforeAll(async () => {
    bot = await startTestBot({ commands: [...commands, deferred, attachment] });
  });

  afterAll(async () => {
    await bot?.stop();
  });

  /** Faults a test injects apply during that test only (the fake keeps any left unused). */
  let currentTest = 0;
  const duringThisTest = (matches: (call: RecordedCall) => boolean) => {
    const test = currentTest;
    return (call: RecordedCall) => currentTest === test && matches(call);
  };

  beforeEach(() => {
    bot.logs.lines.length = 0;
    currentTest++;
  });

  const callsOf = (token: string, matches: (call: RecordedCall) => boolean) =>
    bot.discord.calls.filter((call) => call.path.includes(token) && matches(call));

  it('uploads a reply’s attachment whichever undici was loaded first', async () => {
    const answer = await answerOf(await bot.discord.chatInput({ name: 'attachment' }));
    expect(answer.content).toBe('with a file');
    expect(answer.files).toEqual(['probe.jpg']);
    expect(crashLines(bot)).toEqual([]);
  });

  it('retries a callback answered 429 after Retry-After, still inside the 3 s deadline', async () => {
    bot.discord.respondWith(duringThisTest(isCallback), rateLimited(1));
    const exchange = await bot.discord.chatInput({ name: 'status' });
    expect((await exchange.callback()).type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(callsOf(exchange.token, isCallback).map((call) => call.status)).toEqual([429, 204]);
  });

  it('retries the edit of a deferred reply answered 429', async () => {
    bot.discord.respondWith(duringThisTest(isEdit), rateLimited(1));
    const exchange = await bot.discord.chatInput({ name: 'deferred' });
    expect((await answerOf(exchange)).content).toBe('done after deferring');
    expect(callsOf(exchange.token, isEdit).map((call) => call.status)).toEqual([429, 200]);
  });

  it('retries the edit of a deferred reply answered 5xx', async () => {
    bot.discord.respondWith(duringThisTest(isEdit), serverError);
    const exchange = await bot.discord.chatInput({ name: 'deferred' });
    expect((await answerOf(exchange)).content).toBe('done after deferring');
    expect(callsOf(exchange.token, isEdit).map((call) => call.status)).toEqual([502, 200]);
  });

  it('gives up on writes that keep failing, and logs which interaction lost its reply', async () => {
    bot.discord.respondWith(duringThisTest(isAnswerWrite), serverError, 100);
    const exchange = await bot.discord.chatInput({ name: 'deferred' });
    await exchange.callback();
    const gaveUp = () => bot.logs.entries().find((line) => line.msg === 'gave up delivering the answer to Discord');
    await expect.poll(gaveUp, { timeout: 15_000 }).toBeDefined();
    expect(gaveUp()).toMatchObject({ level: 50, interactionId: exchange.id, command: 'deferred', undelivered: expect.stringMatching(/^Something went wrong/) });
    // Both the answer and the failure sentence were tried, each with its retries, then nothing more.
    const attempts = callsOf(exchange.token, isAnswerWrite).length;
    expect(attempts).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(callsOf(exchange.token, isAnswerWrite)).toHaveLength(attempts);
    // The interaction token (good for 15 minutes of edits) is not written to the log.
    expect(bot.logs.text).not.toContain(exchange.token);
    expect(bot.app.router.inFlight).toBe(0);
  });

  it('does not wait out a rate limit longer than the interaction token lives', async () => {
    bot.discord.respondWith(duringThisTest(isAnswerWrite), rateLimited(20 * 60), 100);
    const exchange = await bot.discord.chatInput({ name: 'deferred' });
    await exchange.callback();
    const gaveUp = () => bot.logs.entries().find((line) => line.msg === 'gave up delivering the answer to Discord');
    await expect.poll(gaveUp, { timeout: 10_000 }).toBeDefined();
    expect(gaveUp()).toMatchObject({ interactionId: exchange.id });
    // Refused at the first 429 of each attempt, without waiting 20 minutes in between.
    expect(callsOf(exchange.token, isAnswerWrite).map((call) => call.status)).toEqual([429, 429]);
    expect(bot.app.router.inFlight).toBe(0);
    expect(bot.logs.text).not.toContain(exchange.token);
  });
});
