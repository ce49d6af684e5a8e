import { GatewayDispatchEvents, PermissionFlagsBits, Routes } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { registrationBody } from '../../src/interaction/registration-body.js';
import type { FakeMessage } from '../fakes/discord.js';
import { MEMBER_PERMISSIONS } from '../fakes/discord-guilds.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { createTextChannel } from '../helpers/guild-channel.js';

/**
 * `/settings` end to end: the real client against the fake Discord, the settings kept in the test
 * bot's SQLite file (DATA_DIR). A moderator's choice changes the language of public answers and
 * inline replies, switches inline cards off in one channel only and narrows a channel's wallpaper
 * purity; a plain member is refused privately; hostile values store nothing; GUILD_DELETE forgets.
 */

const MODERATOR = MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;

describe('/settings, end to end', () => {
  let geo: FakeGeoJs;
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;
  let nextChannel = 1356000000000000900n;

  const db = () => bot.app.services.storage!.db;
  const rows = async () => ({
    guilds: await db().selectFrom('guilds').selectAll().execute(),
    channels: await db().selectFrom('channel_settings').selectAll().execute(),
    users: await db().selectFrom('user_settings').selectAll().execute(),
  });
  const settings = async (subcommand: string, options: Record<string, string | boolean>, memberPermissions = MODERATOR) =>
    (await bot.discord.chatInput({ name: 'settings', subcommand, options, memberPermissions })).final();
  const answerTo = (message: FakeMessage) =>
    bot.discord.waitUntil(() => bot.discord.channelPosts().find((post) => post.message.message_reference?.message_id === message.id));

  /** Resolves once the server has no row (the deletion runs in the background of a dispatch). */
  async function untilNoRowOf(guildId: string): Promise<void> {
    for (;;) {
      if ((await db().selectFrom('guilds').select('guild_id').where('guild_id', '=', guildId).executeTakeFirst()) === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A new text channel of the guild, where Almanac may post. */
  function newChannel(): string {
    return createTextChannel(bot.discord, String(nextChannel++));
  }

  beforeAll(async () => {
    [geo, ygoprodeck] = await Promise.all([startFakeGeoJs(), startFakeYgoprodeck()]);
    bot = await startTestBot({
      env: { MESSAGE_SEARCH: 'true', GEOJS_URL: geo.url, YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    // Registered, so that the fake Discord types the channel options as Discord would.
    await bot.app.client.rest.put(Routes.applicationGuildCommands(bot.discord.applicationId, bot.discord.guildId), { body: registrationBody(commands) });
    await bot.discord.waitUntil(() => (bot.app.services.cards.ready ? true : undefined), 30_000);
  });

  afterAll(async () => {
    await bot?.stop();
    await geo?.close();
    await ygoprodeck?.close();
  });

  beforeEach(async () => {
    await db().deleteFrom('guilds').execute();
    await db().deleteFrom('user_settings').execute();
    // What this process cached of the rows just deleted.
    await bot.app.services.settings!.forgetGuild(bot.discord.guildId);
  });

  it('refuses a member without Manage Server privately, and stores nothing', async () => {
    const refused = await settings('language', { language: 'fr' }, MEMBER_PERMISSIONS);
    expect(refused).toMatchObject({ ephemeral: true, content: en.settings.needsManageServer });
    expect(await rows()).toEqual({ guilds: [], channels: [], users: [] });
  });

  it('registers /settings for members with Manage Server only', () => {
    const data = registrationBody(commands).find((command) => command.name === 'settings');
    expect(data?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
  });

  it('answers a public /ip lookup in the server’s language, and an ephemeral one in the member’s own', async () => {
    const saved = await settings('language', { language: 'fr' });
    expect(saved.ephemeral).toBe(true);
    expect(saved.content).toBe(en.settings.saved(en.settings.language, en.settings.thisServer, 'Français'));
    const lookup = (isPublic: boolean) => bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8', public: isPublic } });
    const shown = await (await lookup(true)).final();
    expect(shown.ephemeral).toBe(false);
    expect(shown.embeds[0]!.fields?.map((field) => field.name)).toContain(fr.ip.timeZone);
    const own = await (await lookup(false)).final();
    expect(own.ephemeral).toBe(true);
    expect(own.embeds[0]!.fields?.map((field) => field.name)).toContain(en.ip.timeZone);
  });

  it('makes /ip time private by default when the server says so, unless public:true', async () => {
    await settings('ip-answers', { visibility: 'private' });
    expect((await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' } })).final()).ephemeral).toBe(true);
    expect((await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8', public: true } })).final()).ephemeral).toBe(false);
  });

  it('writes an inline reply in the channel’s language, and none in a channel where inline cards are off', async () => {
    const quiet = newChannel();
    const french = newChannel();
    await settings('language', { language: 'fr', channel: french });
    await settings('inline-cards', { enabled: false, channel: quiet });
    const inFrench = bot.discord.userMessage({ content: 'see <Dark Magician>', channelId: french });
    expect((await answerTo(inFrench)).message.embeds[0]!.title).toBe('Magicien Sombre');
    const silenced = bot.discord.userMessage({ content: '<Dark Magician>', channelId: quiet });
    const elsewhere = bot.discord.userMessage({ content: '<Dark Magician>' });
    const answered = await answerTo(elsewhere);
    expect(answered.message.embeds[0]!.title).toBe('Dark Magician');
    expect(bot.discord.channelPosts().some((post) => post.message.message_reference?.message_id === silenced.id)).toBe(false);
  });

  it('narrows an age-restricted channel’s wallpapers to SFW', async () => {
    await settings('wallpaper-purity', { purity: 'sfw', channel: bot.discord.channels.ageRestricted });
    const refused = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { purity: 'sketchy' }, channel: 'ageRestricted' })).final();
    expect(refused).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedBySettings });
    const shown = await (await bot.discord.chatInput({ name: 'settings', subcommand: 'show', options: { channel: bot.discord.channels.ageRestricted }, memberPermissions: MODERATOR, locale: 'fr' })).final();
    expect(shown.content).toContain(`**${fr.settings.purity}**: SFW (${fr.settings.fromChannel})`);
  });

  it('refuses hostile values with a clear sentence and stores nothing', async () => {
    const long = 'x'.repeat(1_000);
    const suggestions = await (await bot.discord.autocomplete({ name: 'settings', subcommand: 'language', options: { language: long }, focused: 'language', memberPermissions: MODERATOR })).callback();
    expect(suggestions.data?.choices).toEqual([]);
    const offered = await (await bot.discord.autocomplete({ name: 'settings', subcommand: 'language', options: { language: 'fran' }, focused: 'language', memberPermissions: MODERATOR })).callback();
    expect(offered.data?.choices).toEqual([{ name: 'Français', value: 'fr' }]);
    expect(await settings('language', { language: long })).toMatchObject({ ephemeral: true, content: en.settings.unknownLanguage });
    expect(await settings('ip-answers', { visibility: 'everyone' })).toMatchObject({ ephemeral: true, content: en.settings.unknownValue });
    expect(await settings('wallpaper-purity', { purity: 'nsfw; drop table guilds' })).toMatchObject({ ephemeral: true, content: en.settings.unknownValue });
    expect(await rows()).toEqual({ guilds: [], channels: [], users: [] });
  });

  it('keeps a server’s settings through an outage GUILD_DELETE, and deletes them when the bot is removed', async () => {
    const channel = newChannel();
    await settings('inline-cards', { enabled: false, channel });
    expect((await rows()).channels).toHaveLength(1);
    // Another server the bot is removed from, after the outage: once its rows are gone, the outage was handled too.
    const other = '1356000000000000777';
    await bot.app.services.settings!.setGuild(other, { language: 'de' });
    bot.discord.dispatch(GatewayDispatchEvents.GuildDelete, { id: bot.discord.guildId, unavailable: true });
    bot.discord.dispatch(GatewayDispatchEvents.GuildDelete, { id: other });
    await untilNoRowOf(other);
    expect((await rows()).guilds.map((row) => row.guild_id)).toEqual([bot.discord.guildId]);
    bot.discord.dispatch(GatewayDispatchEvents.GuildDelete, { id: bot.discord.guildId });
    await untilNoRowOf(bot.discord.guildId);
    expect(await rows()).toEqual({ guilds: [], channels: [], users: [] });
  });
});
