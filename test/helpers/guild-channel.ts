import { ChannelType, GatewayDispatchEvents, OverwriteType } from 'discord.js';
import { BOT_USER } from '../fakes/discord-guilds.js';
import type { FakeDiscord } from '../fakes/discord.js';

/** Dispatches CHANNEL_CREATE for a new text channel `id` of the fake's first guild, with `deny` overwritten for Almanac's member. */
export function createTextChannel(discord: Pick<FakeDiscord, 'dispatch' | 'guildId'>, id: string, deny = 0n): string {
  discord.dispatch(GatewayDispatchEvents.ChannelCreate, {
    id,
    type: ChannelType.GuildText,
    guild_id: discord.guildId,
    name: `channel-${id}`,
    position: 5,
    nsfw: false,
    parent_id: null,
    permission_overwrites: deny === 0n ? [] : [{ id: BOT_USER.id, type: OverwriteType.Member, allow: '0', deny: String(deny) }],
  });
  return id;
}
