import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  type GuildMemberFlags,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  PermissionFlagsBits,
  type RoleFlags,
  type APIGuildMember,
  type APITextChannel,
  type APIThreadChannel,
  type APIUser,
  type GatewayGuildCreateDispatchData,
  type Locale,
} from 'discord.js';

/**
 * The guilds, channels and users of the fake Discord, and which gateway shard each guild belongs to.
 */

export const DEFAULT_LOCALE = 'en-US';

// Fixed ids keep payloads and snapshots stable from run to run. Like every current Discord app, the
// bot user shares the application's id.
export const APPLICATION_ID = '1356000000000000001';
const FIRST_GUILD_ID = 1356000000000000100n;
const GUILD_OWNER_ID = '1356000000000000099';
/** Offsets of each guild's channel ids from its own id. */
const CHANNEL_OFFSETS = { normal: 1n, ageRestricted: 2n, thread: 3n, normalThread: 4n } as const;
export const DEFAULT_USER: APIUser = {
  id: '1356000000000000200',
  username: 'tester',
  global_name: 'Tester',
  discriminator: '0',
  avatar: null,
};
export const BOT_USER: APIUser = {
  id: APPLICATION_ID,
  username: 'Almanac',
  global_name: null,
  discriminator: '0001',
  avatar: null,
  bot: true,
};

export const MEMBER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.UseExternalEmojis |
  PermissionFlagsBits.UseApplicationCommands;
export const GUILD_APP_PERMISSIONS = MEMBER_PERMISSIONS | PermissionFlagsBits.ManageMessages;
/** What Discord reports as the app's permissions in a DM with its bot. */
export const DM_APP_PERMISSIONS =
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.MentionEveryone |
  PermissionFlagsBits.UseExternalEmojis;

/** A guild of the fake and the ids of its channels. */
export interface FakeGuild {
  id: string;
  name: string;
  channels: Record<keyof typeof CHANNEL_OFFSETS, string>;
}

/** Discord's rule: a guild's events arrive on shard `(guild_id >> 22) % shard_count`; DMs on shard 0. */
export function shardOf(guildId: string | undefined, shardCount: number): number {
  if (guildId === undefined) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * `count` guilds with fixed ids, so payloads and snapshots stay stable from run to run. The first is
 * the one every single-guild test uses; each next one is one step further in the id's timestamp bits
 * (`id >> 22`), so consecutive guilds fall on consecutive shards.
 */
export function fakeGuilds(count: number): FakeGuild[] {
  return Array.from({ length: count }, (_, index) => {
    const id = FIRST_GUILD_ID + (BigInt(index) << 22n);
    const channel = (offset: bigint) => (id + offset).toString();
    return {
      id: id.toString(),
      name: index === 0 ? 'Almanac Test Guild' : `Almanac Test Guild ${index + 1}`,
      channels: {
        normal: channel(CHANNEL_OFFSETS.normal),
        ageRestricted: channel(CHANNEL_OFFSETS.ageRestricted),
        thread: channel(CHANNEL_OFFSETS.thread),
        normalThread: channel(CHANNEL_OFFSETS.normalThread),
      },
    };
  });
}

function textChannel(guild: FakeGuild, id: string, name: string, nsfw: boolean, position: number): APITextChannel {
  return {
    id,
    type: ChannelType.GuildText,
    guild_id: guild.id,
    name,
    nsfw,
    position,
    parent_id: null,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    permission_overwrites: [],
  };
}

function publicThread(guild: FakeGuild, id: string, name: string, parentId: string): APIThreadChannel {
  return {
    id,
    type: ChannelType.PublicThread,
    guild_id: guild.id,
    name,
    parent_id: parentId,
    owner_id: DEFAULT_USER.id,
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: 1,
    total_message_sent: 0,
    applied_tags: [],
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: new Date().toISOString(),
      locked: false,
    },
  };
}

/** The guild's channels as Discord describes them. */
export function guildChannels(guild: FakeGuild): Record<'normal' | 'ageRestricted', APITextChannel> &
  Record<'thread' | 'normalThread', APIThreadChannel> {
  const ids = guild.channels;
  return {
    normal: textChannel(guild, ids.normal, 'general', false, 0),
    ageRestricted: textChannel(guild, ids.ageRestricted, 'age-restricted', true, 1),
    thread: publicThread(guild, ids.thread, 'age-restricted-thread', ids.ageRestricted),
    normalThread: publicThread(guild, ids.normalThread, 'general-thread', ids.normal),
  };
}

export function guildMember(user: APIUser): APIGuildMember {
  return {
    user,
    nick: null,
    avatar: null,
    banner: null,
    roles: [],
    joined_at: new Date(0).toISOString(),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

/** The full guild a GUILD_CREATE dispatch carries. */
export function guildCreate(guild: FakeGuild): GatewayGuildCreateDispatchData {
  const channels = guildChannels(guild);
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: GUILD_OWNER_ID,
    region: 'europe',
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: GuildVerificationLevel.None,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.Disabled,
    roles: [
      {
        id: guild.id,
        name: '@everyone',
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        icon: null,
        unicode_emoji: null,
        position: 0,
        permissions: MEMBER_PERMISSIONS.toString(),
        managed: false,
        mentionable: false,
        flags: 0 as RoleFlags,
      },
    ],
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: guild.channels.normal,
    system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotifications,
    rules_channel_id: null,
    max_presences: null,
    max_members: 500_000,
    vanity_url_code: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    preferred_locale: DEFAULT_LOCALE as Locale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    hub_type: null,
    incidents_data: null,
    joined_at: new Date(0).toISOString(),
    large: false,
    unavailable: false,
    member_count: 2,
    voice_states: [],
    // Discord always includes the bot's own member, which discord.js exposes as guild.members.me.
    members: [guildMember(BOT_USER)],
    channels: [channels.normal, channels.ageRestricted],
    threads: [channels.thread, channels.normalThread],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
