import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_LENGTH } from '../../src/wallpaper/search.js';
import {
  activityTime,
  CUSTOM_ID_MAX_LENGTH,
  decodePagerId,
  encodePagerId,
  LongQueryStore,
  MAX_PAGE_SIZE,
  MAX_RESULT_INDEX,
  MIN_INLINE_QUERY_LENGTH,
  queryRefFor,
  type PagerSearch,
  type PagerState,
} from '../../src/wallpaper/pager-state.js';
import { MAX_DIMENSION } from '../../src/wallpaper/search.js';
import { parseTagListingText, tagListingText } from '../../src/wallpaper/listings.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { AI_ART_CHOICES, PURITY_SCOPES, RATIO_CHOICES, SORTING_CHOICES, TOPLIST_RANGES, WALLHAVEN_COLOURS } from '../../src/wallpaper/search.js';
import { anyCodePoints } from '../helpers/hostile-input.js';

const ACTIVITY_EPOCH_MS = Date.UTC(2024, 0, 1);

/** Queries as users type them: any text up to 200 characters, including dots, `=`, `#`, emoji and non-Latin scripts. */
const queryText = fc
  .string({
    unit: fc.oneof(fc.constantFrom('.', '=', '#', ' ', '+', '-', '@', ':', '😀', 'é', '字'), anyCodePoints({ minLength: 1, maxLength: 1 })),
    minLength: 1,
    maxLength: MAX_QUERY_LENGTH,
  })
  .filter((text) => text.trim() !== '' && text.length <= MAX_QUERY_LENGTH);

const searchWithoutQuery: fc.Arbitrary<Omit<PagerSearch, 'query'>> = fc
  .record(
    {
      categories: fc
        .record({ general: fc.boolean(), anime: fc.boolean(), people: fc.boolean() })
        .filter((categories) => categories.general || categories.anime || categories.people),
      purity: fc.constantFrom(...PURITY_SCOPES),
      sorting: fc.constantFrom(...SORTING_CHOICES),
      ratio: fc.constantFrom(...RATIO_CHOICES),
      atleast: fc.record({ width: fc.integer({ min: 1, max: MAX_DIMENSION }), height: fc.integer({ min: 1, max: MAX_DIMENSION }) }),
      seed: fc.stringMatching(/^[a-zA-Z0-9]{6}$/),
      topRange: fc.constantFrom(...TOPLIST_RANGES),
      colour: fc.constantFrom(...WALLHAVEN_COLOURS),
      aiArt: fc.constantFrom(...AI_ART_CHOICES),
    },
    { requiredKeys: ['categories', 'purity', 'sorting'] },
  )
  // A toplist period only goes with the toplist sorting.
  .map(({ topRange, ...search }) => (search.sorting === 'toplist' && topRange !== undefined ? { ...search, topRange } : search));

const stateFields = fc.record({
  action: fc.constantFrom('prev' as const, 'next' as const, 'grid' as const, 'grid-prev' as const, 'grid-next' as const, 'pick' as const),
  index: fc.integer({ min: 0, max: MAX_RESULT_INDEX }),
  pageSize: fc.oneof(fc.constant(24), fc.integer({ min: 1, max: MAX_PAGE_SIZE })),
  // Whole seconds from 2024 to past 2090.
  lastActivityMs: fc.integer({ min: 0, max: 2_100_000_000 }).map((seconds) => ACTIVITY_EPOCH_MS + seconds * 1000),
});

describe('pager state in a custom_id', () => {
  it('round-trips every state, and every id fits in 100 characters, whatever the query', () => {
    const store = new LongQueryStore();
    fc.assert(
      fc.property(searchWithoutQuery, stateFields, fc.option(queryText, { nil: undefined }), (search, fields, text) => {
        const state: PagerState = { ...fields, search: { ...search, query: queryRefFor(text, search, store) } };
        const id = encodePagerId(state);
        expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX_LENGTH);
        expect(id.startsWith('wp:')).toBe(true);
        expect(decodePagerId(id)).toEqual(state);
        // Whichever way the query travelled, the text comes back.
        const ref = state.search.query;
        const recovered = ref.kind === 'none' ? undefined : ref.kind === 'text' ? ref.text : store.recall(ref.key);
        expect(recovered).toBe(text);
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });

  it('round-trips a tag listing, whose text is its tag, and refuses one without a tag', () => {
    const search: Omit<PagerSearch, 'query'> = { categories: { general: true, anime: true, people: true }, purity: 'sfw+sketchy', sorting: 'date_added', listing: 'tag' };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), fc.option(fc.string({ minLength: 1, maxLength: 60 }), { nil: undefined }), stateFields, (id, category, fields) => {
        const text = tagListingText({ id, ...(category ? { category } : {}) });
        const state: PagerState = { ...fields, search: { ...search, query: queryRefFor(text, search, new LongQueryStore()) } };
        const decoded = decodePagerId(encodePagerId(state));
        expect(decoded).toEqual(state);
        if (decoded!.search.query.kind === 'text') expect(parseTagListingText(decoded!.search.query.text)).toEqual({ id, ...(category ? { category } : {}) });
      }),
      { numRuns: fuzzRuns(1_000) },
    );
    expect(() => encodePagerId({ action: 'next', search: { ...search, query: { kind: 'text', text: 'nature' } }, index: 0, pageSize: 24, lastActivityMs: ACTIVITY_EPOCH_MS })).toThrow(/tag/);
  });

  it('keeps queries inline (restart-proof) up to the guaranteed length, whatever the other fields', () => {
    const store = new LongQueryStore();
    expect(MIN_INLINE_QUERY_LENGTH).toBeGreaterThanOrEqual(60);
    fc.assert(
      fc.property(searchWithoutQuery, fc.string({ minLength: 1, maxLength: MIN_INLINE_QUERY_LENGTH }).filter((text) => text.trim() !== ''), (search, text) => {
        expect(queryRefFor(text, search, store)).toEqual({ kind: 'text', text });
      }),
    );
  });

  it('stores a query too long for the id under a stable key', () => {
    const store = new LongQueryStore();
    const search: Omit<PagerSearch, 'query'> = { categories: { general: true, anime: false, people: false }, purity: 'sfw', sorting: 'relevance' };
    const long = 'mountains '.repeat(15).trim();
    const first = queryRefFor(long, search, store);
    expect(first).toEqual({ kind: 'stored', key: expect.stringMatching(/^[A-Za-z0-9_-]{10}$/) });
    expect(queryRefFor(long, search, store)).toEqual(first);
    expect(store.recall((first as { key: string }).key)).toBe(long);
    // A fresh process (a restart) has no such key: the pager reports it instead of guessing.
    expect(new LongQueryStore().recall((first as { key: string }).key)).toBeUndefined();
  });

  it('encodes the worst case in 100 characters exactly as documented', () => {
    const state: PagerState = {
      action: 'next',
      search: {
        categories: { general: true, anime: true, people: true },
        purity: 'nsfw',
        sorting: 'random',
        ratio: 'portrait',
        atleast: { width: MAX_DIMENSION, height: MAX_DIMENSION },
        seed: 'ZZZZZZ',
        query: { kind: 'text', text: 'q'.repeat(MIN_INLINE_QUERY_LENGTH) },
      },
      index: MAX_RESULT_INDEX,
      pageSize: MAX_PAGE_SIZE,
      lastActivityMs: activityTime(ACTIVITY_EPOCH_MS + (36 ** 6 - 1) * 1000),
    };
    expect(encodePagerId(state)).toHaveLength(CUSTOM_ID_MAX_LENGTH);
    expect(() => encodePagerId({ ...state, search: { ...state.search, query: { kind: 'text', text: 'q'.repeat(MIN_INLINE_QUERY_LENGTH + 1) } } })).toThrow(/over Discord's 100/);
  });

  it('encodes a typical search compactly and readably', () => {
    const id = encodePagerId({
      action: 'prev',
      search: { categories: { general: true, anime: true, people: true }, purity: 'sfw', sorting: 'relevance', query: { kind: 'text', text: 'penguins' } },
      index: 30,
      pageSize: 24,
      lastActivityMs: Date.UTC(2026, 10, 22, 12, 0, 0),
    });
    expect(id).toMatch(/^wp:b[0-9a-z]{4}u\.\.\.\.[0-9a-z]+\.=penguins$/);
    expect(id.length).toBeLessThan(30);
  });

  it('refuses states it cannot encode, naming the problem', () => {
    const valid: PagerState = {
      action: 'next',
      search: { categories: { general: true, anime: false, people: false }, purity: 'sfw', sorting: 'views', query: { kind: 'none' } },
      index: 0,
      pageSize: 24,
      lastActivityMs: ACTIVITY_EPOCH_MS,
    };
    expect(() => encodePagerId({ ...valid, index: -1 })).toThrow(/index/);
    expect(() => encodePagerId({ ...valid, index: MAX_RESULT_INDEX + 1 })).toThrow(/index/);
    expect(() => encodePagerId({ ...valid, lastActivityMs: ACTIVITY_EPOCH_MS + 500 })).toThrow(/activity/);
    expect(() => encodePagerId({ ...valid, search: { ...valid.search, seed: 'abc' } })).toThrow(/seed/);
    expect(() => encodePagerId({ ...valid, search: { ...valid.search, categories: { general: false, anime: false, people: false } } })).toThrow(/category/);
    expect(() => encodePagerId({ ...valid, search: { ...valid.search, atleast: { width: 0, height: 10 } } })).toThrow(/atleast/);
    expect(() => encodePagerId({ ...valid, search: { ...valid.search, topRange: '1w' } })).toThrow(/toplist/);
  });

  it('never throws on arbitrary custom_ids, and accepts only ids it produced', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 120 }), fc.string({ maxLength: 90 }).map((rest) => `wp:${rest}`)), (id) => {
        const state = decodePagerId(id);
        if (state !== null) expect(encodePagerId(state)).toBe(id);
      }),
      { numRuns: fuzzRuns(5_000) },
    );
    for (const id of ['wp:', 'wp:f0000', 'wp:f00000.', 'wp:fzzzz0....0.', 'wp:f00000.o...0.', 'wp:f000000....0.', 'wp:f00000....0.x', 'wp:f00000....0.=', 'card:f00000....0.']) {
      expect(decodePagerId(id)).toBeNull();
    }
    expect(decodePagerId('wp:f00000....0.')).not.toBeNull();
    // The first format's ids (2 filter digits, `p`/`n`) are refused, never misread.
    expect(decodePagerId('wp:n00zzz....0.')).toBeNull();
  });

  it('rounds activity times down to whole seconds', () => {
    expect(activityTime(Date.UTC(2026, 0, 1, 0, 0, 0, 999))).toBe(Date.UTC(2026, 0, 1));
  });
});

describe('LongQueryStore', () => {
  it('validates its options up front', () => {
    expect(() => new LongQueryStore({ max: 0 })).toThrow(/"max"/);
    expect(() => new LongQueryStore({ ttlMs: -1 })).toThrow(/"ttlMs"/);
  });

  it('forgets the least recently used query past its bound', () => {
    const store = new LongQueryStore({ max: 2 });
    const a = store.remember('a'.repeat(150));
    const b = store.remember('b'.repeat(150));
    store.recall(a);
    store.remember('c'.repeat(150));
    expect(store.recall(a)).toBe('a'.repeat(150));
    expect(store.recall(b)).toBeUndefined();
  });
});
