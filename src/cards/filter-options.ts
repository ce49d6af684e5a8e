import type { SlashCommandSubcommandBuilder } from 'discord.js';
import { CARD_ATTRIBUTES, CARD_TYPE_FILTERS, FORMAT_FILTERS, MAX_LEVEL } from './search-filters.js';

/** Longest archetype name a member may type (as long as a card name). */
const MAX_ARCHETYPE_CHARS = 100;

/** The card filters of `/card search`, `/card random` and `/subscribe card-of-the-day` (checked by src/render/card-filters.ts). */
export function withFilterOptions(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub
    .addStringOption((option) =>
      option
        .setName('type')
        .setDescription('Only cards of this type')
        .addChoices(...Object.entries(CARD_TYPE_FILTERS).map(([value, name]) => ({ name, value }))),
    )
    .addStringOption((option) =>
      option
        .setName('attribute')
        .setDescription('Only monsters of this attribute')
        .addChoices(...CARD_ATTRIBUTES.map((attribute) => ({ name: attribute, value: attribute }))),
    )
    .addStringOption((option) => option.setName('archetype').setDescription('Only cards of this archetype').setAutocomplete(true).setMaxLength(MAX_ARCHETYPE_CHARS))
    .addIntegerOption((option) => option.setName('level').setDescription('Only monsters of this Level or Rank').setMinValue(0).setMaxValue(MAX_LEVEL))
    .addStringOption((option) =>
      option
        .setName('format')
        .setDescription('Only cards legal in this format')
        .addChoices(...Object.entries(FORMAT_FILTERS).map(([value, name]) => ({ name, value }))),
    );
}
