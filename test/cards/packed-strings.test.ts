import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareAt, lengthOf, lowerBound, packedCount, packStrings, startsWithAt, stringAt, unpackStrings } from '../../src/cards/packed-strings.js';
import { compareStrings } from '../../src/cards/word-index.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const sign = (value: number) => Math.sign(value);
/**
 * Short strings of a few characters chosen where code-unit order matters: ASCII, Latin-1, the top of
 * the BMP (sorts after a surrogate's first unit) and a character beyond it (a surrogate pair).
 */
const text = fc.array(fc.constantFrom('a', 'b', 'é', '\uE000', '\uFFFF', '😀', '\uD83D'), { maxLength: 6 }).map((parts) => parts.join(''));

describe('packed strings', () => {
  const list = ['blueeyes', undefined, '', 'dark', undefined, 'Ｈéro☆'];
  const packed = packStrings(list);

  it('gives each string back, absent ones as undefined and empty ones as empty', () => {
    expect(packedCount(packed)).toBe(6);
    expect(unpackStrings(packed)).toEqual(list);
    expect(list.map((_, at) => lengthOf(packed, at))).toEqual([8, 0, 0, 4, 0, 5]);
    expect(stringAt(packed, 2)).toBe('');
    expect(stringAt(packed, 1)).toBeUndefined();
  });

  it('answers nothing outside the list', () => {
    for (const at of [-1, 6, 7, 1.5, Number.NaN]) expect(stringAt(packed, at)).toBeUndefined();
    expect(unpackStrings(packStrings([]))).toEqual([]);
  });

  it('compares and matches prefixes in place, an absent string as empty', () => {
    expect(compareAt(packed, 0, 'blueeyes')).toBe(0);
    expect(sign(compareAt(packed, 0, 'blueeyesw'))).toBe(-1);
    expect(sign(compareAt(packed, 0, 'blue'))).toBe(1);
    expect(sign(compareAt(packed, 3, 'darj'))).toBe(1);
    expect(compareAt(packed, 1, '')).toBe(0);
    expect(startsWithAt(packed, 0, 'blue')).toBe(true);
    expect(startsWithAt(packed, 0, 'blueeyesw')).toBe(false);
    expect(startsWithAt(packed, 3, 'dk')).toBe(false);
    expect(startsWithAt(packed, 4, '')).toBe(true);
    expect(startsWithAt(packed, 4, 'd')).toBe(false);
  });

  it('agrees with the string operators on any strings (code-unit order, surrogates included)', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), text, (strings, query) => {
        const list = packStrings(strings);
        const read = strings.map((_, at) => [sign(compareAt(list, at, query)), startsWithAt(list, at, query), stringAt(list, at)]);
        const expected = strings.map((text) => [compareStrings(text, query), text.startsWith(query), text]);
        return JSON.stringify(read) === JSON.stringify(expected);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('finds the first string not less than a query by bisection, directly or through an order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 30 }), fc.string({ maxLength: 6 }), (strings, query) => {
        const sorted = [...strings].sort(compareStrings);
        const first = sorted.findIndex((text) => !(text < query));
        const expected = first < 0 ? sorted.length : first;
        // The same strings unsorted, visited in sorted order through `order`.
        const order = Int32Array.from(strings.keys()).sort((a, b) => compareStrings(strings[a] as string, strings[b] as string));
        return lowerBound(packStrings(sorted), query) === expected && lowerBound(packStrings(strings), query, order) === expected;
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});
