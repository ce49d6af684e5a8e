import { PermissionFlagsBits } from 'discord.js';

/**
 * One guild as inline cards' permission checks need it — its roles, Almanac's own member, its
 * channels and their overwrites — reduced to the few permission bits those checks read, and packed
 * into one array of 64-bit words while it is kept: about 3 KB for 40 channels and 25 roles, where
 * discord.js's objects took 84 KB (bench/guilds.ts). A change unpacks the guild, edits it and packs
 * it again; a check unpacks it too. Both are rare next to the guild's lifetime (checks run only for
 * messages that name a card).
 */

/** The permissions inline cards read, each given one bit of a compact mask (its index here). */
const TRACKED = [
  PermissionFlagsBits.Administrator,
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.SendMessagesInThreads,
  PermissionFlagsBits.EmbedLinks,
  PermissionFlagsBits.AttachFiles,
  PermissionFlagsBits.ReadMessageHistory,
  PermissionFlagsBits.ManageThreads,
] as const;
const ALL = (1 << TRACKED.length) - 1;
const ADMINISTRATOR = 1 << TRACKED.indexOf(PermissionFlagsBits.Administrator);
const MANAGE_THREADS = 1 << TRACKED.indexOf(PermissionFlagsBits.ManageThreads);
const SEND_IN_THREADS = 1 << TRACKED.indexOf(PermissionFlagsBits.SendMessagesInThreads);

/** Discord's permission bits (a decimal string, as the gateway sends them) as a compact mask. */
export function compactMask(permissions: string): number {
  const bits = BigInt(permissions);
  return TRACKED.reduce((mask, flag, index) => ((bits & flag) === 0n ? mask : mask | (1 << index)), 0);
}

/** A compact mask as Discord's permission bits (only the tracked ones can be set). */
export function expandMask(mask: number): bigint {
  return TRACKED.reduce((bits, flag, index) => ((mask & (1 << index)) === 0 ? bits : bits | flag), 0n);
}

/** What a channel is, as far as posting in it goes. */
export const ChannelFlag = { Thread: 1, PrivateThread: 2, Archived: 4, Locked: 8, Joined: 16 } as const;

export interface OverwriteEntry {
  /** A role's id, or Almanac's own user id (other members' overwrites are never kept). */
  target: bigint;
  allow: number;
  deny: number;
}

export interface ChannelEntry {
  /** A thread's channel; 0n for any other channel. */
  parentId: bigint;
  /** `ChannelFlag` bits. */
  flags: number;
  overwrites: OverwriteEntry[];
}

export interface GuildEntry {
  ownerId: bigint;
  /** Every role's compact mask, `@everyone` (the guild's own id) included. */
  roles: Map<bigint, number>;
  /** Almanac's own member: its roles, and until when it is timed out (epoch ms, 0 when it is not). */
  myRoles: bigint[];
  timedOutUntil: number;
  channels: Map<bigint, ChannelEntry>;
}

/**
 * The packed layout, in 64-bit words: a header (owner id, timed out until, then the counts of roles,
 * own roles and channels, 16 bits each), each role as its id and mask, each own role's id, then each
 * channel as its id, parent id, flags with its overwrite count above bit 8, and each of its
 * overwrites as the target's id and allow | deny << 8.
 */
export function packGuild(guild: GuildEntry): BigUint64Array {
  const overwriteCount = [...guild.channels.values()].reduce((sum, channel) => sum + channel.overwrites.length, 0);
  const words = new BigUint64Array(3 + guild.roles.size * 2 + guild.myRoles.length + guild.channels.size * 3 + overwriteCount * 2);
  let at = 0;
  const put = (word: bigint | number) => (words[at++] = BigInt(word));
  put(guild.ownerId);
  put(guild.timedOutUntil);
  put(BigInt(guild.roles.size) | (BigInt(guild.myRoles.length) << 16n) | (BigInt(guild.channels.size) << 32n));
  for (const [id, mask] of guild.roles) {
    put(id);
    put(mask);
  }
  for (const id of guild.myRoles) put(id);
  for (const [id, channel] of guild.channels) {
    put(id);
    put(channel.parentId);
    put(channel.flags | (channel.overwrites.length << 8));
    for (const overwrite of channel.overwrites) {
      put(overwrite.target);
      put(overwrite.allow | (overwrite.deny << 8));
    }
  }
  return words;
}

export function unpackGuild(words: BigUint64Array): GuildEntry {
  let at = 0;
  const take = () => words[at++]!;
  const small = () => Number(take());
  const ownerId = take();
  const timedOutUntil = small();
  const counts = take();
  const [roleCount, myRoleCount, channelCount] = [0n, 16n, 32n].map((shift) => Number((counts >> shift) & 0xffffn)) as [number, number, number];
  const roles = new Map<bigint, number>();
  for (let index = 0; index < roleCount; index++) roles.set(take(), small());
  const myRoles = Array.from({ length: myRoleCount }, take);
  const channels = new Map<bigint, ChannelEntry>();
  for (let index = 0; index < channelCount; index++) {
    const [id, parentId, meta] = [take(), take(), small()];
    const overwrites = Array.from({ length: meta >> 8 }, (): OverwriteEntry => {
      const target = take();
      const bits = small();
      return { target, allow: bits & 0xff, deny: bits >> 8 };
    });
    channels.set(id, { parentId, flags: meta & 0xff, overwrites });
  }
  return { ownerId, roles, myRoles, timedOutUntil, channels };
}

/** What Almanac may do in a channel: Discord's permission bits (the tracked ones), and whether it is a thread. */
export interface ChannelPermissionsResult {
  permissions: bigint;
  thread: boolean;
}

/**
 * Almanac's permissions in `channelId`, as Discord works them out (owner, then roles, then the
 * channel's overwrites: `@everyone`'s, the roles', its own member's; a thread takes its parent's),
 * or null where it cannot post whatever they say — timed out, or a thread it may not write in — or
 * when the channel is unknown.
 */
export function permissionsIn(guild: GuildEntry, guildId: bigint, me: bigint, channelId: bigint, now: number): ChannelPermissionsResult | null {
  const channel = guild.channels.get(channelId);
  if (channel === undefined || guild.timedOutUntil > now) return null;
  const thread = (channel.flags & ChannelFlag.Thread) !== 0;
  const source = thread ? guild.channels.get(channel.parentId) : channel;
  if (source === undefined) return null;
  const mask = maskIn(guild, guildId, me, source);
  if (thread && (mask & ADMINISTRATOR) === 0 && !sendableThread(channel.flags, mask)) return null;
  return { permissions: expandMask(mask), thread };
}

function maskIn(guild: GuildEntry, guildId: bigint, me: bigint, channel: ChannelEntry): number {
  if (guild.ownerId === me) return ALL;
  let mask = guild.myRoles.reduce((base, role) => base | (guild.roles.get(role) ?? 0), guild.roles.get(guildId) ?? 0);
  if ((mask & ADMINISTRATOR) !== 0) return ALL;
  const everyone = channel.overwrites.find((overwrite) => overwrite.target === guildId);
  if (everyone) mask = (mask & ~everyone.deny) | everyone.allow;
  let [allow, deny] = [0, 0];
  for (const overwrite of channel.overwrites) {
    if (guild.myRoles.includes(overwrite.target)) [allow, deny] = [allow | overwrite.allow, deny | overwrite.deny];
  }
  mask = (mask & ~deny) | allow;
  const own = channel.overwrites.find((overwrite) => overwrite.target === me);
  if (own) mask = (mask & ~own.deny) | own.allow;
  return mask;
}

/** discord.js's `ThreadChannel#sendable`, but for Administrator and the timeout, checked before. */
function sendableThread(flags: number, mask: number): boolean {
  const manageable = (mask & MANAGE_THREADS) !== 0;
  const closed = (flags & ChannelFlag.Archived) !== 0 && (flags & ChannelFlag.Locked) !== 0;
  const mayEnter = (flags & ChannelFlag.PrivateThread) === 0 || (flags & ChannelFlag.Joined) !== 0 || manageable;
  return !(closed && !manageable) && mayEnter && (mask & SEND_IN_THREADS) !== 0;
}
