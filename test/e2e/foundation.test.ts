import { ButtonStyle, ComponentType, InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatInputCommand } from '../../src/command.js';
import { UserError } from '../../src/errors.js';
import { UpstreamError } from '../../src/services/upstream-error.js';
import { commands } from '../../commands/index.js';
import { CANARY_TOKEN, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';

/** Commands that exercise the router's paths without any upstream. */
const probe: ChatInputCommand = {
  kind: 'chat',
  data: { name: 'probe', description: 'test probe', options: [{ type: 3, name: 'mode', description: 'mode', required: true }] },
  async execute(ctx) {
    const mode = ctx.options.getString('mode');
    if (mode === 'user-error') throw new UserError('That input is not valid.');
    if (mode === 'crash') throw new Error(`internal detail with ${CANARY_TOKEN}`);
    if (mode === 'upstream') throw new UpstreamError('geojs', 'unavailable', 'GeoJS answered 503');
    if (mode === 'defer-then-crash') {
      await ctx.defer({ ephemeral: false });
      throw new Error('after defer');
    }
    if (mode === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, 2_600));
      return { content: 'finally' };
    }
    if (mode === 'mention') return { content: '@everyone <@&123> hello' };
    if (mode === 'pager') return pagerPayload('page 1');
    if (mode === 'progress') {
      await ctx.progress('⏳ queued, about 5 s', { ephemeral: false });
      return { embeds: [{ title: 'done' }] };
    }
    return { content: `echo ${mode}` };
  },
};

function pagerPayload(content: string) {
  return {
    content,
    components: [
      {
        type: ComponentType.ActionRow as const,
        components: [
          { type: ComponentType.Button as const, style: ButtonStyle.Primary as const, custom_id: 'probe:next', label: 'Next' },
          { type: ComponentType.Button as const, style: ButtonStyle.Link as const, url: 'https://example.com/', label: 'Page' },
        ],
      },
    ],
    disableComponentsAfterMs: 400,
  };
}

probe.componentPrefix = 'probe';
probe.handleComponent = async () => ({ update: pagerPayload('page 2') });

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

  it('edits a deferred reply instead of replying twice when the handler fails after deferring', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'defer-then-crash' } });
    expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const edit = await exchange.waitForEdit();
    expect(edit.message.content).toMatch(/^Something went wrong/);
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
