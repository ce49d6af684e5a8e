import { InteractionResponseType, InteractionType, MessageFlags } from 'discord.js';
import { en } from '../../src/i18n/en.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { signatureHeadersFor, tweetnaclSigningKeys } from '../fakes/discord-http.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import { probe } from '../helpers/probe-command.js';

/** Everything about `/interactions` and `/webhooks` the bot asked of Discord's REST API. */
function restPaths(bot: TestHttpBot): string[] {
  return bot.discord.calls.map((call) => `${call.method} ${call.path.replace(/\/fake-interaction-token\.[^/]+/, '/<token>')}`);
}

describe('HTTP mode: the router paths through POST /interactions and the webhook routes', () => {
  let bot: TestHttpBot;

  beforeAll(async () => {
    // Discord's side signs with tweetnacl: the bot's verification (Node's crypto) is checked against
    // an independent Ed25519 implementation, not only against itself.
    bot = await startTestHttpBot({ commands: [...commands, probe], keys: tweetnaclSigningKeys() });
  });

  afterAll(async () => {
    await bot?.stop();
  });

  it('answers PING with {"type":1}, signed by an independent Ed25519 implementation', async () => {
    const body = JSON.stringify({ id: '1', application_id: bot.discord.applicationId, token: 'ping-token', type: 1, version: 1 });
    const response = await fetch(bot.url, { method: 'POST', headers: signatureHeadersFor(bot.keys, body), body });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ type: 1 });
  });

  it('refuses a signed interaction whose token or ids are no Discord’s (a path, a query, a dot segment) with 400, asking Discord nothing', async () => {
    const token = 'forged-token';
    const channelId = bot.discord.channels.normal;
    const forgeries: Record<string, string>[] = [
      { token: `${token}/../../../channels/${channelId}/messages` },
      { token: `${token}\\..\\..` },
      { token: `${token}?wait=true` },
      { token: `${token}#x` },
      { token: `${token}%2F..%2F..` },
      { token: '.' },
      { token: '..' },
      { application_id: `${bot.discord.applicationId}/../..` },
      { application_id: '1' },
      { id: `../${bot.discord.applicationId}` },
      { guild_id: `../${bot.discord.guildId}` },
      { channel_id: `${channelId}?x` },
    ];
    for (const [index, forged] of forgeries.entries()) {
      // A command that edits its answer through the webhook (PATCH …/<token>/messages/@original) were it run.
      const body = JSON.stringify({
        id: `13560000000000080${String(index).padStart(2, '0')}`,
        application_id: bot.discord.applicationId,
        token,
        type: InteractionType.ApplicationCommand,
        locale: 'en-US',
        user: { id: '1356000000000000200', username: 'tester' },
        data: { id: '1356000000000000500', name: 'probe', type: 1, options: [{ name: 'mode', type: 3, value: 'progress' }] },
        ...forged,
      });
      const response = await fetch(bot.url, { method: 'POST', headers: signatureHeadersFor(bot.keys, body), body });
      expect(response.status, JSON.stringify(forged)).toBe(400);
    }
    // Every REST request of this file went to the webhook of an interaction the fake Discord issued.
    expect(bot.discord.calls.filter((call) => !call.path.startsWith(`/webhooks/${bot.discord.applicationId}/fake-interaction-token.`))).toEqual([]);
    const refusals = bot.logs.entries().filter((line) => line.msg === 'refused an interactions request' && line.status === 400);
    expect(refusals).toHaveLength(forgeries.length);
    expect(bot.logs.text).not.toContain(token);
  });

  it('runs an interaction once however often its signed request comes again: each repeat gets 200 and nothing else', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'once' } });
    expect((await exchange.final()).content).toBe('echo once');
    const body = JSON.stringify(exchange.payload);
    const headers = signatureHeadersFor(bot.keys, body);
    for (let repeat = 0; repeat < 3; repeat++) {
      const response = await fetch(bot.url, { method: 'POST', headers, body });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
    }
    const answered = bot.logs.entries().filter((line) => line.interactionId === exchange.id && line.msg === 'interaction answered');
    expect(answered).toHaveLength(1);
    // One line names the interaction, its command and how it ended, as the interaction's own logger would.
    expect(answered[0]).toMatchObject({ service: 'almanac', command: 'probe', kind: 'chat', outcome: 'ok', latencyMs: expect.any(Number) });
    const replays = (await bot.app.services.metrics.interactionRequestsDropped.get()).values.find((value) => value.labels.reason === 'replayed');
    expect(replays?.value).toBe(3);
  });

  it('answers /status in the HTTP response body, saying which mode runs, with no gateway and no bot token', async () => {
    const exchange = await bot.discord.chatInput({ name: 'status' });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(callback.data?.flags).toBe(MessageFlags.Ephemeral);
    const fields = callback.data?.embeds?.[0]?.fields ?? [];
    expect(fields.find((field) => field.name === 'Mode')?.value).toBe('HTTP interactions');
    expect(JSON.stringify(callback.data)).not.toMatch(/undefined|NaN|null/);
    expect(bot.discord.identifyCount).toBe(0);
    // The acknowledgement was the HTTP response: nothing was posted to the callback route.
    expect(restPaths(bot).filter((path) => path.includes('/callback'))).toEqual([]);
  });

  it('answers a command it does not know with a short ephemeral sentence', async () => {
    const final = await (await bot.discord.chatInput({ name: 'no-such-command' })).final();
    expect(final.content).toBe(en.errors.commandGone);
    expect(final.ephemeral).toBe(true);
  });

  it('answers in the user’s language, from the locale in the payload', async () => {
    const final = await (await bot.discord.chatInput({ name: 'no-such-command', locale: 'fr' })).final();
    expect(final.content).toBe(messagesFor('fr').errors.commandGone);
    expect(final.content).not.toBe(en.errors.commandGone);
  });

  it.each([
    ['a server the bot is not in', { channel: 'foreignGuild' }],
    ['a group DM', { channel: 'groupDm' }],
    ['the bot’s server through the user’s install', { install: 'user' }],
  ] as const)('reads the install from the payload: /status says nothing operator-only in %s', async (_where, origin) => {
    const final = await (await bot.discord.chatInput({ name: 'status', ...origin })).final();
    expect(final.content).toBe(messagesFor('en-US').install.statusNeedsServerInstall);
    expect(final.embeds ?? []).toEqual([]);
  });

  it('turns a UserError and a crash into ephemeral sentences, details only in the log', async () => {
    expect((await (await bot.discord.chatInput({ name: 'probe', options: { mode: 'user-error' } })).final()).content).toBe('That input is not valid.');
    const crash = await bot.discord.chatInput({ name: 'probe', options: { mode: 'crash' } });
    const final = await crash.final();
    expect(final.content).toMatch(/^Something went wrong on our side/);
    expect(final.ephemeral).toBe(true);
    expect(JSON.stringify(bot.logs.entries().find((line) => line.interactionId === crash.id && line.outcome === 'error'))).toContain('internal detail');
  });

  it('defers within Discord’s 3 s when a handler is slow, then completes through PATCH …/messages/@original', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'slow' } });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(callback.data?.flags).toBe(MessageFlags.Ephemeral);
    const edit = await exchange.waitForEdit();
    expect(edit.message.content).toBe('finally');
    expect(edit.call.method).toBe('PATCH');
    expect(edit.call.path).toBe(`/webhooks/${bot.discord.applicationId}/${exchange.token}/messages/@original`);
    // Webhook routes are authorised by the interaction token: no bot token is sent (there is none).
    expect(edit.call.headers.authorization).toBeUndefined();
  });

  it('shows a progress note through the webhook, then replaces it with the answer', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'progress' } });
    expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    await exchange.waitForEdit((edit) => edit.message.embeds?.[0]?.title === 'done');
    expect(exchange.edits().map((edit) => edit.message.content)).toEqual(['⏳ queued, about 5 s', '']);
  });

  it('deletes the public placeholder through the webhook and follows up privately when the handler fails after deferring', async () => {
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'defer-then-crash' } });
    expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const followUp = await exchange.waitForFollowUp();
    expect(followUp.message.content).toMatch(/^Something went wrong/);
    expect((followUp.message.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(exchange.original).toBeUndefined();
  });

  it('never lets a reply ping anyone', async () => {
    const callback = await (await bot.discord.chatInput({ name: 'probe', options: { mode: 'mention' } })).callback();
    expect(callback.data?.allowed_mentions).toEqual({ parse: [] });
  });

  it('updates a message in place on a button press, and disables idle buttons later through the webhook', async () => {
    const first = await (await bot.discord.chatInput({ name: 'probe', options: { mode: 'pager' } })).final();
    const press = await bot.discord.button({ customId: 'probe:next', message: first });
    expect((await press.callback()).type).toBe(InteractionResponseType.UpdateMessage);
    expect((await press.final()).content).toBe('page 2');
    const disabled = await press.waitForEdit(undefined, 3_000);
    const [next, link] = (disabled.message.components![0] as unknown as { components: { disabled?: boolean }[] }).components;
    expect(next!.disabled).toBe(true);
    expect(link!.disabled).toBeUndefined();
  });

  it('answers a deferred press with a follow-up, and disables its buttons later by editing that follow-up', async () => {
    const first = await (await bot.discord.chatInput({ name: 'probe', options: { mode: 'pager' } })).final();
    const press = await bot.discord.button({ customId: 'probe:follow-up', message: first });
    expect((await press.callback()).type).toBe(InteractionResponseType.DeferredMessageUpdate);
    const followUp = await press.waitForFollowUp();
    expect(followUp.message.content).toBe('a new message');
    expect((followUp.message.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    const followUpPath = `/webhooks/${bot.discord.applicationId}/${press.token}/messages/${followUp.message.id}`;
    await expect.poll(() => bot.discord.calls.some((call) => call.method === 'PATCH' && call.path === followUpPath), { timeout: 3_000 }).toBe(true);
  });

  it('retries a webhook edit answered 429 after Retry-After, as the gateway mode’s REST client does', async () => {
    bot.discord.respondWith(
      (call) => call.method === 'PATCH' && call.path.endsWith('/messages/@original'),
      { status: 429, headers: { 'retry-after': '0.3', 'x-ratelimit-scope': 'user' }, body: { message: 'You are being rate limited.', retry_after: 0.3, global: false } },
    );
    const exchange = await bot.discord.chatInput({ name: 'probe', options: { mode: 'progress' } });
    await exchange.waitForEdit((edit) => edit.message.embeds?.[0]?.title === 'done');
    const limited = bot.discord.calls.filter((call) => call.status === 429 && call.path.includes(exchange.token));
    expect(limited).toHaveLength(1);
  });
});
