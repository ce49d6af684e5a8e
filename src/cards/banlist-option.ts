import type { SlashCommandSubcommandBuilder } from 'discord.js';
import { BANLIST_FORMAT_NAMES, LIST_FORMATS } from './banlist.js';

/** The required `format` of `/card banlist` and `/subscribe banlist`: a format with a ban list, from Discord's choices. */
export function withBanlistFormatOption(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub.addStringOption((option) =>
    option
      .setName('format')
      .setDescription('Which ban list')
      .setRequired(true)
      .addChoices(...LIST_FORMATS.map((format) => ({ name: BANLIST_FORMAT_NAMES[format], value: format }))),
  );
}
