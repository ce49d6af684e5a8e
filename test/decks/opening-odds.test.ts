import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binomial, chanceOfEach, decimalOf, expectedOpened, openingOdds, percentOf } from '../../src/decks/opening-odds.js';

/** A 40-card deck: `first` copies of card 0, `second` of card 1, the rest singles. */
function deck(...counts: number[]): number[] {
  const rest = 40 - counts.reduce((sum, count) => sum + count, 0);
  return [...counts, ...Array.from({ length: rest }, () => 1)];
}

describe('opening odds', () => {
  it('binomials are exact, zero outside the triangle', () => {
    expect(binomial(40, 5)).toBe(658_008n);
    expect(binomial(60, 6)).toBe(50_063_860n);
    expect(binomial(5, 6)).toBe(0n);
    expect(binomial(3, -1)).toBe(0n);
  });

  it('3 copies in 40, 5 cards: 33.76 %; 6 cards: 39.43 % (known hypergeometric values)', () => {
    expect(percentOf(chanceOfEach(deck(3), [[0]], 5))).toBe('33.76');
    expect(percentOf(chanceOfEach(deck(3), [[0]], 6))).toBe('39.43');
    // 1 − C(37,5)/C(40,5) exactly.
    expect(chanceOfEach(deck(3), [[0]], 5)).toEqual({ numerator: 658_008n - 435_897n, denominator: 658_008n });
  });

  it('9 starters in 40: 74.18 % going first, 80.82 % second', () => {
    expect(percentOf(chanceOfEach(deck(3, 3, 3), [[0, 1, 2]], 5))).toBe('74.18');
    expect(percentOf(chanceOfEach(deck(3, 3, 3), [[0, 1, 2]], 6))).toBe('80.82');
  });

  it('at least one of each of two groups, overlapping or not, by inclusion–exclusion', () => {
    // 3 starters and 3 extenders in 40, 5 cards: 1 − 2·C(37,5)/C(40,5) + C(34,5)/C(40,5).
    const both = chanceOfEach(deck(3, 3), [[0], [1]], 5);
    expect(both.numerator).toBe(658_008n - 2n * 435_897n + 278_256n);
    expect(percentOf(both)).toBe('9.80');
    // A card in both groups: needing it twice is needing it once.
    expect(chanceOfEach(deck(3), [[0], [0]], 5)).toEqual(chanceOfEach(deck(3), [[0]], 5));
  });

  it('a deck smaller than the hand is drawn whole', () => {
    expect(percentOf(chanceOfEach([3, 1], [[0]], 5))).toBe('100.00');
    expect(decimalOf(expectedOpened([3, 1], [0], 6), 2)).toBe('3.00');
    expect(percentOf(chanceOfEach([], [[0]], 5))).toBe('0.00');
  });

  it('expected starters: hand × copies / deck', () => {
    expect(decimalOf(expectedOpened(deck(3), [0], 5), 2)).toBe('0.38');
    expect(decimalOf(expectedOpened(deck(3, 3, 3), [0, 1, 2], 6), 2)).toBe('1.35');
    expect(openingOdds(deck(3), [0], []).map((odds) => odds.hand)).toEqual([5, 6]);
  });

  it('is a probability, never more than the chance of the starters alone, for any deck and groups', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(59), { maxLength: 10 }),
        fc.array(fc.nat(59), { maxLength: 10 }),
        (copies, rawStarters, rawNeeded) => {
          const starters = rawStarters.filter((card) => card < copies.length);
          const needed = rawNeeded.filter((card) => card < copies.length);
          for (const { chance } of openingOdds(copies, starters, needed)) {
            expect(chance.numerator >= 0n && chance.numerator <= chance.denominator).toBe(true);
          }
          const alone = chanceOfEach(copies, [starters], 5);
          const both = chanceOfEach(copies, [starters, needed], 5);
          expect(both.numerator * alone.denominator <= alone.numerator * both.denominator).toBe(true);
        },
      ),
    );
  });
});
