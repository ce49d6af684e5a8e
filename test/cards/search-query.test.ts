import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_RACES, parseCardQuery, satisfiesBound } from '../../src/cards/search-query.js';

describe('parseCardQuery', () => {
  it('reads the documented example', () => {
    expect(parseCardQuery('atk>=2500 race:dragon "destroy all"')).toEqual({
      ok: true,
      query: { bounds: { atk: { comparison: '>=', value: 2500 } }, race: 'Dragon', terms: ['destroy all'] },
    });
  });

  it('names what it did not understand', () => {
    expect(parseCardQuery('atk>=')).toEqual({ ok: false, problem: { kind: 'bad-bound', token: 'atk>=' } });
    expect(parseCardQuery('race:nonsense')).toEqual({ ok: false, problem: { kind: 'unknown-race', value: 'nonsense' } });
    expect(parseCardQuery('"destroy all')).toEqual({ ok: false, problem: { kind: 'unbalanced-quote' } });
  });

  it('never throws and always answers a parse or a problem', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = parseCardQuery(input);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });

  it('round-trips any bound it is given', () => {
    const field = fc.constantFrom('atk', 'def', 'link', 'scale');
    const op = fc.constantFrom('=', '<', '<=', '>', '>=');
    fc.assert(
      fc.property(field, op, fc.integer({ min: 0, max: 99_999 }), (name, comparison, value) => {
        const result = parseCardQuery(`${name.toUpperCase()}${comparison}${value}`);
        expect(result).toEqual({ ok: true, query: { bounds: { [name]: { comparison, value } }, terms: [] } });
      }),
    );
  });

  it('accepts every known race however it is cased', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CARD_RACES.keys()), (key) => {
        const result = parseCardQuery(`race:${key.toUpperCase()}`);
        expect(result.ok && result.query.race).toBe(CARD_RACES.get(key));
      }),
    );
  });

  it('keeps loose words and phrases lower-cased as terms', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) => !/^(atk|def|link|scale|race)/.test(w));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), (words) => {
        const result = parseCardQuery(words.map((w) => w.toUpperCase()).join(' '));
        expect(result).toEqual({ ok: true, query: { bounds: {}, terms: words } });
      }),
    );
  });
});

describe('satisfiesBound', () => {
  it('compares as the operator says and rejects a missing stat', () => {
    expect(satisfiesBound(2500, { comparison: '>=', value: 2500 })).toBe(true);
    expect(satisfiesBound(2400, { comparison: '>', value: 2500 })).toBe(false);
    expect(satisfiesBound(undefined, { comparison: '<', value: 1 })).toBe(false);
  });
});
