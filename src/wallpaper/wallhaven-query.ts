import { UpstreamError } from '../interaction/upstream-error.js';
import { parseWallhavenUsername } from './collections.js';
import { WALLPAPER_ID_PATTERN } from './wallhaven-site.js';
import {
  AI_ART_FILTER_VALUES,
  MAX_DIMENSION,
  MAX_QUERY_LENGTH,
  SEED_PATTERN,
  TOPLIST_RANGES,
  WALLHAVEN_COLOURS,
  WALLPAPER_RATIOS,
  WALLPAPER_SORTINGS,
  type PurityFilter,
  type WallpaperSearch,
} from './search.js';

/**
 * Pure Wallhaven input handling: wallpaper ids and URLs typed by users, and search parameters,
 * validated and turned into the exact query the API is sent (which is also the search cache key).
 */
/** The detail path for an id, refusing anything that is not an id (the caller's URL check follows). */
export function wallpaperDetailPath(id: string): string {
  if (!WALLPAPER_ID_PATTERN.test(id)) throw new UpstreamError('wallhaven', 'invalid_input', 'not a wallpaper id');
  return `/api/v1/w/${encodeURIComponent(id)}`;
}

const MAX_PAGE = 10_000;

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
  if (search.colour !== undefined) {
    if (!(WALLHAVEN_COLOURS as readonly string[]).includes(search.colour)) throw invalid('colors: must be one of the 29 colours of the palette');
    query.colors = search.colour;
  }
  if (search.seed !== undefined) {
    if (search.sorting !== 'random') throw invalid('seed: only applies to random sorting');
    if (!SEED_PATTERN.test(search.seed)) throw invalid('seed: must be 6 letters or digits');
    query.seed = search.seed;
  }
  if (search.aiArt !== undefined) {
    if (!Object.hasOwn(AI_ART_FILTER_VALUES, search.aiArt)) throw invalid('ai_art_filter: must be include or exclude');
    query.ai_art_filter = AI_ART_FILTER_VALUES[search.aiArt];
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

/** The path of a user's public collections, refusing a name that is not one (the caller's URL check follows). */
export function collectionsPath(username: string): string {
  const parsed = parseWallhavenUsername(username);
  if (!parsed.ok || parsed.username !== username) throw invalid('not a Wallhaven username');
  return `/api/v1/collections/${encodeURIComponent(username)}`;
}

/**
 * One page of a collection: its path and query. Wallhaven's collection listing takes only a
 * `purity` filter (and the page); NSFW needs a key, as in a search.
 */
export function collectionPageQuery(
  username: string,
  collectionId: number,
  purity: PurityFilter,
  page: number,
  options: { apiKeyConfigured: boolean },
): { path: string; query: Record<string, string> } {
  if (!Number.isSafeInteger(collectionId) || collectionId < 1) throw invalid('not a collection id');
  if (!purity.sfw && !purity.sketchy && !purity.nsfw) throw invalid('purity: choose at least one purity level');
  if (purity.nsfw && !options.apiKeyConfigured) throw new UpstreamError('wallhaven', 'unauthorized', 'purity: NSFW needs a Wallhaven API key, and none is configured');
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) throw invalid(`page: must be a whole number from 1 to ${MAX_PAGE}`);
  return { path: `${collectionsPath(username)}/${collectionId}`, query: { purity: bits([purity.sfw, purity.sketchy, purity.nsfw]), page: String(page) } };
}

