import type { GameFormat } from './card.js';
import type { CardSummary } from './card-summary.js';

/** The `/card search` and `/card random` filters: what a search or a random pick may be narrowed to, and how. */

/** The `/card search` type filter: one card frame family each. */
export const CARD_TYPE_FILTERS = {
  monster: 'Monster',
  normal: 'Normal Monster',
  effect: 'Effect Monster',
  ritual: 'Ritual Monster',
  fusion: 'Fusion Monster',
  synchro: 'Synchro Monster',
  xyz: 'Xyz Monster',
  link: 'Link Monster',
  pendulum: 'Pendulum Monster',
  tuner: 'Tuner Monster',
  spell: 'Spell',
  trap: 'Trap',
  token: 'Token',
  skill: 'Skill',
} as const;
export type CardTypeFilter = keyof typeof CARD_TYPE_FILTERS;

/** The word of a monster's type line ("Fiend / Xyz / Effect") each monster filter looks for. */
const TYPE_LINE_WORDS: Readonly<Partial<Record<CardTypeFilter, string>>> = {
  normal: 'Normal',
  effect: 'Effect',
  ritual: 'Ritual',
  fusion: 'Fusion',
  synchro: 'Synchro',
  xyz: 'Xyz',
  link: 'Link',
  pendulum: 'Pendulum',
  tuner: 'Tuner',
};

export const CARD_ATTRIBUTES = ['DARK', 'DIVINE', 'EARTH', 'FIRE', 'LIGHT', 'WATER', 'WIND'] as const;
export type CardAttribute = (typeof CARD_ATTRIBUTES)[number];

/** The format filter's values (option choices, so plain words) and the formats they stand for. */
export const FORMAT_FILTERS = {
  tcg: 'TCG',
  ocg: 'OCG',
  goat: 'GOAT',
  masterduel: 'Master Duel',
  speedduel: 'Speed Duel',
  duellinks: 'Duel Links',
} as const satisfies Record<string, GameFormat>;
export type FormatFilter = keyof typeof FORMAT_FILTERS;

/** Levels and Ranks run from 0 to 13. */
export const MAX_LEVEL = 13;

export interface CardSearchFilters {
  type?: CardTypeFilter;
  attribute?: CardAttribute;
  /** An archetype exactly as `archetype()` returns it. */
  archetype?: string;
  /** A monster's Level, or an Xyz monster's Rank. */
  level?: number;
  format?: FormatFilter;
}

/** True when at least one filter is set. */
export function hasFilters(filters: CardSearchFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}


export function matchesFilters(card: CardSummary, filters: CardSearchFilters): boolean {
  if (filters.attribute !== undefined && card.attribute !== filters.attribute) return false;
  if (filters.archetype !== undefined && card.archetype !== filters.archetype) return false;
  if (filters.level !== undefined && card.level !== filters.level && card.rank !== filters.level) return false;
  if (filters.format !== undefined && !card.formats.includes(FORMAT_FILTERS[filters.format])) return false;
  if (filters.type !== undefined) {
    const word = TYPE_LINE_WORDS[filters.type];
    if (word !== undefined) return card.kind === 'monster' && card.typeLine.split(' / ').includes(word);
    return card.kind === filters.type;
  }
  return true;
}

