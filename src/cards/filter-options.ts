import type { SlashCommandStringOption, SlashCommandSubcommandBuilder } from 'discord.js';
import { CARD_ATTRIBUTES, CARD_TYPE_FILTERS, FORMAT_FILTERS, MAX_LEVEL } from './search-filters.js';
import { BAN_STATUS_FILTERS } from './search-query.js';

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

/** Longest value of a stat or date option (`1000-2000`, `<=2010-01-01`). */
const MAX_BOUND_CHARS = 20;

/** `/card search`'s own filters: the effect text, the race, the stats, the ban status and the release date. */
export function withSearchOptions(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  const bound = (name: string, description: string) => (option: SlashCommandStringOption) =>
    option.setName(name).setDescription(description).setMaxLength(MAX_BOUND_CHARS);
  return sub
    .addStringOption((option) => option.setName('text').setDescription('Words or a "quoted phrase" of the card’s effect, in your language').setMaxLength(MAX_ARCHETYPE_CHARS))
    .addStringOption((option) => option.setName('race').setDescription('Only monsters of this Type, or Spells/Traps of this kind').setAutocomplete(true).setMaxLength(MAX_ARCHETYPE_CHARS))
    .addStringOption(bound('atk', 'ATK: 2500, >=2500, <1000, 1000-2000 or ?'))
    .addStringOption(bound('def', 'DEF: 2500, >=2500, <1000, 1000-2000 or ?'))
    .addStringOption((option) =>
      option
        .setName('banned')
        .setDescription('Only cards of this status on the format’s ban list (TCG without a format)')
        .addChoices(...Object.entries(BAN_STATUS_FILTERS).map(([value, name]) => ({ name, value }))),
    )
    .addStringOption(bound('released', 'Release date (OCG’s with format OCG, else TCG’s): <2010-01-01, >=2024, 2019'))
    .addStringOption(bound('link', 'Link Rating: 3, >=2 or 1-3'))
    .addStringOption(bound('scale', 'Pendulum Scale: 4, <=3 or 1-8'));
}
