import { ApplicationIntegrationType, InteractionContextType } from 'discord.js';

/**
 * Where a command can be installed and used, set on each command's builder. Installed to a server
 * or to a user's own account, usable in servers, in the bot's DM and in group DMs / other DMs.
 */
export const EVERYWHERE = {
  integrationTypes: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
} as const;

/** Operator commands: only where a server installed Almanac, only inside that server. */
export const SERVER_INSTALL_ONLY = {
  integrationTypes: [ApplicationIntegrationType.GuildInstall],
  contexts: [InteractionContextType.Guild],
} as const;
