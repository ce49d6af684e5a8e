import { UpstreamError } from '../interaction/upstream-error.js';

/**
 * Pure Wallhaven input handling: wallpaper ids and URLs typed by users, and search parameters,
 * validated and turned into the exact query the API is sent (which is also the search cache key).
 */

/**
 * Ids are 6 lowercase alphanumerics today. Up to 8 are accepted so that the day the catalogue
 * outgrows 36^6 ids does not break the command; nothing else (no dots, slashes or `%`) can pass,
 * so an id is always safe as a path segment.
 */
export const WALLPAPER_ID_PATTERN = /^[a-z0-9]{6,8}$/;

export type ParsedWallpaperId = { ok: true; id: string } | { ok: false; reason: string };

const PAGE_HOSTS = new Set(['wallhaven.cc', 'www.wallhaven.cc']);
const SHORT_HOSTS = new Set(['whvn.cc', 'www.whvn.cc']);

/**
 * Accepts a bare id, a wallpaper page (`[http[s]://][www.]wallhaven.cc/w/<id>`) or a short link
 * (`[http[s]://]whvn.cc/<id>`), with an optional trailing slash, query or fragment.
 */
export function parseWallpaperId(input: string): ParsedWallpaperId {
  const value = input.trim();
  if (value === '') return { ok: false, reason: 'give a wallpaper id (like 6dk8yq) or its wallhaven.cc link' };
  if (!value.includes('/') && !value.includes('.')) {
    if (WALLPAPER_ID_PATTERN.test(value)) return { ok: true, id: value };
    return { ok: false, reason: 'a wallpaper id is 6 lowercase letters and digits, like 6dk8yq' };
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return { ok: false, reason: 'not a wallpaper id or a wallhaven.cc link' };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || url.port !== '') {
    return { ok: false, reason: 'only wallhaven.cc and whvn.cc links are accepted' };
  }
  const host = url.hostname.toLowerCase();
  const path = url.pathname.replace(/\/$/, '');
  if (!PAGE_HOSTS.has(host) && !SHORT_HOSTS.has(host)) return { ok: false, reason: 'only wallhaven.cc and whvn.cc links are accepted' };
  const id = (PAGE_HOSTS.has(host) ? /^\/w\/([^/]+)$/ : /^\/([^/]+)$/).exec(path)?.[1];
  if (id === undefined) return { ok: false, reason: 'that link is not a wallpaper page (expected wallhaven.cc/w/<id> or whvn.cc/<id>)' };
  if (!WALLPAPER_ID_PATTERN.test(id)) return { ok: false, reason: 'the link does not contain a valid wallpaper id' };
  return { ok: true, id };
}

/** The detail path for an id, refusing anything that is not an id (the caller's URL check follows). */
export function wallpaperDetailPath(id: string): string {
  if (!WALLPAPER_ID_PATTERN.test(id)) throw new UpstreamError('wallhaven', 'invalid_input', 'not a wallpaper id');
  return `/api/v1/w/${encodeURIComponent(id)}`;
}

export const WALLPAPER_SORTINGS = ['relevance', 'date_added', 'views', 'favorites', 'toplist', 'random'] as const;
export type WallpaperSorting = (typeof WALLPAPER_SORTINGS)[number];

/** The aspect ratios the site offers (ultrawide, wide, portrait, square and the classic ones). */
export const WALLPAPER_RATIOS = [
  'landscape',
  'portrait',
  '16x9',
  '16x10',
  '21x9',
  '32x9',
  '48x9',
  '9x16',
  '10x16',
  '9x18',
  '1x1',
  '3x2',
  '4x3',
  '5x4',
] as const;
export type WallpaperRatio = (typeof WALLPAPER_RATIOS)[number];

export const TOPLIST_RANGES = ['1d', '3d', '1w', '1M', '3M', '6M', '1y'] as const;
export type ToplistRange = (typeof TOPLIST_RANGES)[number];

export interface CategoryFilter {
  general: boolean;
  anime: boolean;
  people: boolean;
}

export interface PurityFilter {
  sfw: boolean;
  sketchy: boolean;
  nsfw: boolean;
}

export interface WallpaperSearch {
  /** Free text in Wallhaven's syntax (`tag`, `+tag -tag`, `@user`, `id:123`, `type:png`, `like:<id>`). */
  query?: string;
  categories: CategoryFilter;
  purity: PurityFilter;
  atleast?: { width: number; height: number };
  ratios?: readonly string[];
  sorting: WallpaperSorting;
  order?: 'desc' | 'asc';
  /** Only with `toplist` sorting. */
  topRange?: ToplistRange;
  /** Only with `random` sorting: the same seed gives the same order, page after page. */
  seed?: string;
  page: number;
}

export const MAX_QUERY_LENGTH = 200;
const MAX_DIMENSION = 20_000;
const MAX_PAGE = 10_000;
const SEED_PATTERN = /^[a-zA-Z0-9]{6}$/;

function invalid(message: string): UpstreamError {
  return new UpstreamError('wallhaven', 'invalid_input', message);
}

function bits(flags: readonly boolean[]): string {
  return flags.map((flag) => (flag ? '1' : '0')).join('');
}

/**
 * Validates a search and returns its query parameters in sending order, every default made
 * explicit or dropped so that equal searches give equal queries (the search cache key).
 *
 * The order matters: Cloudflare challenges (HTML 403) any query string that *starts with*
 * `q=like…`, so `categories` always comes first, `q` late and `page` last.
 *
 * The NSFW bit is refused without an API key rather than sent: Wallhaven would silently drop it,
 * and the caller should have refused such a search already.
 */
export function buildSearchQuery(search: WallpaperSearch, options: { apiKeyConfigured: boolean }): Record<string, string> {
  const { categories, purity } = search;
  if (!categories.general && !categories.anime && !categories.people) throw invalid('categories: choose at least one category');
  if (!purity.sfw && !purity.sketchy && !purity.nsfw) throw invalid('purity: choose at least one purity level');
  if (purity.nsfw && !options.apiKeyConfigured) {
    throw new UpstreamError('wallhaven', 'unauthorized', 'purity: NSFW needs a Wallhaven API key, and none is configured');
  }
  if (!(WALLPAPER_SORTINGS as readonly string[]).includes(search.sorting)) throw invalid(`sorting: must be one of ${WALLPAPER_SORTINGS.join(', ')}`);
  if (search.order !== undefined && search.order !== 'desc' && search.order !== 'asc') throw invalid('order: must be desc or asc');
  if (!Number.isInteger(search.page) || search.page < 1 || search.page > MAX_PAGE) throw invalid(`page: must be a whole number from 1 to ${MAX_PAGE}`);

  const query: Record<string, string> = {
    categories: bits([categories.general, categories.anime, categories.people]),
    purity: bits([purity.sfw, purity.sketchy, purity.nsfw]),
    sorting: search.sorting,
  };
  if (search.order === 'asc') query.order = 'asc';
  if (search.topRange !== undefined) {
    if (search.sorting !== 'toplist') throw invalid('topRange: only applies to toplist sorting');
    if (!(TOPLIST_RANGES as readonly string[]).includes(search.topRange)) throw invalid(`topRange: must be one of ${TOPLIST_RANGES.join(', ')}`);
    query.topRange = search.topRange;
  }
  if (search.atleast !== undefined) {
    const { width, height } = search.atleast;
    for (const [name, value] of [
      ['width', width],
      ['height', height],
    ] as const) {
      if (!Number.isInteger(value) || value < 1 || value > MAX_DIMENSION) throw invalid(`atleast: ${name} must be a whole number from 1 to ${MAX_DIMENSION}`);
    }
    query.atleast = `${width}x${height}`;
  }
  if (search.ratios !== undefined && search.ratios.length > 0) {
    for (const ratio of search.ratios) {
      if (!(WALLPAPER_RATIOS as readonly string[]).includes(ratio)) throw invalid(`ratios: ${JSON.stringify(ratio)} is not one of ${WALLPAPER_RATIOS.join(', ')}`);
    }
    query.ratios = [...new Set(search.ratios)].sort().join(',');
  }
  if (search.seed !== undefined) {
    if (search.sorting !== 'random') throw invalid('seed: only applies to random sorting');
    if (!SEED_PATTERN.test(search.seed)) throw invalid('seed: must be 6 letters or digits');
    query.seed = search.seed;
  }
  const text = search.query?.trim();
  if (text !== undefined && text !== '') {
    if (text.length > MAX_QUERY_LENGTH) throw invalid(`query: at most ${MAX_QUERY_LENGTH} characters`);
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(text)) throw invalid('query: control characters are not allowed');
    query.q = text;
  }
  query.page = String(search.page);
  return query;
}

/** A random page without a seed is a new draw every time: never cache it as if it were deterministic. */
export function isCacheableSearch(query: Record<string, string>): boolean {
  return query.sorting !== 'random' || query.seed !== undefined;
}
