import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { parseCollectionListingText } from './collections.js';
import { LISTINGS, parseTagListingText, type Listing } from './listings.js';
import {
  AI_ART_CHOICES,
  MAX_DIMENSION,
  PURITY_LEVELS,
  PURITY_SCOPES,
  RATIO_CHOICES,
  SEED_PATTERN,
  SORTING_CHOICES,
  TOPLIST_RANGES,
  WALLHAVEN_COLOURS,
  highestPurity,
  includesLowerPurities,
  purityUpTo,
  type AiArtChoice,
  type CategoryFilter,
  type PurityScope,
  type RatioChoice,
  type ToplistRange,
  type WallhavenColour,
  type WallpaperSorting,
} from './search.js';

/**
 * The state of a `/wallpaper search` pager, carried in its buttons' custom_ids so that paging needs
 * no server-side session and survives a restart. Discord caps a custom_id at 100 characters.
 *
 * Format (every number in base 36, lowercase):
 *
 *     wp:<action><filters:4><index>.<pageSize>.<atleast>.<seed>.<activity>.<query>
 *
 * - `action`   `b` (◀) or `f` (▶): both buttons carry the same state, so this also keeps their ids
 *              unique. With the `ai-art` option, `c`/`g` (include) or `d`/`h` (exclude): the filters'
 *              4 digits have no room left for it, and a letter keeps every earlier id as it was. The
 *              grid of the same listing (wallpaper-grid.ts) uses capitals: `J` opens a grid on the
 *              result shown, `B`/`F` are the grid's ◀ ▶ by ten, `P` its menu opening one (`K C G Q`
 *              with include, `L D H R` with exclude). (The first format, with 2 filter digits, used
 *              `p` and `n`: those ids are refused rather than misread; they had expired 10 minutes
 *              after their last use anyway.)
 * - `filters`  categories (3 bits), purity level, sorting, ratio, toplist period, colour, whether
 *              the purities below the level are asked for too, and the kind of listing (a search, a
 *              tag, a collection), packed into one number, 4 digits.
 * - `index`    the absolute, 0-based index of the result on show.
 * - `pageSize` Wallhaven's `per_page`; empty for the usual 24 (an account's setting may change it).
 * - `atleast`  minimum width and height, 3 digits each; empty without one.
 * - `seed`     the random sorting's seed (6 letters and digits), so pages keep one order; empty otherwise.
 * - `activity` when the pager was last used, in seconds since 2024-01-01 (buttons expire after idling).
 * - `query`    the listing's text (a search's query; a tag's `<id>:<category>`, see listings.ts):
 *              empty without a query; `=` and the text itself when the whole id fits in 100 characters;
 *              otherwise `#` and a 10-character key into a bounded in-process store (`LongQueryStore`).
 *
 * The query is last, so it needs no escaping. Its worst case leaves 64 characters for an inline query
 * (`MIN_INLINE_QUERY_LENGTH`); longer queries (up to 200) travel by key, and those pagers stop working
 * after a restart or once the store forgets the key: the buttons then say so. The invoking user is
 * not stored: the message's interaction metadata already names them (`ctx.message.ownerId`).
 */

export const PAGER_PREFIX = 'wp';
export const CUSTOM_ID_MAX_LENGTH = 100;
/** Wallhaven's usual page size. */
export const DEFAULT_PAGE_SIZE = 24;
/** Wallhaven's pages are "not actually infinite"; nothing pages past this many results. */
export const MAX_RESULT_INDEX = 10_000 * DEFAULT_PAGE_SIZE - 1;
/** The largest page size a custom_id carries (2 digits); Wallhaven's account setting goes up to 64. */
export const MAX_PAGE_SIZE = 99;
const ACTIVITY_EPOCH_MS = Date.UTC(2024, 0, 1);
/** 36^6 − 1 s: about 69 years after the epoch, and at most 6 characters. */
const MAX_ACTIVITY_SECONDS = 36 ** 6 - 1;
const STORED_KEY_LENGTH = 10;

export type PagerAction = 'prev' | 'next';
/** A grid's actions: open one on the pager's result, page it ◀ ▶ by ten, open one of its wallpapers (`pick`). */
export type GridAction = 'grid' | 'grid-prev' | 'grid-next' | 'pick';
const ACTIONS = ['prev', 'next', 'grid', 'grid-prev', 'grid-next', 'pick'] as const satisfies readonly (PagerAction | GridAction)[];

export function isGridAction(action: PagerAction | GridAction): action is GridAction {
  return action !== 'prev' && action !== 'next';
}

export type QueryRef = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'stored'; key: string };

export interface PagerSearch {
  categories: CategoryFilter;
  purity: PurityScope;
  sorting: WallpaperSorting;
  ratio?: RatioChoice;
  atleast?: { width: number; height: number };
  seed?: string;
  /** Only with the toplist sorting. */
  topRange?: ToplistRange;
  colour?: WallhavenColour;
  aiArt?: AiArtChoice;
  /** What is listed: a search when absent (its query is Wallhaven's `q`), else a tag (see listings.ts). */
  listing?: Exclude<Listing, 'search'>;
  query: QueryRef;
}

export interface PagerState {
  action: PagerAction | GridAction;
  search: PagerSearch;
  index: number;
  pageSize: number;
  /** Epoch ms, kept at whole-second precision. */
  lastActivityMs: number;
}

const STORED_KEY_PATTERN = /^[A-Za-z0-9_-]{10}$/;
const FILTER_DIGITS = 4;

function base36(value: number, width = 0): string {
  return value.toString(36).padStart(width, '0');
}

/** Strict base-36 parse: digits only, no sign, no leading zeros unless fixed `width`. */
function parseBase36(text: string, width?: number): number | undefined {
  if (width === undefined ? !/^(0|[1-9a-z][0-9a-z]*)$/.test(text) : !new RegExp(`^[0-9a-z]{${width}}$`).test(text)) return undefined;
  const value = parseInt(text, 36);
  return Number.isSafeInteger(value) ? value : undefined;
}

type Filters = Pick<PagerSearch, 'categories' | 'purity' | 'sorting' | 'ratio' | 'topRange' | 'colour' | 'listing'>;

/** An optional choice as a digit: 0 when absent, else its index in `values` plus one. */
function optionalDigit<T>(values: readonly T[], value: T | undefined): number {
  return value === undefined ? 0 : values.indexOf(value) + 1;
}

/**
 * The filters as digits of a mixed-radix number, least significant first: each entry's radix and
 * its digit. Appending an entry keeps every earlier state's number (its new digit is 0).
 */
function filterDigits(search: Filters): [radix: number, digit: number][] {
  const { general, anime, people } = search.categories;
  return [
    [RATIO_CHOICES.length + 1, optionalDigit(RATIO_CHOICES, search.ratio)],
    [SORTING_CHOICES.length, SORTING_CHOICES.indexOf(search.sorting)],
    [PURITY_LEVELS.length, PURITY_LEVELS.indexOf(highestPurity(search.purity))],
    [7, (general ? 4 : 0) + (anime ? 2 : 0) + (people ? 1 : 0) - 1],
    [TOPLIST_RANGES.length + 1, optionalDigit(TOPLIST_RANGES, search.topRange)],
    [WALLHAVEN_COLOURS.length + 1, optionalDigit(WALLHAVEN_COLOURS, search.colour)],
    [2, includesLowerPurities(search.purity) ? 1 : 0],
    [LISTINGS.length, LISTINGS.indexOf(search.listing ?? 'search')],
  ];
}

const FILTER_COMBINATIONS = filterDigits({ categories: { general: true, anime: true, people: true }, purity: 'sfw', sorting: 'relevance' }).reduce((product, [radix]) => product * radix, 1);
if (FILTER_COMBINATIONS > 36 ** FILTER_DIGITS) throw new Error(`pager filters need more than ${FILTER_DIGITS} digits`);

function packFilters(search: Filters): number {
  return filterDigits(search).reduceRight((packed, [radix, digit]) => packed * radix + digit, 0);
}

function unpackFilters(packed: number): Filters | undefined {
  if (packed >= FILTER_COMBINATIONS) return undefined;
  const radixes = filterDigits({ categories: { general: true, anime: true, people: true }, purity: 'sfw', sorting: 'relevance' }).map(([radix]) => radix);
  const [ratio, sorting, purity, categoryBits, topRange, colour, andBelow, listing] = radixes.map((radix) => {
    const digit = packed % radix;
    packed = Math.floor(packed / radix);
    return digit;
  }) as [number, number, number, number, number, number, number, number];
  const highest = PURITY_LEVELS[purity]!;
  // SFW has nothing below it: one state, one id.
  if (andBelow === 1 && highest === 'sfw') return undefined;
  const bits = categoryBits + 1;
  const filters: Filters = {
    categories: { general: (bits & 4) !== 0, anime: (bits & 2) !== 0, people: (bits & 1) !== 0 },
    purity: andBelow === 1 ? purityUpTo(highest) : highest,
    sorting: SORTING_CHOICES[sorting]!,
  };
  if (ratio > 0) filters.ratio = RATIO_CHOICES[ratio - 1]!;
  if (topRange > 0) filters.topRange = TOPLIST_RANGES[topRange - 1]!;
  if (colour > 0) filters.colour = WALLHAVEN_COLOURS[colour - 1]!;
  if (listing > 0) filters.listing = LISTINGS[listing] as Exclude<Listing, 'search'>;
  return filters;
}

/** Why a state cannot be encoded, or undefined when it can (the length is checked separately). */
function invalidReason(state: PagerState): string | undefined {
  const { search } = state;
  if (!search.categories.general && !search.categories.anime && !search.categories.people) return 'no category';
  if (!(PURITY_SCOPES as readonly string[]).includes(search.purity)) return 'unknown purity';
  if (!(SORTING_CHOICES as readonly string[]).includes(search.sorting)) return 'unknown sorting';
  if (search.ratio !== undefined && !(RATIO_CHOICES as readonly string[]).includes(search.ratio)) return 'unknown ratio';
  if (search.atleast !== undefined) {
    const { width, height } = search.atleast;
    if (![width, height].every((side) => Number.isInteger(side) && side >= 1 && side <= MAX_DIMENSION)) return 'atleast out of range';
  }
  if (search.seed !== undefined && !SEED_PATTERN.test(search.seed)) return 'malformed seed';
  if (search.topRange !== undefined && (search.sorting !== 'toplist' || !(TOPLIST_RANGES as readonly string[]).includes(search.topRange))) return 'toplist period without the toplist sorting';
  if (search.colour !== undefined && !(WALLHAVEN_COLOURS as readonly string[]).includes(search.colour)) return 'unknown colour';
  if (search.aiArt !== undefined && !(AI_ART_CHOICES as readonly string[]).includes(search.aiArt)) return 'unknown ai-art choice';
  if (!Number.isInteger(state.index) || state.index < 0 || state.index > MAX_RESULT_INDEX) return 'index out of range';
  if (!Number.isInteger(state.pageSize) || state.pageSize < 1 || state.pageSize > MAX_PAGE_SIZE) return 'page size out of range';
  const seconds = (state.lastActivityMs - ACTIVITY_EPOCH_MS) / 1000;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_ACTIVITY_SECONDS) return 'activity time not a whole second in range';
  if (search.query.kind === 'stored' && !STORED_KEY_PATTERN.test(search.query.key)) return 'malformed query key';
  if (search.query.kind === 'text' && search.query.text === '') return 'empty query text';
  if (search.listing !== undefined && !(LISTINGS as readonly string[]).includes(search.listing)) return 'unknown listing';
  if (search.listing === 'tag' && (search.query.kind === 'none' || (search.query.kind === 'text' && parseTagListingText(search.query.text) === null))) return 'a tag listing without its tag';
  if (search.listing === 'collection' && (search.query.kind === 'none' || (search.query.kind === 'text' && parseCollectionListingText(search.query.text) === null))) {
    return 'a collection listing without its collection';
  }
  return undefined;
}

function queryField(query: QueryRef): string {
  switch (query.kind) {
    case 'none':
      return '';
    case 'text':
      return `=${query.text}`;
    case 'stored':
      return `#${query.key}`;
  }
}

/** Each of `ACTIONS`' letter for each `ai-art` choice: none, then `AI_ART_CHOICES` in order. */
const ACTION_LETTERS = ['bfJBFP', 'cgKCGQ', 'dhLDHR'] as const;

function actionLetter(action: PagerState['action'], aiArt: AiArtChoice | undefined): string {
  return ACTION_LETTERS[optionalDigit(AI_ART_CHOICES, aiArt)]![ACTIONS.indexOf(action)]!;
}

/** The custom_id for `state`, whatever its length (see `encodePagerId` for the checked version). */
function serialise(state: PagerState): string {
  const { search } = state;
  const head = `${PAGER_PREFIX}:${actionLetter(state.action, search.aiArt)}${base36(packFilters(search), FILTER_DIGITS)}${base36(state.index)}`;
  const atleast = search.atleast ? `${base36(search.atleast.width, 3)}${base36(search.atleast.height, 3)}` : '';
  const pageSize = state.pageSize === DEFAULT_PAGE_SIZE ? '' : base36(state.pageSize);
  const activity = base36((state.lastActivityMs - ACTIVITY_EPOCH_MS) / 1000);
  return [head, pageSize, atleast, search.seed ?? '', activity, queryField(search.query)].join('.');
}

/** Rounds a time down to the precision a custom_id keeps. */
export function activityTime(ms: number): number {
  return ACTIVITY_EPOCH_MS + Math.floor((ms - ACTIVITY_EPOCH_MS) / 1000) * 1000;
}

/** The custom_id of one pager button. Throws on a state that cannot be encoded or does not fit. */
export function encodePagerId(state: PagerState): string {
  const reason = invalidReason(state);
  if (reason !== undefined) throw new RangeError(`encodePagerId: ${reason}`);
  const id = serialise(state);
  if (id.length > CUSTOM_ID_MAX_LENGTH) throw new RangeError(`encodePagerId: ${id.length} characters, over Discord's ${CUSTOM_ID_MAX_LENGTH}`);
  return id;
}

/** The state in a custom_id, or null for anything this format did not produce. Never throws. */
export function decodePagerId(id: string): PagerState | null {
  if (id.length > CUSTOM_ID_MAX_LENGTH) return null;
  const match = /^wp:([b-dfghB-DF-HJ-LP-R])([0-9a-z]{4})([0-9a-z]+)\.([0-9a-z]*)\.([0-9a-z]{6})?\.([a-zA-Z0-9]{6})?\.([0-9a-z]+)\.(.*)$/s.exec(id);
  if (!match) return null;
  const [, action, filtersText, indexText, pageSizeText, atleastText, seed, activityText, queryText] = match;
  const filters = unpackFilters(parseBase36(filtersText!, FILTER_DIGITS) ?? Infinity);
  const index = parseBase36(indexText!);
  const pageSize = pageSizeText === '' ? DEFAULT_PAGE_SIZE : parseBase36(pageSizeText!);
  const activitySeconds = parseBase36(activityText!);
  // A page size of 24 is always written as nothing: one state, one id.
  const canonicalPageSize = pageSize !== undefined && (pageSize !== DEFAULT_PAGE_SIZE || pageSizeText === '');
  if (!filters || index === undefined || !canonicalPageSize || activitySeconds === undefined) return null;
  let query: QueryRef;
  if (queryText === '') query = { kind: 'none' };
  else if (queryText!.startsWith('=') && queryText!.length > 1) query = { kind: 'text', text: queryText!.slice(1) };
  else if (queryText!.startsWith('#')) query = { kind: 'stored', key: queryText!.slice(1) };
  else return null;
  const search: PagerSearch = { ...filters, query };
  if (atleastText !== undefined) {
    search.atleast = { width: parseBase36(atleastText.slice(0, 3), 3)!, height: parseBase36(atleastText.slice(3), 3)! };
  }
  if (seed !== undefined) search.seed = seed;
  const aiArtDigit = ACTION_LETTERS.findIndex((letters) => letters.includes(action!));
  if (aiArtDigit > 0) search.aiArt = AI_ART_CHOICES[aiArtDigit - 1]!;
  const state: PagerState = {
    action: ACTIONS[ACTION_LETTERS[aiArtDigit]!.indexOf(action!)]!,
    search,
    index,
    pageSize,
    lastActivityMs: ACTIVITY_EPOCH_MS + activitySeconds * 1000,
  };
  return invalidReason(state) === undefined ? state : null;
}

/** The longest id `search` can produce over a pager's life, whatever its index, page size and time. */
function longestId(search: PagerSearch): string {
  return serialise({
    action: 'next',
    search,
    index: MAX_RESULT_INDEX,
    pageSize: MAX_PAGE_SIZE,
    lastActivityMs: ACTIVITY_EPOCH_MS + MAX_ACTIVITY_SECONDS * 1000,
  });
}

/**
 * The shortest inline query any state leaves room for: with every optional field at its longest.
 * Queries up to this length always travel inline, so their pagers always survive a restart.
 */
export const MIN_INLINE_QUERY_LENGTH =
  CUSTOM_ID_MAX_LENGTH -
  longestId({
    categories: { general: true, anime: true, people: true },
    purity: 'nsfw',
    sorting: 'random',
    ratio: 'portrait',
    atleast: { width: MAX_DIMENSION, height: MAX_DIMENSION },
    seed: 'ZZZZZZ',
    query: { kind: 'text', text: '' },
  }).length;

/** The key a long query travels by: derived from its text alone, so every process agrees on it. */
export function longQueryKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, STORED_KEY_LENGTH);
}

/**
 * Queries too long for a custom_id, by a short key derived from their text. Bounded in entries and
 * time: a pager idle for 10 minutes is expired anyway, so 30 minutes after its last use its query
 * may be forgotten.
 */
export class LongQueryStore {
  private readonly texts: LRUCache<string, string>;

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    const max = options.max ?? 5_000;
    const ttl = options.ttlMs ?? 30 * 60_000;
    if (!Number.isInteger(max) || max <= 0) throw new TypeError('LongQueryStore: option "max" must be a positive integer');
    if (!(ttl > 0)) throw new TypeError('LongQueryStore: option "ttlMs" must be positive');
    this.texts = new LRUCache({ max, ttl, updateAgeOnGet: true });
  }

  /** Stores `text` and returns its key; the same text always gets the same key. */
  remember(text: string): string {
    const key = longQueryKey(text);
    this.texts.set(key, text);
    return key;
  }

  recall(key: string): string | undefined {
    return this.texts.get(key);
  }
}

/**
 * How `text` travels in the buttons of a pager over `search`: inline when every id the pager can
 * produce fits (the decision holds for its whole life, whatever page it reaches), else by a key into
 * `store`.
 */
export function queryRefFor(text: string | undefined, search: Omit<PagerSearch, 'query'>, store: Pick<LongQueryStore, 'remember'>): QueryRef {
  if (text === undefined || text === '') return { kind: 'none' };
  const inline: QueryRef = { kind: 'text', text };
  return longestId({ ...search, query: inline }).length <= CUSTOM_ID_MAX_LENGTH ? inline : { kind: 'stored', key: store.remember(text) };
}
