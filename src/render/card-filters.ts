import type { CardSearchFilters } from '../cards/search-filters.js';
import { parseSearchFilters } from '../cards/search-options.js';
import type { OptionValues } from '../interaction/context.js';
import { UserError } from '../interaction/errors.js';
import { unknownFilterSentence } from './card-menus.js';
import { quoteUserText } from './user-text.js';

/** What checking the filters needs of the card database. */
export interface FilterLookup {
  archetype(name: string): string | undefined;
  readonly knowsFormats: boolean;
}

/**
 * The card filters of `/card search`, `/card random` and `/subscribe card-of-the-day`, checked: a
 * value that is no filter, an unknown archetype, or a format asked of a database that lists none
 * are refused with a sentence. Without `cards` (the database still loading) only the values are
 * checked, so that a bad one is refused before any wait.
 */
export function checkedFilters(options: Pick<OptionValues, 'getString' | 'getInteger'>, cards: FilterLookup | undefined): CardSearchFilters {
  const parsed = parseSearchFilters(options);
  if (!parsed.ok) throw new UserError((t) => unknownFilterSentence(parsed.unknown, t));
  const filters: CardSearchFilters = { ...parsed.filters };
  if (cards === undefined) return filters;
  const archetypeInput = options.getString('archetype')?.trim();
  if (archetypeInput) {
    const archetype = cards.archetype(archetypeInput);
    if (archetype === undefined) throw new UserError((t) => t.card.noArchetype(quoteUserText(archetypeInput)));
    filters.archetype = archetype;
  }
  // An imported dump may list no formats: say so rather than find nothing.
  if (filters.format !== undefined && !cards.knowsFormats) throw new UserError((t) => t.card.formatsUnknown);
  return filters;
}
