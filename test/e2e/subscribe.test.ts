import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIApplicationCommandOptionChoice } from 'discord.js';
import { GUILD_APP_PERMISSIONS, MEMBER_PERMISSIONS } from '../fakes/discord-guilds.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/**
 * `/subscribe` end to end: the real discord.js client against the fake Discord, with the app's
 * own SQLite database. A moderator subscribes, lists and removes; others are refused privately,
 * as is a channel Almanac cannot post in; nothing is stored for a refusal.
 */

const MODERATOR = { memberPermissions: MEMBER_PERMISSIONS | PermissionFlagsBits.ManageChannels };

describe('/subscribe through the fake Discord', () => {
  let bot: TestBot;

  beforeAll(async () => {
    bot = await startTestBot();
  });
  afterAll(async () => {
    await bot?.stop();
  });

  const run = async (subcommand: string, options: Record<string, string> = {}, origin: Record<string, unknown> = MODERATOR) =>
    (await bot.discord.chatInput({ name: 'subscribe', subcommand, options, ...origin })).final();

  it('subscribes, lists with the next post, and removes through the autocompleted id, privately each time', async () => {
    const added = await run('card-of-the-day', { time: '07:15', timezone: 'Asia/Tokyo', type: 'trap' });
    expect(added.ephemeral).toBe(true);
    expect(added.content).toContain('Subscribed: Card of the day, every day at 07:15 (Asia/Tokyo).');
    const listed = await run('list');
    expect(listed.content).toMatch(/Card of the day, every day at 07:15 \(Asia\/Tokyo\)\n {2}Next post <t:\d+:f>/);
    const exchange = await bot.discord.autocomplete({ name: 'subscribe', subcommand: 'remove', options: { subscription: '' }, focused: 'subscription', ...MODERATOR });
    const choices = ((await exchange.callback()).data as { choices?: APIApplicationCommandOptionChoice<string>[] }).choices ?? [];
    expect(choices.map((choice) => choice.name)).toEqual(['Card of the day, every day at 07:15 (Asia/Tokyo)']);
    const removed = await run('remove', { subscription: choices[0]!.value });
    expect(removed.content).toBe('Removed: Card of the day, every day at 07:15 (Asia/Tokyo).');
    expect((await run('list')).content).toContain('This channel has no subscriptions.');
  });

  it('subscribes to new wallpapers of a search, lists when it is checked, and refuses neither or both of query and tag', async () => {
    const added = await run('wallpapers', { query: 'mountain lake' });
    expect(added.ephemeral).toBe(true);
    expect(added.content).toContain('Subscribed: Wallhaven uploads: search “mountain lake”, checked every 30 minutes at most.');
    const listed = await run('list');
    expect(listed.content).toMatch(/Wallhaven uploads: search “mountain lake”, checked every 30 minutes at most\n {2}Next check <t:\d+:f>/);
    expect((await run('wallpapers', {})).content).toBe('Give a search or a tag, one of the two.');
    expect((await run('wallpapers', { query: 'a', tag: 'b' })).content).toBe('Give a search or a tag, one of the two.');
    const exchange = await bot.discord.autocomplete({ name: 'subscribe', subcommand: 'remove', options: { subscription: '' }, focused: 'subscription', ...MODERATOR });
    const choices = ((await exchange.callback()).data as { choices?: APIApplicationCommandOptionChoice<string>[] }).choices ?? [];
    await run('remove', { subscription: choices[0]!.value });
    expect((await run('list')).content).toContain('This channel has no subscriptions.');
  });

  it('refuses privately a member without Manage Channels, and a channel Almanac cannot post in, storing nothing', async () => {
    const member = await run('wallpaper-of-the-day', { time: '09:00', timezone: 'UTC' }, {});
    expect(member.ephemeral).toBe(true);
    expect(member.content).toBe('You need the Manage Channels permission in this channel to change its subscriptions.');
    const closed = await run('wallpaper-of-the-day', { time: '09:00', timezone: 'UTC' }, { ...MODERATOR, appPermissions: GUILD_APP_PERMISSIONS & ~PermissionFlagsBits.SendMessages });
    expect(closed.content).toContain('Almanac cannot post in this channel.');
    const french = await run('wallpaper-of-the-day', { time: '25:61', timezone: 'UTC' }, { ...MODERATOR, locale: 'fr' });
    expect(french.content).toBe('“25:61” n’est pas une heure. Indiquez heures et minutes sur 24 heures, par exemple 09:30 ou 18:05.');
    expect((await run('list')).content).toContain('This channel has no subscriptions.');
  });
});
