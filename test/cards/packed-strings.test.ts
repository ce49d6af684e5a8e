import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareAt, lengthOf, lowerBound, packedCount, packStrings, startsWithAt, stringAt, unpackStrings } from '../../src/cards/packed-strings.js';
import { compareStrings } from '../../src/cards/word-index.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const sign = (value: number) => Math.sign(value);

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
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 8 }), (strings, query) => {
        const list = packStrings(strings);
        strings.forEach((text, at) => {
          expect(sign(compareAt(list, at, query))).toBe(compareStrings(text, query));
          expect(startsWithAt(list, at, query)).toBe(text.startsWith(query));
          expect(stringAt(list, at)).toBe(text);
        });
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('finds the first string not less than a query by bisection, directly or through an order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 30 }), fc.string({ maxLength: 6 }), (strings, query) => {
        const sorted = [...strings].sort(compareStrings);
        const expected = sorted.findIndex((text) => !(text < query));
        expect(lowerBound(packStrings(sorted), query)).toBe(expected < 0 ? sorted.length : expected);
        // The same strings unsorted, visited in sorted order through `order`.
        const order = Int32Array.from(strings.keys()).sort((a, b) => compareStrings(strings[a] as string, strings[b] as string));
        expect(lowerBound(packStrings(strings), query, order)).toBe(expected < 0 ? sorted.length : expected);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});
