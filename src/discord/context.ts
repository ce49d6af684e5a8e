import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  type Attachment,
  type BaseInteraction,
  type CommandInteractionOptionResolver,
} from 'discord.js';
import type { AppPermissions, AttachmentRef, ChannelInfo, Installation, Invoker, MemberPermissions, OptionValues } from '../interaction/context.js';
import type { AgeRestrictedChannels } from './age-restricted-channels.js';
import type { RawInteractionChannel } from './raw-channels.js';

export function invokerOf(interaction: BaseInteraction): Invoker {
  return { id: interaction.user.id, username: interaction.user.username, locale: interaction.locale };
}

/** Channel types that are threads, for channels known only from what Discord sent (no cache). */
export const THREAD_TYPES: readonly number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];

/**
 * Where the interaction happened, from the channel object Discord sent with it (discord.js caches
 * no channels). A thread is age-restricted when its parent is, which `ageRestricted` knows for the
 * guilds Almanac is in; elsewhere (user install) a thread counts as not age-restricted, as does an
 * unknown channel: the safe side.
 */
export function channelOf(interaction: BaseInteraction, raw: RawInteractionChannel | undefined, ageRestricted: AgeRestrictedChannels): ChannelInfo {
  const id = interaction.channelId ?? 'unknown';
  const type = raw?.type;
  if (!interaction.inGuild() || type === ChannelType.DM || type === ChannelType.GroupDM) {
    return { id, kind: 'dm', ageRestricted: false };
  }
  const guildId = interaction.guildId;
  if (type !== undefined && THREAD_TYPES.includes(type)) {
    const parentId = raw?.parentId;
    return parentId === undefined
      ? { id, kind: 'thread', ageRestricted: false, guildId }
      : { id, kind: 'thread', ageRestricted: ageRestricted.has(guildId, parentId), guildId, parentId };
  }
  // Discord's flag, sent with the interaction, is the freshest; the dispatches' when it is missing.
  return { id, kind: 'guild', ageRestricted: raw?.nsfw ?? ageRestricted.has(guildId, id), guildId };
}

const CONTEXTS: Readonly<Record<InteractionContextType, Installation['context']>> = {
  [InteractionContextType.Guild]: 'guild',
  [InteractionContextType.BotDM]: 'bot_dm',
  [InteractionContextType.PrivateChannel]: 'private_channel',
};

/**
 * Who installed Almanac for this interaction, and where it is used, from Discord's `context` (absent
 * from older payloads: then the guild tells) and `authorizing_integration_owners`. Both transports use it.
 */
export function installationFrom(
  context: number | null | undefined,
  inGuild: boolean,
  owners: Readonly<Partial<Record<ApplicationIntegrationType, unknown>>>,
): Installation {
  const where = (context === null || context === undefined ? undefined : CONTEXTS[context as InteractionContextType]) ?? (inGuild ? 'guild' : 'bot_dm');
  return { context: where, byGuild: owners[ApplicationIntegrationType.GuildInstall] !== undefined };
}

/** What Discord allows Almanac where the interaction happened, from the `app_permissions` bits. */
export function appPermissionsFrom(bits: bigint): AppPermissions {
  return { attachFiles: (bits & PermissionFlagsBits.AttachFiles) !== 0n };
}

/** What the member may do in the server, from `member.permissions` (null outside a server: nothing). */
export function memberPermissionsFrom(bits: bigint | null): MemberPermissions {
  return { manageServer: bits !== null && (bits & PermissionFlagsBits.ManageGuild) !== 0n };
}

export function installationOf(interaction: BaseInteraction): Installation {
  return installationFrom(interaction.context, interaction.inGuild(), interaction.authorizingIntegrationOwners);
}

export function appPermissionsOf(interaction: BaseInteraction): AppPermissions {
  return appPermissionsFrom(interaction.appPermissions.bitfield);
}

export function memberPermissionsOf(interaction: BaseInteraction): MemberPermissions {
  return memberPermissionsFrom(interaction.memberPermissions?.bitfield ?? null);
}

/** Autocomplete's resolver has no attachments (Discord sends none while a command is being typed). */
type ResolverLike = Pick<CommandInteractionOptionResolver, 'getSubcommand' | 'getString' | 'getBoolean' | 'getInteger'> &
  Partial<Pick<CommandInteractionOptionResolver, 'getAttachment' | 'get'>>;

export function optionsOf(resolver: ResolverLike): OptionValues {
  return {
    subcommand: resolver.getSubcommand(false),
    getString: (name) => resolver.getString(name),
    getBoolean: (name) => resolver.getBoolean(name),
    getInteger: (name) => resolver.getInteger(name),
    getAttachment: (name) => {
      const attachment = resolver.getAttachment?.(name) ?? null;
      return attachment === null ? null : attachmentRef(attachment);
    },
    // The option's value is the channel's id, whether or not Discord resolved the channel with it.
    getChannel: (name) => {
      const option = resolver.get?.(name);
      return option?.type === ApplicationCommandOptionType.Channel && typeof option.value === 'string' ? option.value : null;
    },
  };
}

/** What the kernel needs of an attachment discord.js resolved: its name, declared size and CDN URL. */
export function attachmentRef(attachment: Pick<Attachment, 'name' | 'size' | 'url'>): AttachmentRef {
  return { name: attachment.name, size: attachment.size, url: attachment.url };
}
