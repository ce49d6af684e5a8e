import { compareStrings } from './word-index.js';

/** How a name matches a query, and how matches are ranked: the matcher's scoring, in one place. */

export type MatchKind = 'exact' | 'id' | 'alias' | 'prefix' | 'word' | 'fuzzy';

/** Stored per card as a small integer during a search. */
export const KIND_CODES: readonly MatchKind[] = ['exact', 'id', 'alias', 'prefix', 'word', 'fuzzy'];

export interface CardMatch {
  id: number;
  name: string;
  /** The card's name in the language searched, when it has one that differs from `name`. */
  localName?: string;
  /** Higher is better; only meaningful for comparing results of the same query. */
  score: number;
  kind: MatchKind;
}

export interface BestMatch {
  match: CardMatch;
  /** The top result is clearly the one meant, so a command may open it without a "Did you mean" menu. */
  clear: boolean;
}

/**
 * Scores are integers so that "equally good" is an exact tie, which popularity then breaks.
 * The bands never overlap, which gives the ranking exact > id/alias > prefix > word > fuzzy.
 */
export const SCORE = {
  exact: 1000,
  passcode: 1000,
  /** Same letters, different spacing or punctuation ("Raimei" for "Rai-Mei"). */
  exactCompact: 995,
  altNameExact: 990,
  konamiId: 980,
  alias: 950,
  prefix: 800,
  wordBase: 600,
  wordRange: 100,
  fuzzyRange: 500,
  /** An old name matching as well as a current name should lose to it. */
  altNamePenalty: 5,
} as const;

/**
 * Gap between the first and second result above which the first counts as clearly meant.
 * Prefix and word bands are 100+ apart, so a lone prefix match is always clear; within the fuzzy
 * band 60 points is roughly "one more query word matched".
 */
export const CLEAR_MARGIN = 60;

/** A fuzzy candidate must match at least this share of the query (weighted by word length). */
export const MIN_FUZZY_QUALITY = 0.5;

/**
 * How many typos a query word may carry. Short words get none: with one edit, "mst" would match
 * "mist", "most", "must"… and drown the results.
 */
export function editBudget(length: number): { maxEdits: number; maxPrefixEdits: number } {
  return {
    maxEdits: length <= 3 ? 0 : length <= 7 ? 1 : 2,
    // A typo inside a partial word is only trusted once the user has typed a few letters.
    maxPrefixEdits: length <= 4 ? 0 : length <= 9 ? 1 : 2,
  };
}

/**
 * Cards ordered by the tie-break (popularity, then shorter name, then name), and each card's rank
 * in that order, so a result's sort key is one integer: score * cardCount + (cardCount - 1 - rank).
 */
export function tieRanks(cards: readonly { name: string; popularity?: number }[]): { tieRank: Int32Array; cardByTieRank: Int32Array } {
  const cardByTieRank = Int32Array.from(cards.keys()).sort((a, b) => {
    const left = cards[a]!;
    const right = cards[b]!;
    return (right.popularity ?? 0) - (left.popularity ?? 0) || left.name.length - right.name.length || compareStrings(left.name, right.name);
  });
  const tieRank = new Int32Array(cards.length);
  cardByTieRank.forEach((card, rank) => {
    tieRank[card] = rank;
  });
  return { tieRank, cardByTieRank };
}
