import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD, type DeckList } from '../../src/decks/deck-list.js';
import { findYdkeUrl, parseYdke, toYdke } from '../../src/decks/ydke.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { anyCodePoints } from '../helpers/hostile-input.js';

const password = fc.integer({ min: 0, max: MAX_PASSWORD });
const deckArbitrary = fc
  .record({ main: fc.array(password, { maxLength: 70 }), extra: fc.array(password, { maxLength: 20 }), side: fc.array(password, { maxLength: 20 }) })
  .filter((deck) => deck.main.length + deck.extra.length + deck.side.length > 0);

function base64Of(...passwords: number[]): string {
  const bytes = Buffer.alloc(passwords.length * 4);
  passwords.forEach((value, index) => bytes.writeUInt32LE(value, index * 4));
  return bytes.toString('base64');
}

describe('parseYdke', () => {
  it('reads the three sections as little-endian passwords, in order', () => {
    const url = `ydke://${base64Of(14558127, 14558127, 83764718)}!${base64Of(1861629)}!${base64Of(94145021)}!`;
    expect(parseYdke(url)).toEqual({ ok: true, deck: { main: [14558127, 14558127, 83764718], extra: [1861629], side: [94145021] } });
    expect(parseYdke(`  YDKE://${base64Of(4)}!!  `)).toEqual({ ok: true, deck: { main: [4], extra: [], side: [] } });
  });

  it('refuses every bad input with its own problem', () => {
    expect(parseYdke('https://example.com/deck')).toEqual({ ok: false, problem: 'notYdke' });
    expect(parseYdke('ydke://abc$!!!')).toEqual({ ok: false, problem: 'badBase64' });
    expect(parseYdke('ydke://A!!!')).toEqual({ ok: false, problem: 'badBase64' });
    expect(parseYdke(`ydke://${Buffer.from([1, 2, 3, 4, 5]).toString('base64')}!!!`)).toEqual({ ok: false, problem: 'badSectionLength' });
    expect(parseYdke(`ydke://${base64Of(1)}!!!${base64Of(2)}!`)).toEqual({ ok: false, problem: 'tooManySections' });
    expect(parseYdke(`ydke://${base64Of(...Array.from({ length: 201 }, () => 7))}!!!`)).toEqual({ ok: false, problem: 'tooManyCards' });
    expect(parseYdke('ydke://!!!')).toEqual({ ok: false, problem: 'emptyDeck' });
    // The cap itself is read, split across sections.
    const cap = { main: Array.from({ length: 60 }, () => 1), extra: Array.from({ length: 70 }, () => 2), side: Array.from({ length: 70 }, () => 3) };
    expect(parseYdke(toYdke(cap))).toEqual({ ok: true, deck: cap });
  });

  it('finds the first ydke URL in a message', () => {
    expect(findYdkeUrl('my deck: ydke://AAAA!!! and ydke://BBBB!!!')).toBe('ydke://AAAA!!!');
    expect(findYdkeUrl('no deck here')).toBeUndefined();
  });

  it('round-trips any deck through toYdke', () => {
    fc.assert(
      fc.property(deckArbitrary, (deck: DeckList) => {
        expect(parseYdke(toYdke(deck))).toEqual({ ok: true, deck });
      }),
      { numRuns: fuzzRuns(400) },
    );
  });

  it('never throws on arbitrary strings', () => {
    const ydkeLike = fc.string({ unit: fc.constantFrom(...'ydke:/!=+AZaz09'.split('')), maxLength: 80 }).map((tail) => `ydke://${tail}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), anyCodePoints(), ydkeLike), (input) => {
        return typeof parseYdke(input).ok === 'boolean';
      }),
      { numRuns: fuzzRuns(800) },
    );
  });
});
