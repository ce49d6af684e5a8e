import { ChannelType, GatewayDispatchEvents, OverwriteType, PermissionFlagsBits, type GatewayDispatchPayload } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { ChannelPermissions, guildEntryFrom } from '../../src/discord/channel-permissions.js';
import { packGuild, unpackGuild, type GuildEntry } from '../../src/discord/guild-permissions.js';
import { communityGuildCreate } from '../fakes/discord-community-guild.js';
import { BOT_USER, fakeGuilds, guildChannels, guildMember, MEMBER_PERMISSIONS } from '../fakes/discord-guilds.js';

const [guild] = fakeGuilds(1) as [ReturnType<typeof fakeGuilds>[number]];
const channels = guildChannels(guild);
const { SendMessages, SendMessagesInThreads, ViewChannel, EmbedLinks, AttachFiles, ReadMessageHistory, Administrator, ManageThreads } = PermissionFlagsBits;
const TRACKED = ViewChannel | SendMessages | SendMessagesInThreads | EmbedLinks | AttachFiles | ReadMessageHistory | ManageThreads | Administrator;
const NOW = Date.UTC(2026, 0, 5, 12);
const ROLE_ID = '1356000000000000180';

function dispatch(t: string, d: unknown): GatewayDispatchPayload {
  return { op: 0, s: 1, t, d } as GatewayDispatchPayload;
}

describe('ChannelPermissions', () => {
  let store: ChannelPermissions;
  const send = (packet: GatewayDispatchPayload) => store.remember(packet);
  const permissionsIn = (channelId: string) => store.permissionsIn(guild.id, channelId);
  const can = (channelId: string, bits: bigint) => ((permissionsIn(channelId)?.permissions ?? 0n) & bits) === bits;
  const everyone = (permissions: bigint) => dispatch(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: guild.id, role: { id: guild.id, permissions: String(permissions) } });
  const myMember = (roles: string[], timedOutUntil: string | null = null) =>
    dispatch(GatewayDispatchEvents.GuildMemberUpdate, { ...guildMember(BOT_USER), guild_id: guild.id, roles, communication_disabled_until: timedOutUntil });

  beforeEach(() => {
    store = new ChannelPermissions(() => NOW);
    send(dispatch(GatewayDispatchEvents.Ready, { user: BOT_USER }));
    send(dispatch(GatewayDispatchEvents.GuildCreate, communityGuildCreate(guild)));
  });

  it('works out Almanac’s permissions from the guild’s roles, for a channel and for a thread (its parent’s)', () => {
    expect(permissionsIn(guild.channels.normal)).toEqual({ permissions: MEMBER_PERMISSIONS & TRACKED, thread: false });
    expect(permissionsIn(guild.channels.normalThread)).toEqual({ permissions: MEMBER_PERMISSIONS & TRACKED, thread: true });
    expect(store.permissionsIn(guild.id, '1356000000000000999')).toBeNull();
    expect(store.permissionsIn('1356000000000000998', guild.channels.normal)).toBeNull();
  });

  it('follows overwrites: @everyone’s, a role’s Almanac has, and Almanac’s own, in Discord’s order', () => {
    const overwrite = (id: string, type: OverwriteType, allow: bigint, deny: bigint) => ({ id, type, allow: String(allow), deny: String(deny) });
    const withOverwrites = (...permissionOverwrites: unknown[]) =>
      send(dispatch(GatewayDispatchEvents.ChannelUpdate, { ...channels.normal, permission_overwrites: permissionOverwrites }));

    withOverwrites(overwrite(guild.id, OverwriteType.Role, 0n, SendMessages));
    expect(can(guild.channels.normal, SendMessages)).toBe(false);
    // A thread of the channel follows it, for posting in threads too.
    withOverwrites(overwrite(guild.id, OverwriteType.Role, 0n, SendMessagesInThreads));
    expect(permissionsIn(guild.channels.normalThread)).toBeNull();

    // A role's allow outweighs @everyone's deny, once Almanac has the role.
    withOverwrites(overwrite(guild.id, OverwriteType.Role, 0n, SendMessages), overwrite(ROLE_ID, OverwriteType.Role, SendMessages, 0n));
    expect(can(guild.channels.normal, SendMessages)).toBe(false);
    send(myMember([ROLE_ID]));
    expect(can(guild.channels.normal, SendMessages)).toBe(true);

    // Almanac's own overwrite outweighs its roles'; another member's counts for nothing.
    withOverwrites(overwrite(ROLE_ID, OverwriteType.Role, SendMessages, 0n), overwrite(BOT_USER.id, OverwriteType.Member, 0n, AttachFiles | SendMessages));
    expect(can(guild.channels.normal, SendMessages)).toBe(false);
    expect(can(guild.channels.normal, AttachFiles)).toBe(false);
    withOverwrites(overwrite('1356000000000000200', OverwriteType.Member, 0n, SendMessages));
    expect(can(guild.channels.normal, SendMessages)).toBe(true);
  });

  it('follows roles created, updated and deleted, and Almanac’s roles', () => {
    send(everyone(MEMBER_PERMISSIONS & ~SendMessages));
    expect(can(guild.channels.normal, SendMessages)).toBe(false);
    send(dispatch(GatewayDispatchEvents.GuildRoleCreate, { guild_id: guild.id, role: { id: ROLE_ID, permissions: String(SendMessages) } }));
    send(myMember([ROLE_ID]));
    expect(can(guild.channels.normal, SendMessages)).toBe(true);
    send(dispatch(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: guild.id, role: { id: ROLE_ID, permissions: String(Administrator) } }));
    expect(permissionsIn(guild.channels.normal)?.permissions).toBe(TRACKED);
    send(dispatch(GatewayDispatchEvents.GuildRoleDelete, { guild_id: guild.id, role_id: ROLE_ID }));
    expect(can(guild.channels.normal, SendMessages)).toBe(false);
  });

  it('gives the owner every permission, whatever the overwrites', () => {
    send(dispatch(GatewayDispatchEvents.ChannelUpdate, { ...channels.normal, permission_overwrites: [{ id: guild.id, type: OverwriteType.Role, allow: '0', deny: String(ViewChannel) }] }));
    expect(can(guild.channels.normal, ViewChannel)).toBe(false);
    send(dispatch(GatewayDispatchEvents.GuildUpdate, { ...communityGuildCreate(guild), owner_id: BOT_USER.id }));
    expect(permissionsIn(guild.channels.normal)?.permissions).toBe(TRACKED);
  });

  it('says nothing while Almanac is timed out', () => {
    send(myMember([], new Date(NOW + 60_000).toISOString()));
    expect(permissionsIn(guild.channels.normal)).toBeNull();
    send(myMember([], new Date(NOW - 1).toISOString()));
    expect(permissionsIn(guild.channels.normal)).not.toBeNull();
  });

  describe('threads', () => {
    const threadUpdate = (changes: { archived?: boolean; locked?: boolean; type?: ChannelType; member?: unknown }) =>
      dispatch(GatewayDispatchEvents.ThreadUpdate, {
        ...channels.normalThread,
        ...(changes.type === undefined ? {} : { type: changes.type }),
        ...(changes.member === undefined ? {} : { member: changes.member }),
        thread_metadata: { ...channels.normalThread.thread_metadata, archived: changes.archived ?? false, locked: changes.locked ?? false },
      });

    it('may not post in a thread archived and locked, unless it manages threads', () => {
      send(threadUpdate({ archived: true }));
      expect(permissionsIn(guild.channels.normalThread)).not.toBeNull();
      send(threadUpdate({ archived: true, locked: true }));
      expect(permissionsIn(guild.channels.normalThread)).toBeNull();
      send(everyone(MEMBER_PERMISSIONS | ManageThreads));
      expect(permissionsIn(guild.channels.normalThread)).not.toBeNull();
    });

    it('posts in a private thread only once added to it (or managing threads), and no more once removed', () => {
      send(threadUpdate({ type: ChannelType.PrivateThread }));
      expect(permissionsIn(guild.channels.normalThread)).toBeNull();
      const members = (change: object) => dispatch(GatewayDispatchEvents.ThreadMembersUpdate, { id: guild.channels.normalThread, guild_id: guild.id, member_count: 2, ...change });
      send(members({ added_members: [{ id: guild.channels.normalThread, user_id: BOT_USER.id, join_timestamp: new Date(NOW).toISOString(), flags: 0 }] }));
      expect(permissionsIn(guild.channels.normalThread)).not.toBeNull();
      // An update of the thread does not say whether Almanac is in it: it still is.
      send(threadUpdate({ type: ChannelType.PrivateThread, archived: true }));
      expect(permissionsIn(guild.channels.normalThread)).not.toBeNull();
      send(members({ removed_member_ids: [BOT_USER.id] }));
      expect(permissionsIn(guild.channels.normalThread)).toBeNull();
    });

    it('forgets threads deleted, those under a deleted channel, and those a list sync no longer lists', () => {
      send(dispatch(GatewayDispatchEvents.ThreadDelete, { id: guild.channels.normalThread, guild_id: guild.id, parent_id: guild.channels.normal, type: ChannelType.PublicThread }));
      expect(permissionsIn(guild.channels.normalThread)).toBeNull();
      send(dispatch(GatewayDispatchEvents.ChannelDelete, channels.ageRestricted));
      expect(permissionsIn(guild.channels.thread)).toBeNull();

      send(dispatch(GatewayDispatchEvents.ThreadCreate, channels.normalThread));
      send(dispatch(GatewayDispatchEvents.ThreadListSync, { guild_id: guild.id, channel_ids: [guild.channels.normal], threads: [], members: [] }));
      expect(permissionsIn(guild.channels.normalThread)).toBeNull();
      send(dispatch(GatewayDispatchEvents.ThreadListSync, { guild_id: guild.id, threads: [channels.normalThread], members: [] }));
      expect(permissionsIn(guild.channels.normalThread)?.thread).toBe(true);
    });
  });

  it('forgets a deleted guild, and one whose dispatch it cannot read, without throwing', () => {
    send(dispatch(GatewayDispatchEvents.GuildMemberUpdate, { guild_id: guild.id, user: BOT_USER, roles: ['not a snowflake'] }));
    expect(permissionsIn(guild.channels.normal)).toBeNull();
    send(dispatch(GatewayDispatchEvents.GuildCreate, communityGuildCreate(guild)));
    send(dispatch(GatewayDispatchEvents.GuildDelete, { id: guild.id, unavailable: true }));
    expect(permissionsIn(guild.channels.normal)).toBeNull();
  });
});

describe('packGuild', () => {
  const sample: GuildEntry = {
    ownerId: 1356000000000000099n,
    roles: new Map([
      [1n, 0x3f],
      [2n, 0x80],
    ]),
    myRoles: [2n],
    timedOutUntil: NOW,
    channels: new Map([
      [10n, { parentId: 0n, flags: 0, overwrites: [{ target: 1n, allow: 0x02, deny: 0x04 }] }],
      [11n, { parentId: 10n, flags: 0x1f, overwrites: [] }],
    ]),
  };

  it('unpacks to what was packed', () => {
    expect(unpackGuild(packGuild(sample))).toEqual(sample);
  });

  it('holds a guild of 40 channels (2 role overwrites each) and 25 roles in under 3 KB', () => {
    expect(packGuild(guildEntryFrom(communityGuildCreate(guild), BigInt(BOT_USER.id))).byteLength).toBeLessThan(3_000);
  });
});
