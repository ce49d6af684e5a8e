import { ApplicationIntegrationType, ChannelType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import type { AppPermissions, Installation, MemberPermissions } from '../interaction/context.js';

/** What both transports read the same way from an interaction as Discord sends it (src/discord/api-interaction.ts). */

/** Channel types that are threads, for channels known only from what Discord sent (no cache). */
export const THREAD_TYPES: readonly number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];

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
  const postEmbeds = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
  return { attachFiles: (bits & PermissionFlagsBits.AttachFiles) !== 0n, postEmbeds: (bits & postEmbeds) === postEmbeds };
}

/** What the member may do in the server, from `member.permissions` (null outside a server: nothing). */
export function memberPermissionsFrom(bits: bigint | null): MemberPermissions {
  return {
    manageServer: bits !== null && (bits & PermissionFlagsBits.ManageGuild) !== 0n,
    manageChannels: bits !== null && (bits & PermissionFlagsBits.ManageChannels) !== 0n,
  };
}
