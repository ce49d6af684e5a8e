import { GatewayDispatchEvents } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { COMMUNITY_ROLES, COMMUNITY_TEXT_CHANNELS } from '../fakes/discord-community-guild.js';
import type { FakeChannelName } from '../fakes/discord.js';
import { guildChannels } from '../fakes/discord-guilds.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/**
 * A guild of a real community's size costs next to nothing (src/discord/client.ts): discord.js keeps
 * the guild and none of its channels, roles or members, and age restriction still comes through,
 * from the interaction and, for a thread, from its parent as the gateway's dispatches tell.
 */
describe('a community guild, without MESSAGE_SEARCH', () => {
  let wallhaven: FakeWallhaven;
  let bot: TestBot;

  /** Whether a sketchy wallpaper is shown in `channel` (only age-restricted channels show them). */
  async function showsSketchy(channel: FakeChannelName): Promise<boolean> {
    const message = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { purity: 'sketchy' }, channel })).final();
    if (message.content === en.wallpaper.refusedInChannel) return false;
    expect(message.ephemeral).toBe(false);
    return true;
  }

  beforeAll(async () => {
    wallhaven = await startFakeWallhaven();
    bot = await startTestBot({
      env: { WALLHAVEN_URL: wallhaven.url },
      discord: { guildShape: 'community' },
      overrides: { memberShares: { wallhaven: { limit: 10_000 } } },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await wallhaven?.close();
  });

  it(`keeps the guild, and none of its ${COMMUNITY_TEXT_CHANNELS} channels, ${COMMUNITY_ROLES} roles or members`, () => {
    const { client } = bot.app;
    expect([...client.guilds.cache.keys()]).toEqual([bot.discord.guildId]);
    const guild = client.guilds.cache.get(bot.discord.guildId)!;
    expect(client.channels.cache.size).toBe(0);
    expect(guild.channels.cache.size).toBe(0);
    expect(guild.roles.cache.size).toBe(0);
    expect(guild.members.cache.size).toBe(0);
    expect(guild.members.me).toBeNull();
  });

  it('answers interactions from the dispatch, discord.js building no interaction objects (nor users) for them', async () => {
    const { client } = bot.app;
    let built = 0;
    const count = () => void built++;
    client.on('interactionCreate', count);
    try {
      const usersBefore = client.users.cache.size;
      const message = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' }, user: { id: '1359000000000000777', username: 'someone' } })).final();
      // Answered, to the member who asked.
      expect(message.interaction_metadata?.user.id).toBe('1359000000000000777');
      expect(built).toBe(0);
      expect(client.users.cache.size).toBe(usersBefore);
    } finally {
      client.off('interactionCreate', count);
    }
  });

  it('shows sketchy wallpapers in the age-restricted channel and its thread, and nowhere else', async () => {
    expect(await showsSketchy('ageRestricted')).toBe(true);
    expect(await showsSketchy('thread')).toBe(true);
    expect(await showsSketchy('normal')).toBe(false);
    expect(await showsSketchy('normalThread')).toBe(false);
  });

  it('follows a thread’s parent made age-restricted, and deleted', async () => {
    const channels = guildChannels(bot.discord.guilds[0]!);
    bot.discord.dispatch(GatewayDispatchEvents.ChannelUpdate, { ...channels.normal, nsfw: true });
    try {
      expect(await showsSketchy('normalThread')).toBe(true);
    } finally {
      bot.discord.dispatch(GatewayDispatchEvents.ChannelUpdate, channels.normal);
    }
    expect(await showsSketchy('normalThread')).toBe(false);

    bot.discord.dispatch(GatewayDispatchEvents.ChannelDelete, channels.ageRestricted);
    try {
      expect(await showsSketchy('thread')).toBe(false);
    } finally {
      bot.discord.dispatch(GatewayDispatchEvents.ChannelCreate, channels.ageRestricted);
    }
  });
});
