import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { CATALOGUES } from '../../src/i18n/messages.js';
import { WALLHAVEN_COLOURS } from '../../src/wallpaper/search.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import {
  colourSuggestions,
  parseColour,
  parseToplist,
  readSearchOptions,
  parseCategories,
  parsePurity,
  parseQuery,
  parseRatio,
  parseResolution,
  parseSorting,
  resolutionSuggestions,
} from '../../src/wallpaper/search-options.js';

describe('/wallpaper option parsing', () => {
  it('accepts resolutions written in the usual ways and refuses anything else with an example', () => {
    for (const text of ['1920x1080', '1920X1080', '1920×1080', ' 1920 x 1080 ']) {
      expect(parseResolution(text)).toEqual({ ok: true, value: { width: 1920, height: 1080 } });
    }
    expect(parseResolution(null)).toEqual({ ok: true, value: undefined });
    for (const text of ['1920', '1920x', 'x1080', '1920*1080', '19.2x10', '-1x5', 'big', '0x1080', '20001x100', '1920x1080x3']) {
      const result = parseResolution(text);
      expect(result.ok, text).toBe(false);
      expect(!result.ok && result.reason).toMatch(/`1920x1080`/);
    }
  });

  it('bounds queries at 200 characters and refuses control characters', () => {
    expect(parseQuery('  penguins ')).toEqual({ ok: true, value: 'penguins' });
    expect(parseQuery('   ')).toEqual({ ok: true, value: undefined });
    expect(parseQuery('a'.repeat(200))).toEqual({ ok: true, value: 'a'.repeat(200) });
    expect(parseQuery('a'.repeat(201))).toEqual({ ok: false, reason: 'That search is 201 characters long; Wallhaven takes at most 200.' });
    expect(parseQuery('cats\ndogs').ok).toBe(false);
  });

  it('reads category combinations, defaulting to all', () => {
    expect(parseCategories(null)).toEqual({ ok: true, value: { general: true, anime: true, people: true } });
    expect(parseCategories('anime+people')).toEqual({ ok: true, value: { general: false, anime: true, people: true } });
    expect(parseCategories('General')).toEqual({ ok: true, value: { general: true, anime: false, people: false } });
    expect(parseCategories('cars').ok).toBe(false);
  });

  it('reads purity (default sfw), ratio and sorting, refusing unknown values', () => {
    expect(parsePurity(null)).toEqual({ ok: true, value: 'sfw' });
    expect(parsePurity('nsfw')).toEqual({ ok: true, value: 'nsfw' });
    expect(parsePurity('spicy').ok).toBe(false);
    expect(parseRatio('16:9')).toEqual({ ok: true, value: '16x9' });
    expect(parseRatio('portrait')).toEqual({ ok: true, value: 'portrait' });
    expect(parseRatio('7x3')).toEqual({ ok: false, reason: 'The ratio must be one of 16x9, 16x10, 21x9, 9x16, 4x3, landscape, portrait.' });
    expect(parseSorting(null, true)).toEqual({ ok: true, value: 'relevance' });
    expect(parseSorting(null, false)).toEqual({ ok: true, value: 'date_added' });
    expect(parseSorting('hot', false).ok).toBe(false);
  });

  it('suggests common resolutions, with the typed size first when it is valid and not common', () => {
    expect(resolutionSuggestions('').length).toBeGreaterThan(5);
    expect(resolutionSuggestions('19').map((choice) => choice.value)).toEqual(['1920x1080', '1920x1200']);
    expect(resolutionSuggestions('4k')).toEqual([{ name: 'at least 3840x2160 (4K UHD)', value: '3840x2160' }]);
    expect(resolutionSuggestions('1000x1000')[0]).toEqual({ name: 'at least 1000x1000', value: '1000x1000' });
    expect(resolutionSuggestions('1920 x 1080').map((choice) => choice.value)).toEqual(['1920x1080']);
    for (const choice of resolutionSuggestions('')) expect(choice.name.length).toBeLessThanOrEqual(100);
  });

  it('reads a toplist period as implying the toplist sorting, and refuses it with another sorting', () => {
    const options = (values: Record<string, string>) => ({ getString: (name: string) => values[name] ?? null });
    const week = readSearchOptions(options({ toplist: '1w' }));
    expect(week.ok && week.value.search).toMatchObject({ sorting: 'toplist', topRange: '1w' });
    expect(readSearchOptions(options({ toplist: '1M', sorting: 'toplist' })).ok).toBe(true);
    const contradiction = readSearchOptions(options({ toplist: '1y', sorting: 'views' }));
    expect(!contradiction.ok && typeof contradiction.reason === 'function' && contradiction.reason(en)).toBe(en.wallpaper.toplistWithOtherSorting);
    expect(parseToplist('2w').ok).toBe(false);
    const colour = readSearchOptions(options({ color: 'cc0000' }));
    expect(colour.ok && colour.value.search.colour).toBe('cc0000');
  });

  it('reads a colour as the autocomplete sends it or by its name in any language, and nothing else', () => {
    expect(parseColour('66cccc')).toEqual({ ok: true, value: '66cccc' });
    expect(parseColour('#CC0000')).toEqual({ ok: true, value: 'cc0000' });
    expect(parseColour('red')).toEqual({ ok: true, value: 'cc0000' });
    expect(parseColour('Gris clair')).toEqual({ ok: true, value: 'cccccc' });
    expect(parseColour('weiss')).toEqual({ ok: false, reason: expect.any(Function) });
    expect(parseColour('Weiß')).toEqual({ ok: true, value: 'ffffff' });
    expect(parseColour(null)).toEqual({ ok: true, value: undefined });
    // Whatever is typed: a palette colour or a refusal, never anything else reaching the upstream.
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (typed) => {
        const result = parseColour(typed);
        if (result.ok && result.value !== undefined) expect(WALLHAVEN_COLOURS).toContain(result.value);
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });

  it('suggests palette colours by name in the user’s language or by hex, at most 25', () => {
    expect(colourSuggestions('', en)).toHaveLength(25);
    expect(colourSuggestions('rouge', CATALOGUES.fr).map((choice) => choice.value)).toEqual(['990000', 'cc0000', 'cc3333']);
    expect(colourSuggestions('grün', CATALOGUES.de)[0]).toEqual({ name: 'Hellgrün (#77cc33)', value: '77cc33' });
    expect(colourSuggestions('ffff', en).map((choice) => choice.value)).toEqual(['ffff00', 'ffffff']);
    for (const messages of Object.values(CATALOGUES)) {
      // Every colour has a distinct name in every language, so no two suggestions read alike.
      expect(new Set(WALLHAVEN_COLOURS.map((hex) => messages.wallpaper.colourNames[hex])).size).toBe(WALLHAVEN_COLOURS.length);
    }
  });
});
