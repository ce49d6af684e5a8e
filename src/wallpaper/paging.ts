import { isUpstreamError } from '../interaction/upstream-error.js';
import { MAX_PAGE_SIZE, MAX_RESULT_INDEX, type PagerAction, type PagerSearch } from './pager-state.js';
import { parseCollectionListingText, type WallpaperCollection } from './collections.js';
import { parseTagListingText, wallhavenQueryOf } from './listings.js';
import { purityFilterOf, type SearchSummary, type WallpaperSearch } from './search.js';
import type { WallpaperPage, WallpaperSummary } from './wallpaper.js';

/** The paging of a `/wallpaper search` pager: which result a press shows, fetching only its page. */

/**
 * A search for a page after the last one: Wallhaven answers 400, reported as `not_found` with this
 * message (and cached like any not-found for a few minutes). `isPastLastPage` recognises it.
 */
export const PAGE_PAST_THE_END = 'page past the end';

export function isPastLastPage(error: unknown): boolean {
  return isUpstreamError(error, 'not_found') && error.message === PAGE_PAST_THE_END;
}

/** A pager left alone this long stops paging: its next press disables the buttons. */
export const PAGER_IDLE_LIMIT_MS = 10 * 60_000;

/** One page of a search, as the Wallhaven service answers it (pages are cached there). */
type SearchPage = (search: WallpaperSearch) => Promise<WallpaperPage>;

function toServiceSearch(search: PagerSearch, text: string | undefined, page: number): WallpaperSearch {
  return {
    query: wallhavenQueryOf(search.listing, text),
    categories: search.categories,
    purity: purityFilterOf(search.purity),
    sorting: search.sorting,
    ...(search.ratio ? { ratios: [search.ratio] } : {}),
    ...(search.atleast ? { atleast: search.atleast } : {}),
    ...(search.seed ? { seed: search.seed } : {}),
    ...(search.topRange ? { topRange: search.topRange } : {}),
    ...(search.colour ? { colour: search.colour } : {}),
    ...(search.aiArt ? { aiArt: search.aiArt } : {}),
    page,
  };
}

/**
 * What a pager's listing is, as its result's first line says it. A tag is named as Wallhaven echoes
 * it (the page's `query`, the tag's name for an `id:` search), with the category the detail gave. A
 * collection is named by its label, and says how many of its wallpapers the purity asked for
 * leaves out (its count less the listing's total).
 */
export function summaryOf(
  search: Omit<PagerSearch, 'query'>,
  text: string | undefined,
  page?: Pick<WallpaperPage, 'query' | 'total'>,
  collection?: Pick<WallpaperCollection, 'label' | 'count'>,
): SearchSummary {
  const tag = search.listing === 'tag' && text !== undefined ? parseTagListingText(text) : null;
  const collectionRef = search.listing === 'collection' && text !== undefined ? parseCollectionListingText(text) : null;
  const summary: SearchSummary = {
    query: tag === null && collectionRef === null ? (text ?? null) : null,
    categories: search.categories,
    purity: search.purity,
    sorting: search.sorting,
    ...(search.ratio ? { ratio: search.ratio } : {}),
    ...(search.atleast ? { atleast: search.atleast } : {}),
    ...(search.topRange ? { topRange: search.topRange } : {}),
    ...(search.colour ? { colour: search.colour } : {}),
  };
  if (tag !== null) summary.tag = { name: page?.query ?? `#${tag.id}`, ...(tag.category ? { category: tag.category } : {}) };
  if (collectionRef !== null && collection !== undefined) {
    summary.collection = { label: collection.label, username: collectionRef.username, skipped: Math.max(0, collection.count - (page?.total ?? 0)) };
  }
  return summary;
}

/** Wallhaven's `per_page` when it is usable, else the size paging assumed so far. */
function pageSizeOf(page: WallpaperPage, fallback: number): number {
  return Number.isInteger(page.perPage) && page.perPage >= 1 && page.perPage <= MAX_PAGE_SIZE ? page.perPage : fallback;
}

export interface LocatedResult {
  index: number;
  item: WallpaperSummary;
  page: WallpaperPage;
  pageSize: number;
  /** Whether a result follows this one. */
  hasNext: boolean;
}

/**
 * The result at absolute `index`, fetching only the page that holds it. Wallhaven sometimes answers
 * a short page before the last one; then paging forward skips to the next page and paging back
 * lands on the short page's last result.
 */
export async function locateResult(
  searchPage: SearchPage,
  search: PagerSearch,
  query: string | undefined,
  index: number,
  pageSize: number,
  direction: 'next' | 'prev' | 'stay',
): Promise<LocatedResult | null> {
  const pageNumber = Math.floor(index / pageSize) + 1;
  let page = await searchPage(toServiceSearch(search, query, pageNumber));
  let size = pageSizeOf(page, pageSize);
  let offset = index - (pageNumber - 1) * pageSize;
  if (offset >= page.items.length && direction === 'next' && page.page < page.lastPage) {
    page = await searchPage(toServiceSearch(search, query, pageNumber + 1));
    size = pageSizeOf(page, pageSize);
    index = pageNumber * pageSize;
    offset = 0;
  }
  if (page.items.length === 0) return null;
  if (offset >= page.items.length) {
    offset = page.items.length - 1;
    index = (pageNumber - 1) * pageSize + offset;
  }
  // Not `index + 1 < total`: after a short page the indices run ahead of the count.
  const hasNext = (offset < page.items.length - 1 || page.page < page.lastPage) && index < MAX_RESULT_INDEX;
  return { index, item: page.items[offset]!, page, pageSize: size, hasNext };
}

/** The result index a press on a pager's button asks for; an expired pager stays where it is. */
export function targetOf(state: { action: PagerAction; index: number }, expired: boolean): { direction: 'next' | 'prev' | 'stay'; index: number } {
  const direction = expired ? 'stay' : state.action;
  const index = direction === 'next' ? state.index + 1 : direction === 'prev' ? Math.max(0, state.index - 1) : state.index;
  return { direction, index };
}

/** Results in a grid: Discord's media gallery shows at most 10. */
export const GRID_SIZE = 10;

export interface LocatedBlock {
  /** The first result's absolute index (a multiple of `GRID_SIZE`). */
  start: number;
  /** The results of the block in order, each with its absolute index. */
  items: { index: number; item: WallpaperSummary }[];
  /** The last Wallhaven page read: its total and echoed query name the listing. */
  page: WallpaperPage;
  pageSize: number;
  hasNext: boolean;
}

/** The first result of the block of ten holding `index`. */
export function blockStart(index: number): number {
  return Math.floor(index / GRID_SIZE) * GRID_SIZE;
}

/**
 * The ten results from `start`, reading only the one or two Wallhaven pages that hold them (ten of
 * 24 a page: a block may straddle two). Null when the block is past the last result.
 */
export async function locateBlock(searchPage: SearchPage, search: PagerSearch, query: string | undefined, start: number, pageSize: number): Promise<LocatedBlock | null> {
  const pageNumber = Math.floor(start / pageSize) + 1;
  let page = await searchPage(toServiceSearch(search, query, pageNumber));
  const size = pageSizeOf(page, pageSize);
  const offset = start - (pageNumber - 1) * pageSize;
  const items = page.items.slice(offset, offset + GRID_SIZE).map((item, at) => ({ index: start + at, item }));
  let takenFromLast = offset + items.length;
  if (items.length < GRID_SIZE && page.page < page.lastPage) {
    page = await searchPage(toServiceSearch(search, query, pageNumber + 1));
    const rest = page.items.slice(0, GRID_SIZE - items.length);
    const first = pageNumber * pageSize;
    items.push(...rest.map((item, at) => ({ index: Math.max(first + at, start + items.length + at), item })));
    takenFromLast = rest.length;
  }
  if (items.length === 0) return null;
  const end = start + GRID_SIZE;
  const hasNext = (takenFromLast < page.items.length || page.page < page.lastPage) && end <= MAX_RESULT_INDEX;
  return { start, items, page, pageSize: size, hasNext };
}
