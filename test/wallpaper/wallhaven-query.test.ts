import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/interaction/upstream-error.js';
import { buildSearchQuery, isCacheableSearch, wallpaperDetailPath } from '../../src/wallpaper/wallhaven-query.js';
import type { WallpaperSearch } from '../../src/wallpaper/search.js';

const ALL_CATEGORIES = { general: true, anime: true, people: true };
const SFW = { sfw: true, sketchy: false, nsfw: false };
const BASIC_SEARCH: WallpaperSearch = { categories: ALL_CATEGORIES, purity: SFW, sorting: 'date_added', page: 1 };

describe('wallpaperDetailPath', () => {
  it('builds the detail path only from an id', () => {
    expect(wallpaperDetailPath('6dk8yq')).toBe('/api/v1/w/6dk8yq');
    for (const bad of ['..', '../settings', '%2e%2e', 'https://evil.example/', 'ABCDEF']) {
      expect(() => wallpaperDetailPath(bad), bad).toThrow(UpstreamError);
    }
  });
});

describe('buildSearchQuery', () => {
  it('puts categories first, q late and page last, so the raw query never starts with q= or page=', () => {
    const query = buildSearchQuery(
      { ...BASIC_SEARCH, query: 'like:6dk8yq', sorting: 'toplist', topRange: '1w', order: 'asc', atleast: { width: 1920, height: 1080 }, ratios: ['16x9'], page: 2 },
      { apiKeyConfigured: false },
    );
    expect(Object.keys(query)).toEqual(['categories', 'purity', 'sorting', 'order', 'topRange', 'atleast', 'ratios', 'q', 'page']);
    expect(new URLSearchParams(query).toString()).toBe('categories=111&purity=100&sorting=toplist&order=asc&topRange=1w&atleast=1920x1080&ratios=16x9&q=like%3A6dk8yq&page=2');
  });

  it('gives equal searches equal queries (the cache key)', () => {
    const a = buildSearchQuery({ ...BASIC_SEARCH, ratios: ['21x9', '16x9', '21x9'], order: 'desc', query: '  nature ' }, { apiKeyConfigured: false });
    const b = buildSearchQuery({ ...BASIC_SEARCH, ratios: ['16x9', '21x9'], query: 'nature' }, { apiKeyConfigured: false });
    expect(a).toEqual(b);
  });

  it('encodes the purity bits, and refuses the NSFW bit without a key instead of sending it', () => {
    expect(buildSearchQuery({ ...BASIC_SEARCH, purity: { sfw: true, sketchy: true, nsfw: true } }, { apiKeyConfigured: true }).purity).toBe('111');
    expect(() => buildSearchQuery({ ...BASIC_SEARCH, purity: { sfw: true, sketchy: false, nsfw: true } }, { apiKeyConfigured: false })).toThrow(
      expect.objectContaining({ kind: 'unauthorized' }),
    );
  });

  it.each<[string, Partial<WallpaperSearch>]>([
    ['categories', { categories: { general: false, anime: false, people: false } }],
    ['purity', { purity: { sfw: false, sketchy: false, nsfw: false } }],
    ['query', { query: 'x'.repeat(201) }],
    ['query', { query: 'cats\u0000' }],
    ['ratios', { ratios: ['16:9'] }],
    ['topRange', { topRange: '1w' }],
    ['seed', { seed: 'abc123' }],
    ['seed', { sorting: 'random', seed: 'abc' }],
    ['page', { page: 0 }],
    ['page', { page: 1.5 }],
    ['atleast', { atleast: { width: 0, height: 1080 } }],
    ['sorting', { sorting: 'hot' as WallpaperSearch['sorting'] }],
  ])('refuses a bad %s, naming it', (name, change) => {
    expect(() => buildSearchQuery({ ...BASIC_SEARCH, ...change }, { apiKeyConfigured: false })).toThrow(
      expect.objectContaining({ kind: 'invalid_input', message: expect.stringMatching(new RegExp(`^${name}:`)) }),
    );
  });

  it('treats only a seeded random page as cacheable', () => {
    expect(isCacheableSearch(buildSearchQuery(BASIC_SEARCH, { apiKeyConfigured: false }))).toBe(true);
    expect(isCacheableSearch(buildSearchQuery({ ...BASIC_SEARCH, sorting: 'random' }, { apiKeyConfigured: false }))).toBe(false);
    expect(isCacheableSearch(buildSearchQuery({ ...BASIC_SEARCH, sorting: 'random', seed: 'Ab12Cd' }, { apiKeyConfigured: false }))).toBe(true);
  });
});
