import type { Card } from './card.js';
import type { CardSummary } from './card-summary.js';
import { hasFilters, matchesFilters, type CardSearchFilters } from './search-filters.js';

/** What a random pick reads of the card database. */
export interface RandomCardSource {
  /** A random card not in `exclude` that `accept` keeps (any card when `accept` is absent); undefined when none. */
  random(exclude?: ReadonlySet<number>, accept?: (card: CardSummary) => boolean): Card | undefined;
  summaryById(id: number): CardSummary | undefined;
  byId(id: number): Card | undefined;
}

/**
 * `/card random`'s choice: a random card the filters keep that is not among `recent` (a channel's
 * last picks, oldest first); when the filters keep only cards picked lately, the one picked longest
 * ago, so that they come round in turn. Undefined when no card matches the filters.
 */
export function pickRandomCard(source: RandomCardSource, recent: readonly number[], filters: CardSearchFilters): Card | undefined {
  const accept = hasFilters(filters) ? (card: CardSummary) => matchesFilters(card, filters) : undefined;
  return source.random(new Set(recent), accept) ?? leastRecent(source, recent, accept);
}

/** The card among `recent` that `accept`s and was picked longest ago (any card when `accept` is absent). */
function leastRecent(source: RandomCardSource, recent: readonly number[], accept: ((card: CardSummary) => boolean) | undefined): Card | undefined {
  if (accept === undefined) return source.random();
  // A card may be in the history twice once the matches cycle: its last pick is what counts.
  const lastPicked = new Map<number, number>();
  recent.forEach((id, at) => lastPicked.set(id, at));
  let oldest: { id: number; at: number } | undefined;
  for (const [id, at] of lastPicked) {
    const summary = source.summaryById(id);
    if (summary !== undefined && accept(summary) && (oldest === undefined || at < oldest.at)) oldest = { id, at };
  }
  return oldest === undefined ? undefined : source.byId(oldest.id);
}
