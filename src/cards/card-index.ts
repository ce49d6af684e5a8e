import { LRUCache } from 'lru-cache';
import type { CardLanguage } from './card.js';
import type { CardSummary } from './card-summary.js';
import { CardMatcher, type MatchableCard } from './matcher.js';
import type { MatcherTables } from './matcher-tables.js';
import type { SetListing } from './printings.js';

/** The matcher and the lists derived from one loaded card set; replaced as a whole on reload. */
export interface CardIndex {
  matcher: CardMatcher;
  /** Archetype names, sorted, and by lowercase name. */
  archetypes: string[];
  archetypeByKey: Map<string, string>;
  /** The sets shown lately, by `setNameKey` of the set name: their cards in set-number order. */
  setListings: LRUCache<string, SetListing[]>;
}

/** What an index takes from one card set whatever the languages: worked out once per set, not once per build. */
export interface CardSetParts extends Pick<CardIndex, 'archetypes' | 'archetypeByKey'> {
  cards: readonly CardSummary[];
  /** `cards` as the matcher reads them (see matchableCard). */
  matchable: readonly MatchableCard[];
}

/** What an index is built from: one card set, and each loaded language's names, as they were when the build began. */
export interface CardIndexSource extends CardSetParts {
  names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>;
}

/** Set listings kept: building one parses the set's cards (a few ms for the largest sets). */
const SET_LISTINGS_KEPT = 32;

/** A card as the matcher reads it. */
function matchableCard(card: CardSummary): MatchableCard {
  return {
    id: card.id,
    name: card.name,
    altNames: card.altNames,
    ...(card.konamiId === undefined ? {} : { konamiId: card.konamiId }),
    popularity: card.views,
  };
}

/** A card set's parts, read one card at a time (`add`, in order), then `done`. */
export function cardSetPartsOf(cards: readonly CardSummary[]): { add(at: number): void; done(): CardSetParts } {
  const matchable = new Array<MatchableCard>(cards.length);
  const archetypeByKey = new Map<string, string>();
  return {
    add(at) {
      const card = cards[at] as CardSummary;
      matchable[at] = matchableCard(card);
      if (card.archetype !== undefined) archetypeByKey.set(card.archetype.toLowerCase(), card.archetype);
    },
    done() {
      const archetypes = [...archetypeByKey.values()].sort((left, right) => left.localeCompare(right, 'en'));
      return { cards, matchable, archetypes, archetypeByKey };
    },
  };
}

export function cardSetParts(cards: readonly CardSummary[]): CardSetParts {
  const parts = cardSetPartsOf(cards);
  for (let at = 0; at < cards.length; at++) parts.add(at);
  return parts.done();
}

/** The index over `source`: the matcher (built here unless its `tables` are given) and the card set's archetypes. */
export function buildCardIndex(source: CardIndexSource, aliases: Readonly<Record<string, string>>, tables?: MatcherTables): CardIndex {
  return {
    matcher: new CardMatcher(source.matchable, aliases, tables === undefined ? { localizedNames: (language) => source.names.get(language) ?? [] } : { tables }),
    archetypes: source.archetypes,
    archetypeByKey: source.archetypeByKey,
    setListings: new LRUCache({ max: SET_LISTINGS_KEPT }),
  };
}
