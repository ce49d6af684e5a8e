import { ChannelType, OverwriteType, PermissionFlagsBits, type APIOverwrite, type APIRole, type APITextChannel, type GatewayGuildCreateDispatchData, type RoleFlags } from 'discord.js';
import { guildCreate, type FakeGuild } from './discord-guilds.js';

/**
 * A guild of a real community's size, as its GUILD_CREATE carries it: 40 text channels with two
 * role overwrites each and 25 roles (the test guild's two channels and two threads among them, their
 * permissions for Almanac unchanged). What the memory a guild costs is measured with (bench/guilds.ts).
 */

export const COMMUNITY_TEXT_CHANNELS = 40;
export const COMMUNITY_ROLES = 25;

/**
 * Offsets of the added channels' and roles' ids from the guild's own id: far from the test guild's
 * (1–4) and from the next guild's id (guild ids are 2^22 apart), so no id is ever shared.
 */
const EXTRA_CHANNEL_OFFSET = 1_000_000n;
const ROLE_OFFSET = 2_000_000n;

function role(guild: FakeGuild, index: number): APIRole {
  return {
    id: (BigInt(guild.id) + ROLE_OFFSET + BigInt(index)).toString(),
    name: `role-${index + 1}`,
    color: 0x3498db,
    colors: { primary_color: 0x3498db, secondary_color: null, tertiary_color: null },
    hoist: index % 5 === 0,
    icon: null,
    unicode_emoji: null,
    position: index + 1,
    permissions: (PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageMessages).toString(),
    managed: false,
    mentionable: true,
    flags: 0 as RoleFlags,
  };
}

/** Two overwrites for roles Almanac's member does not have: they change nothing for it. */
function overwrites(roles: readonly APIRole[], index: number): APIOverwrite[] {
  const [allowed, denied] = [roles[index % roles.length]!, roles[(index + 1) % roles.length]!];
  return [
    { id: allowed.id, type: OverwriteType.Role, allow: (PermissionFlagsBits.SendMessages | PermissionFlagsBits.AttachFiles).toString(), deny: '0' },
    { id: denied.id, type: OverwriteType.Role, allow: '0', deny: (PermissionFlagsBits.SendMessages | PermissionFlagsBits.AddReactions).toString() },
  ];
}

export function communityGuildCreate(guild: FakeGuild): GatewayGuildCreateDispatchData {
  const small = guildCreate(guild);
  const roles = Array.from({ length: COMMUNITY_ROLES - small.roles.length }, (_, index) => role(guild, index));
  const testChannels = small.channels as APITextChannel[];
  const extraChannels = Array.from({ length: COMMUNITY_TEXT_CHANNELS - testChannels.length }, (_, index): APITextChannel => ({
    ...testChannels[0]!,
    id: (BigInt(guild.id) + EXTRA_CHANNEL_OFFSET + BigInt(index)).toString(),
    type: ChannelType.GuildText,
    name: `channel-${index + 1}`,
    topic: `What channel ${index + 1} is for, in a sentence or two as communities write them.`,
    position: testChannels.length + index,
  }));
  const channels = [...testChannels, ...extraChannels].map((channel, index) => ({ ...channel, permission_overwrites: overwrites(roles, index) }));
  return { ...small, roles: [...small.roles, ...roles], channels, large: true, member_count: 5_000 };
}
