import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_ATTRIBUTES, CARD_TYPE_FILTERS, FORMAT_FILTERS, MAX_LEVEL } from '../../src/cards/search-filters.js';
import { parseSearchFilters } from '../../src/cards/search-options.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

function options(values: { type?: string | null; attribute?: string | null; format?: string | null; level?: number | null }) {
  return { getString: (name: string) => (values as Record<string, string | null | undefined>)[name] ?? null, getInteger: () => values.level ?? null };
}

describe('parseSearchFilters', () => {
  it('reads every offered value, formats in any spelling, and levels 0–13', () => {
    expect(parseSearchFilters(options({ type: 'xyz', attribute: 'dark', format: 'Master Duel', level: 4 }))).toEqual({
      ok: true,
      filters: { type: 'xyz', attribute: 'DARK', format: 'masterduel', level: 4 },
    });
    expect(parseSearchFilters(options({ level: 14 }))).toEqual({ ok: false, unknown: { option: 'level', value: '14' } });
    expect(parseSearchFilters(options({ format: 'rush' }))).toEqual({ ok: false, unknown: { option: 'format', value: 'rush' } });
  });

  it('never throws, and keeps only values it offers, whatever a client sends', () => {
    const anyString = fc.option(fc.oneof(fc.string(), fc.constantFrom(...Object.keys(CARD_TYPE_FILTERS), ...CARD_ATTRIBUTES, ...Object.keys(FORMAT_FILTERS), '__proto__', 'constructor')));
    fc.assert(
      fc.property(anyString, anyString, anyString, fc.option(fc.oneof(fc.integer(), fc.double())), (type, attribute, format, level) => {
        const parsed = parseSearchFilters(options({ type, attribute, format, level }));
        if (!parsed.ok) return;
        const { filters } = parsed;
        if (filters.type !== undefined) expect(Object.hasOwn(CARD_TYPE_FILTERS, filters.type)).toBe(true);
        if (filters.attribute !== undefined) expect(CARD_ATTRIBUTES).toContain(filters.attribute);
        if (filters.format !== undefined) expect(Object.hasOwn(FORMAT_FILTERS, filters.format)).toBe(true);
        if (filters.level !== undefined) expect(Number.isInteger(filters.level) && filters.level >= 0 && filters.level <= MAX_LEVEL).toBe(true);
      }),
      { numRuns: fuzzRuns(400) },
    );
  });
});
