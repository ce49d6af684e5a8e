import { GatewayIntentBits, InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { CANARY_TOKEN, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';
import { probe } from '../helpers/probe-command.js';

describe('foundation end to end: the real discord.js client against the fake Discord', () => {
  let bot: TestBot;

  beforeAll(async () => {
    bot = await startTestBot({ commands: [...commands, probe] });
  });

  afterAll(async () => {
    await bot?.stop();
  });

  it('logs in and answers /status ephemerally with version, uptime and gateway latency', async () => {
    expect(bot.app.isReady()).toBe(true);
    const exchange = await bot.discord.chatInput({ name: 'status' });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(callback.data?.flags).toBe(MessageFlags.Ephemeral);
    const fields = callback.data?.embeds?.[0]?.fields ?? [];
    expect(fields.map((field) => field.name)).toEqual(expect.arrayContaining(['Version', 'Uptime', 'Gateway latency']));
    expect(JSON.stringify(callback.data)).not.toMatch(/undefined|NaN|null/);
  });

  it('IDENTIFYs with the Guilds intent alone without MESSAGE_SEARCH: no message, no privileged intent', () => {
    expect(bot.discord.gatewaySessions().map((session) => session.intents)).toEqual([GatewayIntentBits.Guilds]);
  });

  it('turns a UserError into an ephemeral sentence', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'user-error' } });
    const final = await exchange.final();
    expect(final.ephemeral).toBe(true);
    expect(final.content).toBe('That input is not valid.');
  });

  it('explains an upstream failure in plain words', async () => {
    const final = await (await bot.discord.chatInput({ name: 'probe', options: { mode: 'upstream' } })).final();
    expect(final.content).toBe('GeoJS is unavailable right now, try again in a minute.');
    expect(final.ephemeral).toBe(true);
  });

  it('hides a crash behind a generic sentence and logs the details with the interaction id', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'crash' } });
    const final = await exchange.final();
    expect(final.content).toMatch(/^Something went wrong on our side/);
    expect(final.content).not.toContain('internal detail');
    const entry = bot.logs.entries().find((line) => line.interactionId === exchange.id && line.outcome === 'error');
    expect(entry).toMatchObject({ command: 'probe', kind: 'chat', msg: 'interaction failed' });
    expect(JSON.stringify(entry)).toContain('internal detail');
  });

  it('deletes a public placeholder and follows up privately, instead of replying twice, when the handler fails after deferring', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'defer-then-crash' } });
    expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const followUp = await exchange.waitForFollowUp();
    expect(followUp.message.content).toMatch(/^Something went wrong/);
    expect((followUp.message.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(exchange.original).toBeUndefined();
    expect(exchange.edits()).toEqual([]);
    const callbacks = bot.discord.calls.filter((call) => call.path.startsWith(`/interactions/${exchange.id}/`));
    expect(callbacks).toHaveLength(1);
  });

  it('defers on its own before Discord’s 3 s deadline when a handler is slow', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'slow' } });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect((await exchange.waitForEdit()).message.content).toBe('finally');
  });

  it('shows a progress note in the deferred placeholder, then replaces it with the answer', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'progress' } });
    expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    await exchange.waitForEdit((edit) => edit.message.embeds?.[0]?.title === 'done');
    const [note, answer] = exchange.edits().map((edit) => edit.message);
    expect(note!.content).toBe('⏳ queued, about 5 s');
    expect(answer!.content).toBe('');
  });

  it('never lets a reply ping anyone', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'mention' } });
    const callback = await exchange.callback();
    expect(callback.data?.allowed_mentions).toMatchObject({ parse: [] });
  });

  it('disables idle buttons (not link buttons) once nobody pressed them for the requested time', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'pager' } });
    const first = await exchange.final();
    const press = await bot.discord.button({ customId: 'probe:next', message: first });
    const pressed = await press.final();
    expect(pressed.content).toBe('page 2');
    // The press restarted the clock: the original reply is never edited, the pressed one is, once.
    const disabled = await press.waitForEdit(undefined, 3_000);
    const [next, link] = (disabled.message.components![0] as unknown as { components: { disabled?: boolean }[] }).components;
    expect(next!.disabled).toBe(true);
    expect(link!.disabled).toBeUndefined();
    expect(exchange.edits()).toHaveLength(0);
  });

  it('logs one line per interaction with id, command, outcome and latency', () => {
    const answered = bot.logs.entries().filter((line) => line.msg === 'interaction answered');
    expect(answered.length).toBeGreaterThanOrEqual(2);
    for (const line of answered) {
      expect(line).toEqual(expect.objectContaining({ interactionId: expect.any(String), command: expect.any(String), outcome: 'ok', latencyMs: expect.any(Number) }));
    }
  });

  it('never lets the canary token reach a log line or anything sent to Discord', () => {
    expect(bot.logs.lines.length).toBeGreaterThan(5);
    expect(bot.logs.text).not.toContain(CANARY_TOKEN);
    expect(bot.logs.text).not.toContain(CANARY_TOKEN.split('.')[2]);
    expect(everythingSentToDiscord(bot.discord)).not.toContain(CANARY_TOKEN);
    // The token did travel where it must: the Authorization header of bot-authenticated REST calls.
    expect(bot.discord.calls.some((call) => call.headers.authorization === `Bot ${CANARY_TOKEN}`)).toBe(true);
  });
});
