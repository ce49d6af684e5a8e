import type { Card } from './card.js';
import type { CardSummary } from './card-summary.js';

/** A search's answer: the best matches and how many cards matched in all. */
export interface CardSearchResult {
  /** Best match first, at most the limit asked for (parsed in full: the list shows their stats). */
  cards: Card[];
  /** Every card that matched the query and the filters. */
  total: number;
}

/**
 * What a typed name leads to: one card (by passcode, exact name, or a match clearly better than the
 * rest), a few candidates to choose from, or nothing at all.
 */
export type CardResolution =
  | { kind: 'card'; card: Card; by: 'id' | 'name' | 'match' }
  | { kind: 'choices'; candidates: CardSummary[] }
  | { kind: 'none' };
