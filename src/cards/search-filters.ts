import { BANLIST_FORMATS, type BanlistFormat, type GameFormat } from './card.js';
import type { CardSummary } from './card-summary.js';
import { BAN_STATUS_FILTERS, withinDates, withinStat, type BanStatusFilter, type DateBound, type StatBound } from './search-query.js';

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
  /** A monster's race or a Spell/Trap's property, as YGOPRODeck spells it (`CARD_RACES`). */
  race?: string;
  atk?: StatBound;
  def?: StatBound;
  link?: StatBound;
  scale?: StatBound;
  /** On the ban list of `format` (TCG without one) with this status. */
  banned?: BanStatusFilter;
  /** Released (in the TCG; in the OCG when `format` is OCG) within these dates. */
  released?: DateBound;
}

/** The ban list `banned` reads: the format's own, TCG's without a format; none for formats without a list. */
export function banlistFormatOf(format: FormatFilter | undefined): BanlistFormat | undefined {
  const key = format ?? 'tcg';
  return (BANLIST_FORMATS as readonly string[]).includes(key) ? (key as BanlistFormat) : undefined;
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
  if (filters.race !== undefined && card.race !== filters.race) return false;
  if (!matchesStats(card, filters)) return false;
  if (filters.banned !== undefined) {
    const list = banlistFormatOf(filters.format);
    if (list === undefined || card.banlist[list] !== BAN_STATUS_FILTERS[filters.banned]) return false;
  }
  if (filters.released !== undefined && !withinDates(filters.format === 'ocg' ? card.ocgDate : card.tcgDate, filters.released)) return false;
  if (filters.type !== undefined) {
    const word = TYPE_LINE_WORDS[filters.type];
    if (word !== undefined) return card.kind === 'monster' && card.typeLine.split(' / ').includes(word);
    return card.kind === filters.type;
  }
  return true;
}

function matchesStats(card: CardSummary, filters: CardSearchFilters): boolean {
  if (filters.atk !== undefined && !withinStat(card.atk, filters.atk)) return false;
  if (filters.def !== undefined && !withinStat(card.def, filters.def)) return false;
  if (filters.link !== undefined && !withinStat(card.linkRating, filters.link)) return false;
  return filters.scale === undefined || withinStat(card.scale, filters.scale);
}
