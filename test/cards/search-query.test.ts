import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_RACES,
  parseBanStatus,
  parseCardQuery,
  parseDateOption,
  parseStatOption,
  withinDates,
  withinStat,
} from '../../src/cards/search-query.js';

describe('parseCardQuery', () => {
  it('reads the documented example', () => {
    expect(parseCardQuery('atk>=2500 race:dragon "destroy all"')).toEqual({
      ok: true,
      query: { bounds: { atk: { min: 2500, max: 99_999 } }, race: 'Dragon', terms: ['destroy all'] },
    });
  });

  it('reads every filter the options have', () => {
    expect(parseCardQuery('def:? link:1-3 scale<4 banned:semi released<2010-01-01 Blue')).toEqual({
      ok: true,
      query: {
        bounds: { def: '?', link: { min: 1, max: 3 }, scale: { min: 0, max: 3 } },
        banned: 'semi-limited',
        released: { before: '2010-01-01' },
        terms: ['blue'],
      },
    });
  });

  it('names what it did not understand', () => {
    expect(parseCardQuery('atk>=')).toEqual({ ok: false, problem: { kind: 'bad-bound', token: 'atk>=' } });
    expect(parseCardQuery('atk>?')).toEqual({ ok: false, problem: { kind: 'bad-bound', token: 'atk>?' } });
    expect(parseCardQuery('def:3000-1000')).toEqual({ ok: false, problem: { kind: 'bad-bound', token: 'def:3000-1000' } });
    expect(parseCardQuery('race:nonsense')).toEqual({ ok: false, problem: { kind: 'unknown-race', value: 'nonsense' } });
    expect(parseCardQuery('banned:sometimes')).toEqual({ ok: false, problem: { kind: 'unknown-status', value: 'sometimes' } });
    expect(parseCardQuery('released>=2024-02-30')).toEqual({ ok: false, problem: { kind: 'bad-date', token: 'released>=2024-02-30' } });
    expect(parseCardQuery('"destroy all')).toEqual({ ok: false, problem: { kind: 'unbalanced-quote' } });
  });

  it('finds races by the names a lookup gives (the user’s language)', () => {
    const german = (name: string) => (name.toLowerCase() === 'drache' ? 'Dragon' : undefined);
    expect(parseCardQuery('race:Drache', german)).toEqual({ ok: true, query: { bounds: {}, race: 'Dragon', terms: [] } });
  });

  it('never throws and always answers a parse or a problem', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = parseCardQuery(input);
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) for (const term of result.query.terms) expect(term).toBe(term.toLowerCase());
      }),
    );
  });

  it('reads any well-formed bound back as the range it means', () => {
    const field = fc.constantFrom('atk', 'def', 'link', 'scale');
    const op = fc.constantFrom('=', ':', '<', '<=', '>', '>=');
    fc.assert(
      fc.property(field, op, fc.integer({ min: 1, max: 99_998 }), fc.integer({ min: 0, max: 99_999 }), (name, comparison, value, stat) => {
        const result = parseCardQuery(`${name.toUpperCase()}${comparison}${value}`);
        expect(result.ok).toBe(true);
        const bound = result.ok ? result.query.bounds[name as 'atk'] : undefined;
        const expected = { '=': stat === value, ':': stat === value, '<': stat < value, '<=': stat <= value, '>': stat > value, '>=': stat >= value }[comparison];
        expect(withinStat(stat, bound!)).toBe(expected);
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
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), fc.array(word, { maxLength: 2 }), (words, phrase) => {
        const quoted = phrase.length === 0 ? '' : ` "${phrase.join(' ').toUpperCase()}"`;
        const result = parseCardQuery(words.map((w) => w.toUpperCase()).join(' ') + quoted);
        expect(result).toEqual({ ok: true, query: { bounds: {}, terms: phrase.length === 0 ? words : [...words, phrase.join(' ')] } });
      }),
    );
  });
});

describe('the options’ values', () => {
  it('reads stat bounds as the option describes them', () => {
    expect(parseStatOption('2500')).toEqual({ min: 2500, max: 2500 });
    expect(parseStatOption('>=2500')).toEqual({ min: 2500, max: 99_999 });
    expect(parseStatOption('1000-2000')).toEqual({ min: 1000, max: 2000 });
    expect(parseStatOption(' ? ')).toBe('?');
    for (const bad of ['', '>=', 'abc', '-5', '100000', '1000-', '<0', '>?']) expect(parseStatOption(bad)).toBeNull();
  });

  it('reads release dates as the option describes them', () => {
    expect(parseDateOption('<2010-01-01')).toEqual({ before: '2010-01-01' });
    expect(parseDateOption('>=2024')).toEqual({ from: '2024-01-01' });
    expect(parseDateOption('2019-02')).toEqual({ from: '2019-02-01', before: '2019-03-01' });
    expect(parseDateOption('<=2023-12-31')).toEqual({ before: '2024-01-01' });
    for (const bad of ['', 'yesterday', '2024-13', '2023-02-29', '24', '>=']) expect(parseDateOption(bad)).toBeNull();
  });

  it('never throws on any option value, line breaks and lone surrogates included', () => {
    expect(parseStatOption('!\r\n')).toBeNull();
    expect(parseDateOption('>=\u2028')).toBeNull();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\n', '\r\n', '\u2028', '\u2029')), (input) => {
        parseStatOption(input);
        parseDateOption(input);
        parseBanStatus(input);
      }),
    );
  });

  it('reads ban statuses however they are written', () => {
    expect(parseBanStatus('Semi-Limited')).toBe('semi-limited');
    expect(parseBanStatus('semi limited')).toBe('semi-limited');
    expect(parseBanStatus('FORBIDDEN')).toBe('forbidden');
    expect(parseBanStatus('banned')).toBeUndefined();
  });
});

describe('withinStat and withinDates', () => {
  it('compare as the bound says and reject a missing value', () => {
    expect(withinStat(2500, { min: 2500, max: 99_999 })).toBe(true);
    expect(withinStat('?', { min: 0, max: 99_999 })).toBe(false);
    expect(withinStat('?', '?')).toBe(true);
    expect(withinStat(0, '?')).toBe(false);
    expect(withinStat(undefined, { min: 0, max: 1 })).toBe(false);
    expect(withinDates('2009-12-31', { before: '2010-01-01' })).toBe(true);
    expect(withinDates('2010-01-01', { before: '2010-01-01' })).toBe(false);
    expect(withinDates(undefined, { from: '2000-01-01' })).toBe(false);
  });
});
