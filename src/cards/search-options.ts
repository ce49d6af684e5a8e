import type { OptionValues } from '../interaction/context.js';
import {
  CARD_ATTRIBUTES,
  CARD_TYPE_FILTERS,
  FORMAT_FILTERS,
  MAX_LEVEL,
  type CardAttribute,
  type CardSearchFilters,
  type CardTypeFilter,
  type FormatFilter,
} from './search-filters.js';

/**
 * `/card search`'s and `/card random`'s type, attribute, level and format options as users send
 * them, checked before anything is searched. The archetype is checked against the loaded database
 * (`CardService.archetype`).
 */

/** An option value that is no filter: render words it. */
export interface UnknownFilter {
  option: 'type' | 'attribute' | 'level' | 'format';
  value: string;
}

type ParsedFilters = Pick<CardSearchFilters, 'type' | 'attribute' | 'level' | 'format'>;
type FilterParse = { ok: true; filters: ParsedFilters } | { ok: false; unknown: UnknownFilter };

/** The type filter first, then the attribute (any case), the level and the format; the first unknown value refuses the search. */
export function parseSearchFilters(options: Pick<OptionValues, 'getString' | 'getInteger'>): FilterParse {
  const filters: ParsedFilters = {};
  const type = options.getString('type');
  if (type !== null) {
    if (!Object.hasOwn(CARD_TYPE_FILTERS, type)) return { ok: false, unknown: { option: 'type', value: type } };
    filters.type = type as CardTypeFilter;
  }
  const attribute = options.getString('attribute');
  if (attribute !== null) {
    const upper = attribute.toUpperCase();
    if (!(CARD_ATTRIBUTES as readonly string[]).includes(upper)) return { ok: false, unknown: { option: 'attribute', value: attribute } };
    filters.attribute = upper as CardAttribute;
  }
  const level = options.getInteger('level');
  if (level !== null) {
    if (!(Number.isInteger(level) && level >= 0 && level <= MAX_LEVEL)) return { ok: false, unknown: { option: 'level', value: String(level) } };
    filters.level = level;
  }
  const format = options.getString('format');
  if (format !== null) {
    const key = format.toLowerCase().replace(/[\s_-]/g, '');
    if (!Object.hasOwn(FORMAT_FILTERS, key)) return { ok: false, unknown: { option: 'format', value: format } };
    filters.format = key as FormatFilter;
  }
  return { ok: true, filters };
}
