import { once, type EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  InteractionContextType,
  InteractionResponseType,
  MessageFlags,
  StringSelectMenuBuilder,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discordRestOptions } from '../../src/discord/client.js';
import { destroyClientWhenSettled } from '../helpers/discord-client.js';
import { startFakeDiscord, type FakeDiscord, type InteractionExchange } from './discord.js';

const TOKEN = 'fake-bot-token';

function newClient(fake: FakeDiscord): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    // One retry and a short timeout keep a misbehaving fake from stalling the suite. REST through
    // Node's fetch as the app sends it: discord.js's default breaks on attachments once another
    // file in the same worker has imported undici 7 (see src/discord/client.ts).
    rest: discordRestOptions(fake.apiUrl, { retries: 1, timeout: 5_000 }),
  });
}

function callbackPath(exchange: InteractionExchange): string {
  return `/interactions/${exchange.id}/${exchange.token}/callback`;
}

async function logIn(client: Client): Promise<void> {
  const ready = once(client, Events.ClientReady);
  await client.login(TOKEN);
  await ready;
}

/** What the `where` command reports, so tests can see the channel as discord.js resolved it. */
function describeChannel(interaction: ChatInputCommandInteraction) {
  const channel = interaction.channel;
  return {
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    context: interaction.context,
    locale: interaction.locale,
    userId: interaction.user.id,
    channelType: channel?.type ?? null,
    nsfw: channel && 'nsfw' in channel ? channel.nsfw : null,
    parentId: channel?.isThread() ? channel.parentId : null,
    parentNsfw: channel?.isThread() ? (channel.parent?.nsfw ?? null) : null,
    canEmbed: interaction.appPermissions.has('EmbedLinks'),
  };
}

/** A miniature bot: just enough behaviour to drive every kind of exchange through the fake. */
async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) {
    const typed = interaction.options.getFocused();
    await interaction.respond([{ name: `Dark Magician (${typed})`, value: 'dark-magician' }]);
  } else if (interaction.isButton() && interaction.customId === 'details') {
    await interaction.deferUpdate();
    await interaction.followUp({ content: 'the details, for you alone', flags: MessageFlags.Ephemeral });
  } else if (interaction.isButton()) {
    await interaction.update({ content: `pressed ${interaction.customId} by ${interaction.user.id}`, components: [] });
  } else if (interaction.isStringSelectMenu()) {
    await interaction.deferUpdate();
    await interaction.editReply({ content: `picked ${interaction.values.join(',')}` });
  } else if (interaction.isMessageContextMenuCommand()) {
    await interaction.reply(`quoted: ${interaction.targetMessage.content}`);
  } else if (interaction.isChatInputCommand()) {
    await answerCommand(interaction);
  }
}

async function answerCommand(interaction: ChatInputCommandInteraction): Promise<void> {
  switch (interaction.commandName) {
    case 'ping':
      await interaction.reply({ content: 'pong', flags: MessageFlags.Ephemeral });
      break;
    case 'slow':
      await interaction.deferReply();
      await interaction.editReply('done');
      await interaction.followUp({ content: 'and one more thing', flags: MessageFlags.Ephemeral });
      break;
    case 'file':
      await interaction.reply({ files: [new AttachmentBuilder(Buffer.from('card bytes'), { name: 'card.txt' })] });
      break;
    case 'pager':
      await interaction.reply({
        content: 'page 1',
        components: [
          new ActionRowBuilder<ButtonBuilder>().addComponents(
            new ButtonBuilder().setCustomId('next').setLabel('Next').setStyle(ButtonStyle.Primary),
          ),
          new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
            new StringSelectMenuBuilder()
              .setCustomId('pick')
              .addOptions({ label: 'One', value: 'one' }, { label: 'Two', value: 'two' }),
          ),
        ],
      });
      break;
    case 'where':
      await interaction.reply(JSON.stringify(describeChannel(interaction)));
      break;
    case 'options':
      await interaction.reply(
        JSON.stringify({
          subcommand: interaction.options.getSubcommand(false),
          name: interaction.options.getString('name'),
          limit: interaction.options.getInteger('limit'),
          exact: interaction.options.getBoolean('exact'),
        }),
      );
      break;
    case 'ratio':
      await interaction.reply(String(interaction.options.getNumber('value', true)));
      break;
    default:
      break;
  }
}

describe('fake Discord driven by the real discord.js client', () => {
  let fake: FakeDiscord;
  let client: Client | undefined;
  const botErrors: unknown[] = [];

  beforeAll(async () => {
    fake = await startFakeDiscord({ token: TOKEN });
    client = newClient(fake);
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).catch((error: unknown) => botErrors.push(error));
    });
    // Without an 'error' listener a rejected listener would crash the worker (captureRejections).
    client.on(Events.Error, (error) => botErrors.push(error));
    await logIn(client);
    await fake.ready();
  });

  afterEach(() => {
    expect(botErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    if (client) await destroyClientWhenSettled(client);
    await fake.close();
  });

  it('logs in through GET /gateway/bot with the bot token and identifies once', () => {
    const gatewayCall = fake.calls.find((call) => call.path === '/gateway/bot');
    expect(gatewayCall?.headers.authorization).toBe(`Bot ${TOKEN}`);
    expect(fake.identifyCount).toBe(1);
    expect(client?.guilds.cache.get(fake.guildId)?.available).toBe(true);
    expect(client?.guilds.cache.get(fake.guildId)?.members.me?.id).toBe(fake.botUserId);
  });

  it('receives an ephemeral reply as a type 4 callback without authorization', async () => {
    const exchange = await fake.chatInput({ name: 'ping' });

    const callback = await exchange.callback();
    expect(callback).toMatchObject({
      type: InteractionResponseType.ChannelMessageWithSource,
      data: { content: 'pong' },
    });
    expect(callback.data?.flags).toBe(MessageFlags.Ephemeral);
    const final = await exchange.final();
    expect(final).toMatchObject({ content: 'pong', ephemeral: true, author: { id: fake.botUserId } });

    const call = fake.calls.find((candidate) => candidate.path === callbackPath(exchange));
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.query.get('with_response')).toBe('false');
  });

  it('records a deferral, the %40original edit and a follow-up', async () => {
    const exchange = await fake.chatInput({ name: 'slow' });

    expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const edit = await exchange.waitForEdit();
    expect(edit.call.path).toBe(`/webhooks/${fake.applicationId}/${exchange.token}/messages/@original`);
    expect(edit.message).toMatchObject({ content: 'done', interaction_metadata: { user: { id: expect.any(String) } } });
    expect(await exchange.final()).toMatchObject({ content: 'done', ephemeral: false });

    const followUp = await exchange.waitForFollowUp();
    expect(followUp.message).toMatchObject({ content: 'and one more thing', flags: MessageFlags.Ephemeral });
    expect(followUp.call.query.get('wait')).toBe('true');
  });

  it('wakes the waits on an interaction only for requests on that interaction', async () => {
    // The bench's throughput keeps hundreds of exchanges pending: a request must not probe them all.
    const changesOf = (exchange: InteractionExchange) => (exchange as unknown as { changes: EventEmitter }).changes;
    const answered = await fake.chatInput({ name: 'ping' });
    await answered.callback();
    let answeredWakes = 0;
    changesOf(answered).on('change', () => answeredWakes++);
    const slow = await fake.chatInput({ name: 'slow' });
    let slowWakes = 0;
    changesOf(slow).on('change', () => slowWakes++);
    await slow.waitForEdit();
    await (await fake.chatInput({ name: 'ping' })).callback();
    expect(slowWakes).toBeGreaterThanOrEqual(2);
    expect(answeredWakes).toBe(0);
  });

  it('keeps no history while told not to: no call recorded, an answered interaction forgotten, a deferred one kept', async () => {
    fake.keepHistory(false);
    try {
      const recorded = fake.calls.length;
      const answered = await fake.chatInput({ name: 'ping' });
      await answered.callback();
      const deferred = await fake.chatInput({ name: 'slow' });
      expect((await deferred.waitForFollowUp()).message.content).toBe('and one more thing');
      expect(fake.calls).toHaveLength(recorded);
      const lateFollowUp = await fetch(`${fake.apiUrl}/v10/webhooks/${fake.applicationId}/${answered.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'late' }),
      });
      expect(lateFollowUp.status).toBe(404);
    } finally {
      fake.keepHistory(true);
    }
    const kept = await fake.chatInput({ name: 'ping' });
    await kept.callback();
    expect(fake.calls.at(-1)?.path).toBe(callbackPath(kept));
  });

  it('parses a reply with an attachment from its multipart body', async () => {
    const exchange = await fake.chatInput({ name: 'file' });

    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(callback.files).toHaveLength(1);
    expect(callback.files[0]).toMatchObject({ field: 'files[0]', name: 'card.txt' });
    expect(callback.files[0]?.data.toString()).toBe('card bytes');
    const final = await exchange.final();
    expect(final.attachments).toMatchObject([{ filename: 'card.txt', size: 'card bytes'.length }]);
    expect(final.files[0]?.data.toString()).toBe('card bytes');
  });

  it('sends subcommand options with their types', async () => {
    const exchange = await fake.chatInput({
      name: 'options',
      subcommand: 'card',
      options: { name: 'Dark', limit: 3, exact: true },
    });

    const final = await exchange.final();
    expect(JSON.parse(final.content)).toEqual({ subcommand: 'card', name: 'Dark', limit: 3, exact: true });
  });

  it('types options from the commands the bot registered', async () => {
    const registered = await client!.application!.commands.set([
      {
        name: 'ratio',
        description: 'A number option',
        options: [
          { name: 'value', description: 'Any number', type: ApplicationCommandOptionType.Number, required: true },
        ],
      },
    ]);
    expect(registered.first()?.name).toBe('ratio');

    // 2 looks like an integer, but the registered option is a number, so getNumber() must accept it.
    const exchange = await fake.chatInput({ name: 'ratio', options: { value: 2 } });

    expect((await exchange.final()).content).toBe('2');
    expect(exchange.payload.data).toMatchObject({ id: registered.first()?.id });
  });

  it('answers autocomplete with a type 8 callback', async () => {
    const exchange = await fake.autocomplete({ name: 'card', options: { name: 'dark m' }, focused: 'name' });

    expect(await exchange.callback()).toMatchObject({
      type: InteractionResponseType.ApplicationCommandAutocompleteResult,
      data: { choices: [{ name: 'Dark Magician (dark m)', value: 'dark-magician' }] },
    });
  });

  it('presses a button and a select on a previous reply', async () => {
    const page = await (await fake.chatInput({ name: 'pager' })).final();
    expect(page.components).toHaveLength(2);

    const press = await fake.button({ customId: 'next', message: page, user: { id: '1356000000000000777' } });
    expect((await press.callback()).type).toBe(InteractionResponseType.UpdateMessage);
    const updated = await press.final();
    expect(updated).toMatchObject({ id: page.id, content: 'pressed next by 1356000000000000777', components: [] });

    const pick = await fake.select({ customId: 'pick', values: ['two'], message: page });
    expect((await pick.callback()).type).toBe(InteractionResponseType.DeferredMessageUpdate);
    expect(await pick.final()).toMatchObject({ id: page.id, content: 'picked two' });
  });

  it('takes the follow-up as the answer to a press deferred without a placeholder', async () => {
    const page = await (await fake.chatInput({ name: 'pager' })).final();
    const press = await fake.button({ customId: 'details', message: page });
    expect((await press.callback()).type).toBe(InteractionResponseType.DeferredMessageUpdate);
    const answer = await press.final();
    expect(answer).toMatchObject({ content: 'the details, for you alone', ephemeral: true });
    expect(answer.id).not.toBe(page.id);
  });

  it('resolves the target message of a message context command', async () => {
    const exchange = await fake.messageContext({ name: 'Quote', targetContent: 'hello there' });

    expect((await exchange.final()).content).toBe('quoted: hello there');
  });

  it('shows the channel nsfw flag and a thread parent to discord.js', async () => {
    const where = async (channel: 'normal' | 'ageRestricted' | 'thread' | 'normalThread') =>
      JSON.parse((await (await fake.chatInput({ name: 'where', channel })).final()).content) as ReturnType<
        typeof describeChannel
      >;

    expect(await where('normal')).toMatchObject({
      guildId: fake.guildId,
      channelType: ChannelType.GuildText,
      nsfw: false,
    });
    expect(await where('ageRestricted')).toMatchObject({ channelId: fake.channels.ageRestricted, nsfw: true });
    expect(await where('thread')).toMatchObject({
      channelType: ChannelType.PublicThread,
      parentId: fake.channels.ageRestricted,
      parentNsfw: true,
    });
    expect(await where('normalThread')).toMatchObject({ parentId: fake.channels.normal, parentNsfw: false });
  });

  it('delivers a DM interaction with the user and no guild', async () => {
    const exchange = await fake.chatInput({
      name: 'where',
      channel: 'dm',
      user: { id: '1356000000000000555' },
      locale: 'fr',
    });

    expect(JSON.parse((await exchange.final()).content)).toMatchObject({
      guildId: null,
      context: InteractionContextType.BotDM,
      userId: '1356000000000000555',
      locale: 'fr',
      canEmbed: true,
    });
  });

  it('resumes after a resumable close and answers the next interaction', async () => {
    const identifiesBefore = fake.identifyCount;
    const resumesBefore = fake.resumeCount;
    const resumed = once(client!, Events.ShardResume);

    fake.closeSocket(4000);
    await resumed;

    expect(fake.resumeCount).toBe(resumesBefore + 1);
    expect(fake.identifyCount).toBe(identifiesBefore);
    expect((await (await fake.chatInput({ name: 'ping' })).callback()).type).toBe(
      InteractionResponseType.ChannelMessageWithSource,
    );
  });

  it('lets discord.js retry a callback answered with 429 after retry-after', async () => {
    fake.respondWith((call) => call.method === 'POST' && call.path.endsWith('/callback'), {
      status: 429,
      headers: { 'retry-after': '1', 'x-ratelimit-scope': 'user' },
      body: { message: 'You are being rate limited.', retry_after: 1, global: false },
    });

    const exchange = await fake.chatInput({ name: 'ping' });

    expect((await exchange.callback()).type).toBe(InteractionResponseType.ChannelMessageWithSource);
    const attempts = fake.calls.filter((call) => call.path === callbackPath(exchange));
    expect(attempts.map((call) => call.status)).toEqual([429, 204]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('answers REST errors the way Discord does', async () => {
    const api = `${fake.apiUrl}/v10`;
    const wrongToken = await fetch(`${api}/users/@me`, { headers: { authorization: 'Bot wrong' } });
    expect(wrongToken.status).toBe(401);

    const unknown = await fetch(`${api}/no/such/route`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: '404: Not Found', code: 0 });
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: '/no/such/route', status: 404 });

    const exchange = await fake.chatInput({ name: 'ping' });
    await exchange.callback();
    const again = await fetch(`${api}${callbackPath(exchange)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'twice' } }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 40060 });
  });
});

// A second fake and client, because the heartbeat interval and the callback deadline are fixed when
// a fake starts. Its own client also has its own identify throttle, so the two do not slow each other.
describe('fake Discord heartbeats and deadlines', () => {
  let fake: FakeDiscord;
  let client: Client | undefined;
  const clientErrors: unknown[] = [];

  beforeAll(async () => {
    // A 100 ms heartbeat lets the client detect a zombie connection within a second.
    fake = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 100, callbackDeadlineMs: 300 });
    client = newClient(fake);
    client.on(Events.Error, (error) => clientErrors.push(error));
    await logIn(client);
  });

  afterEach(() => {
    expect(clientErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    if (client) await destroyClientWhenSettled(client);
    await fake.close();
  });

  it('resumes when heartbeats stop being acknowledged', async () => {
    const resumed = once(client!, Events.ShardResume);

    fake.stopHeartbeatAcks();
    await resumed;

    expect(fake.resumeCount).toBeGreaterThanOrEqual(1);
    expect(fake.identifyCount).toBe(1);
  });

  it('rejects an acknowledgement after the deadline with Unknown interaction', async () => {
    const lateReplyError = new Promise<unknown>((resolve) => {
      client!.once(Events.InteractionCreate, async (interaction) => {
        if (!interaction.isRepliable()) return;
        await delay(400);
        resolve(await interaction.reply('too late').catch((error: unknown) => error));
      });
    });

    const exchange = await fake.chatInput({ name: 'late' });

    expect(await lateReplyError).toMatchObject({ status: 404, code: 10062 });
    await expect(exchange.callback(200)).rejects.toThrow(/no acknowledgement/);
  });
});
