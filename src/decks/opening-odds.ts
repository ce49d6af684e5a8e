import type { Card } from '../cards/card.js';

/**
 * Opening-hand odds from a deck, exactly (hypergeometric, in integers): the chance that a hand of
 * `hand` cards drawn from `deckSize` holds at least one card of every group (starters, and the cards
 * the player also needs one of), and the expected number of starters in it. Groups may overlap (a
 * card in both counts for both), so the chance is inclusion–exclusion over the groups:
 * P(every group hit) = Σ over subsets S of the groups of (−1)^|S| · C(N − |∪S|, n) / C(N, n).
 */

/** An exact fraction, kept in BigInt so no probability is rounded before it is shown. */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

export function binomial(n: number, k: number): bigint {
  if (!Number.isInteger(n) || !Number.isInteger(k) || k < 0 || n < 0 || k > n) return 0n;
  const r = Math.min(k, n - k);
  let result = 1n;
  for (let i = 1; i <= r; i += 1) result = (result * BigInt(n - r + i)) / BigInt(i);
  return result;
}

/**
 * The chance of at least one card of each group among `hand` cards from `deckSize`; a group is the
 * set of card indices (into `copies`, the copies of each distinct card in the deck) it holds.
 */
export function chanceOfEach(copies: readonly number[], groups: readonly (readonly number[])[], handSize: number): Fraction {
  const deckSize = copies.reduce((sum, count) => sum + count, 0);
  // A deck smaller than the hand is drawn whole.
  const hand = Math.min(handSize, deckSize);
  const denominator = binomial(deckSize, hand);
  if (denominator === 0n) return { numerator: 0n, denominator: 1n };
  let numerator = 0n;
  for (let subset = 0; subset < 1 << groups.length; subset += 1) {
    const cards = new Set<number>();
    let size = 0;
    for (let group = 0; group < groups.length; group += 1) if (subset & (1 << group)) for (const card of groups[group]!) cards.add(card);
    for (const card of cards) size += copies[card] ?? 0;
    const misses = binomial(deckSize - size, hand);
    numerator += popcount(subset) % 2 === 0 ? misses : -misses;
  }
  return { numerator, denominator };
}

function popcount(value: number): number {
  let count = 0;
  for (let rest = value; rest > 0; rest >>= 1) count += rest & 1;
  return count;
}

/** The expected number of `cards` (indices into `copies`) in a hand of `hand`: hand × copies / deck size. */
export function expectedOpened(copies: readonly number[], cards: readonly number[], handSize: number): Fraction {
  const deckSize = copies.reduce((sum, count) => sum + count, 0);
  const hand = Math.min(handSize, deckSize);
  if (deckSize === 0) return { numerator: 0n, denominator: 1n };
  const chosen = [...new Set(cards)].reduce((sum, card) => sum + (copies[card] ?? 0), 0);
  return { numerator: BigInt(hand * chosen), denominator: BigInt(deckSize) };
}

/** A fraction × 10^`decimals`, rounded half up, as a decimal string (`0.3376` → `"33.76"` with percent). */
export function decimalOf(fraction: Fraction, decimals: number, scale = 1n): string {
  if (fraction.denominator === 0n) return '0';
  const factor = 10n ** BigInt(decimals);
  const scaled = (fraction.numerator * scale * factor * 2n + fraction.denominator) / (2n * fraction.denominator);
  const whole = scaled / factor;
  const rest = (scaled % factor).toString().padStart(decimals, '0');
  return decimals === 0 ? whole.toString() : `${whole}.${rest}`;
}

/** A fraction as a percentage with two decimals, `"33.76"`. */
export function percentOf(fraction: Fraction): string {
  return decimalOf(fraction, 2, 100n);
}

/** Going first opens 5 cards, going second 6. */
export const OPENING_HANDS = [5, 6] as const;

export interface OpeningOdds {
  hand: number;
  chance: Fraction;
  expectedStarters: Fraction;
}

/** The odds for both openings: at least one starter (and one of `needed`, when given), and starters expected. */
export function openingOdds(copies: readonly number[], starters: readonly number[], needed: readonly number[]): OpeningOdds[] {
  const groups = needed.length > 0 ? [starters, needed] : [starters];
  return OPENING_HANDS.map((hand) => ({ hand, chance: chanceOfEach(copies, groups, hand), expectedStarters: expectedOpened(copies, starters, hand) }));
}

/** A distinct card of the Main Deck, as odds count it: alternate arts merged; an unknown password is a card too. */
export interface OddsCard {
  /** Absent for a password the card database does not know. */
  card?: Card;
  password: number;
  count: number;
}

/** The Main Deck's distinct cards, in first-seen order, with their copies (every password counted). */
export function mainDeckCards(main: readonly number[], cardOf: (password: number) => Card | undefined): OddsCard[] {
  const entries = new Map<string, OddsCard>();
  for (const password of main) {
    const card = cardOf(password);
    const key = card === undefined ? `?${password}` : String(card.id);
    const entry = entries.get(key);
    if (entry) entry.count += 1;
    else entries.set(key, { ...(card === undefined ? {} : { card }), password, count: 1 });
  }
  return [...entries.values()];
}
