import { once } from 'node:events';
import { Events, InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { answerOf, crashLines, expectNoSecretLeaks } from '../helpers/reliability.js';

/**
 * The gateway connection misbehaving under the real bot: closes the client may resume from (4000,
 * what Discord sends when it drops a connection on its side), heartbeats no longer acknowledged (a
 * zombie connection), and closes that end the session (1000) or time it out (4009). After each,
 * the bot must be connected again and answer the next interaction within Discord's deadline.
 *
 * A TCP connection cut without a close frame reaches @discordjs/ws as close code 1006, which takes
 * the same resume path as 4000.
 */

describe('gateway disconnections', () => {
  let bot: TestBot;

  beforeAll(async () => {
    // Heartbeats every 250 ms, so a zombie connection is noticed within a second.
    bot = await startTestBot({ discord: { heartbeatIntervalMs: 250 } });
  });

  afterAll(async () => {
    await bot?.stop();
  });

  async function expectAnswersNextInteraction(): Promise<void> {
    await bot.discord.connected();
    const answer = await answerOf(await bot.discord.chatInput({ name: 'status' }));
    expect(answer.callbackType).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(answer.embeds[0]?.title).toMatch(/Almanac/);
  }

  it('resumes the session after a resumable close, and answers an interaction sent while it was away', async () => {
    const identifies = bot.discord.identifyCount;
    const resumes = bot.discord.resumeCount;
    const resumed = once(bot.app.client, Events.ShardResume);
    bot.discord.closeSocket(4000);
    // Sent while no socket is open: Discord replays it after the resume.
    const sentMeanwhile = await bot.discord.chatInput({ name: 'status' });
    await resumed;
    expect((await answerOf(sentMeanwhile)).embeds).toHaveLength(1);
    expect([bot.discord.identifyCount, bot.discord.resumeCount]).toEqual([identifies, resumes + 1]);
    await expectAnswersNextInteraction();
  });

  it('notices heartbeats no longer acknowledged, reconnects and resumes', async () => {
    const identifies = bot.discord.identifyCount;
    const resumes = bot.discord.resumeCount;
    const resumed = once(bot.app.client, Events.ShardResume);
    bot.discord.stopHeartbeatAcks();
    await resumed;
    expect(bot.discord.identifyCount).toBe(identifies);
    expect(bot.discord.resumeCount).toBeGreaterThan(resumes);
    await expectAnswersNextInteraction();
  });

  it.each([
    ['a normal close (1000), which ends the session', 1000],
    // Real Discord forgets a timed-out session, so the resume would be refused; the fake still knows it.
    ['a "session timed out" close (4009)', 4009],
  ])('reconnects after %s, and answers the next interaction', { timeout: 30_000 }, async (_label, code) => {
    const sessions = bot.discord.identifyCount + bot.discord.resumeCount;
    const back = Promise.race([once(bot.app.client, Events.ShardReady), once(bot.app.client, Events.ShardResume)]);
    bot.discord.closeSocket(code);
    await back;
    expect(bot.discord.identifyCount + bot.discord.resumeCount).toBe(sessions + 1);
    if (code === 1000) expect(bot.discord.identifyCount).toBeGreaterThan(1);
    await expectAnswersNextInteraction();
  });

  it('logged each resume as a resume and the new session after a normal close as a reconnect, crashed nothing and leaked no secret', async () => {
    const lines = (message: string) => bot.logs.entries().filter((line) => line.msg === message);
    expect(lines('gateway resumed')).toHaveLength(bot.discord.resumeCount);
    // Only the 1000 close ended the session: one reconnect with a new session, at a warning.
    expect(lines('gateway reconnected with a new session (events sent while away are lost)')).toEqual([expect.objectContaining({ level: 40, shardId: 0 })]);
    expect(lines('gateway connection lost, reconnecting').length).toBeGreaterThanOrEqual(4);
    expect(crashLines(bot)).toEqual([]);
    expect(bot.logs.entries().filter((line) => line.msg === 'discord client error')).toEqual([]);
    await expectNoSecretLeaks(bot);
  });
});
