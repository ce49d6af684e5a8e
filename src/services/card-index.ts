import { LRUCache } from 'lru-cache';
import type { CardLanguage } from '../cards/card.js';
import type { CardSummary } from '../cards/card-summary.js';
import { CardMatcher, type MatchableCard } from '../cards/matcher.js';
import type { SetListing } from '../cards/printings.js';

/** The matcher and the lists derived from one loaded card set; replaced as a whole on reload. */
export interface CardIndex {
  matcher: CardMatcher;
  /** Archetype names, sorted, and by lowercase name. */
  archetypes: string[];
  archetypeByKey: Map<string, string>;
  /** The sets shown lately, by `setNameKey` of the set name: their cards in set-number order. */
  setListings: LRUCache<string, SetListing[]>;
}

/** Set listings kept: building one parses the set's cards (a few ms for the largest sets). */
const SET_LISTINGS_KEPT = 32;

/** The index over one loaded card set: the matcher (names in `localNames`' languages too) and the archetypes. */
export function buildCardIndex(
  cards: readonly CardSummary[],
  aliases: Readonly<Record<string, string>>,
  localNames: (language: CardLanguage) => ReadonlyMap<number, string>,
): CardIndex {
  const matchable: MatchableCard[] = cards.map((card) => ({
    id: card.id,
    name: card.name,
    altNames: card.altNames,
    ...(card.konamiId === undefined ? {} : { konamiId: card.konamiId }),
    popularity: card.views,
  }));
  const archetypeByKey = new Map<string, string>();
  for (const card of cards) {
    if (card.archetype !== undefined) archetypeByKey.set(card.archetype.toLowerCase(), card.archetype);
  }
  return {
    matcher: new CardMatcher(matchable, aliases, { localizedNames: localNames }),
    archetypes: [...archetypeByKey.values()].sort((left, right) => left.localeCompare(right, 'en')),
    archetypeByKey,
    setListings: new LRUCache({ max: SET_LISTINGS_KEPT }),
  };
}
