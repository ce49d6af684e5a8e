import {
  ChannelType,
  GatewayDispatchEvents,
  OverwriteType,
  type APIChannel,
  type APIGuildMember,
  type APIThreadChannel,
  type GatewayDispatchPayload,
  type GatewayGuildCreateDispatchData,
} from 'discord.js';
import { THREAD_TYPES } from './context.js';
import {
  ChannelFlag,
  compactMask,
  packGuild,
  permissionsIn,
  unpackGuild,
  type ChannelEntry,
  type ChannelPermissionsResult,
  type GuildEntry,
} from './guild-permissions.js';

/**
 * Where Almanac may post cards named inline (`MESSAGE_SEARCH=true`): message dispatches carry no
 * `app_permissions`, and discord.js caches no channels, roles or members (src/discord/client.ts).
 * So the gateway's raw dispatches are kept here, for each guild: its roles' permission bits, its
 * channels' overwrites, its threads' state and Almanac's own member, packed
 * (src/discord/guild-permissions.ts). A dispatch for a guild not held (never created, or deleted)
 * changes nothing.
 */
export class ChannelPermissions {
  private readonly guilds = new Map<string, BigUint64Array>();
  /** Almanac's own user id, from READY (which comes before any guild). */
  private me = 0n;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Listener for discord.js's `raw` event. A dispatch it cannot read (a field missing or malformed)
   * leaves its guild unknown, so Almanac stays silent there until the guild's next GUILD_CREATE,
   * rather than posting on stale permissions or throwing into discord.js's dispatch loop.
   */
  readonly remember = (packet: GatewayDispatchPayload): void => {
    try {
      this.apply(packet);
    } catch {
      const data: unknown = packet.d;
      const guildId = isRecord(data) ? (data.guild_id ?? (packet.t.startsWith('GUILD_') ? data.id : undefined)) : undefined;
      if (typeof guildId === 'string') this.guilds.delete(guildId);
    }
  };

  private apply(packet: GatewayDispatchPayload): void {
    switch (packet.t) {
      case GatewayDispatchEvents.Ready:
        this.me = BigInt(packet.d.user.id);
        break;
      case GatewayDispatchEvents.GuildCreate:
        this.guilds.set(packet.d.id, packGuild(guildEntryFrom(packet.d, this.me)));
        break;
      case GatewayDispatchEvents.GuildUpdate: {
        const owner = packet.d.owner_id;
        if (typeof owner === 'string') this.edit(packet.d.id, (guild) => (guild.ownerId = BigInt(owner)));
        break;
      }
      case GatewayDispatchEvents.GuildDelete:
        this.guilds.delete(packet.d.id);
        break;
      case GatewayDispatchEvents.GuildRoleCreate:
      case GatewayDispatchEvents.GuildRoleUpdate:
        this.edit(packet.d.guild_id, (guild) => guild.roles.set(BigInt(packet.d.role.id), compactMask(packet.d.role.permissions)));
        break;
      case GatewayDispatchEvents.GuildRoleDelete:
        this.edit(packet.d.guild_id, (guild) => guild.roles.delete(BigInt(packet.d.role_id)));
        break;
      case GatewayDispatchEvents.GuildMemberUpdate:
        if (BigInt(packet.d.user.id) === this.me) this.edit(packet.d.guild_id, (guild) => setMember(guild, packet.d));
        break;
      case GatewayDispatchEvents.ChannelCreate:
      case GatewayDispatchEvents.ChannelUpdate:
      case GatewayDispatchEvents.ThreadCreate:
      case GatewayDispatchEvents.ThreadUpdate:
        if ('guild_id' in packet.d && packet.d.guild_id !== undefined) {
          const channel = packet.d;
          this.edit(packet.d.guild_id, (guild) => setChannel(guild, channel, this.me));
        }
        break;
      case GatewayDispatchEvents.ChannelDelete:
      case GatewayDispatchEvents.ThreadDelete:
        if ('guild_id' in packet.d && packet.d.guild_id !== undefined) {
          const id = BigInt(packet.d.id);
          this.edit(packet.d.guild_id, (guild) => removeChannel(guild, id));
        }
        break;
      case GatewayDispatchEvents.ThreadListSync: {
        const { channel_ids: parents, threads, members } = packet.d;
        this.edit(packet.d.guild_id, (guild) => {
          // The threads of these parents (of every channel when absent) are exactly those listed.
          const synced = parents?.map(BigInt);
          for (const [id, channel] of guild.channels) {
            if ((channel.flags & ChannelFlag.Thread) !== 0 && (synced === undefined || synced.includes(channel.parentId))) guild.channels.delete(id);
          }
          const joined = new Set(members.map((member) => member.id));
          for (const thread of threads) setChannel(guild, thread, this.me, joined.has(thread.id));
        });
        break;
      }
      case GatewayDispatchEvents.ThreadMembersUpdate: {
        const added = packet.d.added_members?.some((member) => member.user_id !== undefined && BigInt(member.user_id) === this.me) ?? false;
        const removed = packet.d.removed_member_ids?.some((id) => BigInt(id) === this.me) ?? false;
        if (added || removed) this.edit(packet.d.guild_id, (guild) => setJoined(guild, BigInt(packet.d.id), added));
        break;
      }
      case GatewayDispatchEvents.ThreadMemberUpdate:
        // Only ever about Almanac's own membership of the thread.
        if (packet.d.id !== undefined) {
          const thread = BigInt(packet.d.id);
          this.edit(packet.d.guild_id, (guild) => setJoined(guild, thread, true));
        }
        break;
      default:
        break;
    }
  }

  /** Almanac's permissions in the channel (see `permissionsIn`); null when the guild or channel is not known. */
  permissionsIn(guildId: string, channelId: string): ChannelPermissionsResult | null {
    const words = this.guilds.get(guildId);
    return words === undefined ? null : permissionsIn(unpackGuild(words), BigInt(guildId), this.me, BigInt(channelId), this.now());
  }

  private edit(guildId: string, change: (guild: GuildEntry) => unknown): void {
    const words = this.guilds.get(guildId);
    if (words === undefined) return;
    const guild = unpackGuild(words);
    change(guild);
    this.guilds.set(guildId, packGuild(guild));
  }
}

/** A GUILD_CREATE as the permission checks need it; `me` is Almanac's own user id. */
export function guildEntryFrom(data: GatewayGuildCreateDispatchData, me: bigint): GuildEntry {
  const guild: GuildEntry = {
    ownerId: BigInt(data.owner_id),
    roles: new Map(data.roles.map((role) => [BigInt(role.id), compactMask(role.permissions)])),
    myRoles: [],
    timedOutUntil: 0,
    channels: new Map(),
  };
  // Discord always sends Almanac's own member with its guilds.
  const own = data.members.find((member) => member.user !== undefined && BigInt(member.user.id) === me);
  if (own) setMember(guild, own);
  for (const channel of [...data.channels, ...data.threads]) setChannel(guild, channel, me);
  return guild;
}

function setMember(guild: GuildEntry, member: Pick<APIGuildMember, 'roles' | 'communication_disabled_until'>): void {
  guild.myRoles = member.roles.map(BigInt);
  const until = member.communication_disabled_until;
  guild.timedOutUntil = until === null || until === undefined ? 0 : Date.parse(until);
}

/** Keeps `channel` as its permissions need it: its overwrites for roles and for Almanac (`me`) alone; a thread's parent and state. */
function setChannel(guild: GuildEntry, channel: APIChannel, me: bigint, joined?: boolean): void {
  const id = BigInt(channel.id);
  if (THREAD_TYPES.includes(channel.type)) {
    const thread = channel as APIThreadChannel;
    // THREAD_UPDATE does not say whether Almanac is in the thread: what was known stays.
    const wasJoined = ((guild.channels.get(id)?.flags ?? 0) & ChannelFlag.Joined) !== 0;
    const flags =
      ChannelFlag.Thread |
      (thread.type === ChannelType.PrivateThread ? ChannelFlag.PrivateThread : 0) |
      (thread.thread_metadata?.archived === true ? ChannelFlag.Archived : 0) |
      (thread.thread_metadata?.locked === true ? ChannelFlag.Locked : 0) |
      ((joined ?? (thread.member !== undefined || wasJoined)) ? ChannelFlag.Joined : 0);
    guild.channels.set(id, { parentId: BigInt(thread.parent_id ?? 0), flags, overwrites: [] });
    return;
  }
  const overwrites = ('permission_overwrites' in channel ? (channel.permission_overwrites ?? []) : [])
    .filter((overwrite) => overwrite.type === OverwriteType.Role || BigInt(overwrite.id) === me)
    .map((overwrite) => ({ target: BigInt(overwrite.id), allow: compactMask(overwrite.allow), deny: compactMask(overwrite.deny) }));
  guild.channels.set(id, { parentId: 0n, flags: 0, overwrites } satisfies ChannelEntry);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Removes a channel, and the threads under it. */
function removeChannel(guild: GuildEntry, id: bigint): void {
  guild.channels.delete(id);
  for (const [threadId, channel] of guild.channels) if (channel.parentId === id) guild.channels.delete(threadId);
}

function setJoined(guild: GuildEntry, threadId: bigint, joined: boolean): void {
  const thread = guild.channels.get(threadId);
  if (thread) thread.flags = joined ? thread.flags | ChannelFlag.Joined : thread.flags & ~ChannelFlag.Joined;
}
