import type { OptionValues } from '../interaction/context.js';
import { CARD_ATTRIBUTES, CARD_TYPE_FILTERS, type CardAttribute, type CardSearchFilters, type CardTypeFilter } from './search-filters.js';

/**
 * `/card search`'s type and attribute options as users send them, checked before anything is
 * searched. The archetype is checked against the loaded database (`CardService.archetype`).
 */

/** An option value that is no filter: render words it. */
export interface UnknownFilter {
  option: 'type' | 'attribute';
  value: string;
}

type FilterParse = { ok: true; filters: Pick<CardSearchFilters, 'type' | 'attribute'> } | { ok: false; unknown: UnknownFilter };

/** The type filter first, then the attribute (any case); the first unknown value refuses the search. */
export function parseSearchFilters(options: Pick<OptionValues, 'getString'>): FilterParse {
  const filters: Pick<CardSearchFilters, 'type' | 'attribute'> = {};
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
  return { ok: true, filters };
}
