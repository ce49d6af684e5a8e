import { LRUCache } from 'lru-cache';
import type { MemberShareSpender, UpstreamCache } from '../../upstream/cache.js';
import type { UpstreamHealth } from '../../runtime/status-report.js';
import { checkCommonFailures, parseJson, type UpstreamHttp, type UpstreamResponse } from '../../upstream/http.js';
import type { LimiterSettings } from '../../upstream/limiter.js';
import { baseUrlOption, numberOption } from '../../upstream/service-options.js';
import { isUpstreamError, UpstreamError } from '../../interaction/upstream-error.js';
import { PAGE_PAST_THE_END } from '../../wallpaper/paging.js';
import type { CollectionRef, WallpaperCollection } from '../../wallpaper/collections.js';
import type { AiArtChoice, CategoryFilter, PurityFilter, WallpaperSearch } from '../../wallpaper/search.js';
import type { WallpaperDetail, WallpaperPage, WallpaperSummary } from '../../wallpaper/wallpaper.js';
import { SIMILAR_CHALLENGE_PAUSE_MS, SIMILAR_CHALLENGED, similarQueryTarget, WALLPAPER_ID_PATTERN } from '../../wallpaper/wallhaven-site.js';
import { rawCollectionListing, rawCollectionsAnswer, rawDetailAnswer, rawSearchAnswer, toCollections, toDetail, toPage } from './wallhaven-answer.js';
import { REQUEST_TIMEOUT_MS, UpstreamWiring, type UpstreamServiceOptions } from '../../upstream/upstream.js';
import { buildSearchQuery, collectionPageQuery, collectionsPath, isCacheableSearch, wallpaperDetailPath } from '../../wallpaper/wallhaven-query.js';


/**
 * `minTime` spaces the planned request starts, so at most ⌊(60 000 − 1) / 1 400⌋ + 1 = 43 are
 * planned in any 60 s: two under the limit. The margin is for jitter: after an event-loop stall
 * Bottleneck starts the overdue jobs together (one extra start per stall in a window, measured at
 * scale), but a stall would have to last 200 ms to make 44 and 3 s to pass 45. Two may run at once
 * (a slow answer does not stall the next user), and 20 may wait (≈ 28 s of queue at this
 * spacing); past that a caller is told "busy" at once.
 */
export const WALLHAVEN_LIMITS: Readonly<LimiterSettings> = { minTimeMs: 1_400, maxConcurrent: 2, maxQueued: 20 };

/** The most request starts `minTimeMs` spacing allows within any window of `windowMs`. */
export function maxStartsInWindow(minTimeMs: number, windowMs: number): number {
  return Math.floor((windowMs - 1) / minTimeMs) + 1;
}

/** Wallhaven's 429 has carried Retry-After (28 s seen); when it does not, wait out a whole window. */
const RETRY_AFTER_FALLBACK_MS = 60_000;
const DETAIL_TTL_MS = 60 * 60_000;
/** Searches shift as uploads arrive; a few minutes keeps paging consistent without going stale. */
const SEARCH_TTL_MS = 5 * 60_000;
/** Unknown wallpapers and pages past the end are remembered this long. */
const NEGATIVE_TTL_MS = 5 * 60_000;
/** A drawn random page is served pick by pick for at most this long. */
const RANDOM_POOL_TTL_MS = 30 * 60_000;
const SFW_ONLY = { sfw: true, sketchy: false, nsfw: false } as const;

export interface WallhavenServiceOptions extends UpstreamServiceOptions {
  baseUrl: string;
  /** Unlocks NSFW. Sent only as the `X-API-Key` header, never in a URL, a log or an error. */
  apiKey?: string;
}

/**
 * Wallhaven API v1: search, detail and random picks, with every request through one limiter that
 * holds 43 per minute, a pause of the whole upstream on 429, and caches for details and searches.
 */
export class WallhavenService {
  /** Whether NSFW searches are possible (a key is configured). */
  readonly nsfwAvailable: boolean;
  private readonly upstream: UpstreamWiring;
  private readonly http: UpstreamHttp;
  private readonly detailCache: UpstreamCache<WallpaperDetail>;
  private readonly searchCache: UpstreamCache<WallpaperPage>;
  private readonly collectionsCache: UpstreamCache<WallpaperCollection[]>;
  private readonly collectionPageCache: UpstreamCache<WallpaperPage>;
  /** Per (query, categories): the rest of a drawn random page, handed out one pick at a time. */
  private readonly randomPools = new LRUCache<string, WallpaperSummary[]>({ max: 100, ttl: RANDOM_POOL_TTL_MS });
  private readonly randomRefills = new Map<string, Promise<number>>();
  private readonly requestTimeoutMs: number;
  private rateLimitRemaining: number | undefined;
  /** Until when `like:` searches are answered as challenged without a request (see SIMILAR_CHALLENGED). */
  private similarChallengedUntil = 0;
  private readonly now: () => number;

  constructor(options: WallhavenServiceOptions) {
    const service = 'WallhavenService';
    this.requestTimeoutMs = numberOption(service, 'requestTimeoutMs', options.requestTimeoutMs, REQUEST_TIMEOUT_MS.wallhaven);
    if (options.apiKey !== undefined && !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError(`${service}: option "apiKey" must be printable ASCII without spaces`);
    }
    this.nsfwAvailable = options.apiKey !== undefined;
    this.now = options.now ?? Date.now;
    const baseUrl = baseUrlOption(service, options.baseUrl);
    this.upstream = new UpstreamWiring({
      upstream: 'wallhaven',
      limits: { ...WALLHAVEN_LIMITS, ...options.limits, jobExpirationMs: this.requestTimeoutMs + 2_000 },
      limiterFactory: options.limiterFactory,
      cacheFactory: options.cacheFactory,
      dispatcher: options.dispatcher,
      metrics: options.metrics,
      now: options.now,
    });
    this.http = this.upstream.http({
      baseUrl,
      pathPrefixes: ['/api/v1/search', '/api/v1/w/', '/api/v1/collections/'],
      headers: options.apiKey === undefined ? undefined : { 'x-api-key': options.apiKey },
      maxBodyBytes: 2 * 1024 * 1024,
    });
    this.detailCache = this.upstream.cache<WallpaperDetail>({
      name: 'wallhaven-detail',
      max: 500,
      ttlMs: DETAIL_TTL_MS,
      negativeTtlMs: NEGATIVE_TTL_MS,
      load: (id) => this.fetchDetail(id),
    });
    this.searchCache = this.upstream.cache<WallpaperPage>({
      name: 'wallhaven-search',
      max: 200,
      ttlMs: SEARCH_TTL_MS,
      negativeTtlMs: NEGATIVE_TTL_MS,
      // The key is the canonical query string itself (see buildSearchQuery).
      load: (key) => this.fetchSearch(Object.fromEntries(new URLSearchParams(key))),
    });
    // Collections change as rarely as searches: cached like search pages, unknown users like unknown wallpapers.
    this.collectionsCache = this.upstream.cache<WallpaperCollection[]>({
      name: 'wallhaven-collections',
      max: 200,
      ttlMs: SEARCH_TTL_MS,
      negativeTtlMs: NEGATIVE_TTL_MS,
      load: (path) => this.fetchCollections(path),
    });
    // The key is the path and its query string, as sent.
    this.collectionPageCache = this.upstream.cache<WallpaperPage>({
      name: 'wallhaven-collection-page',
      max: 200,
      ttlMs: SEARCH_TTL_MS,
      negativeTtlMs: NEGATIVE_TTL_MS,
      load: (key) => this.fetchCollectionPage(key),
    });
  }

  /** A user's public collections; an unknown user rejects with `not_found` (validate the name with `parseWallhavenUsername`). */
  async collections(username: string, share: MemberShareSpender = {}): Promise<WallpaperCollection[]> {
    return this.collectionsCache.get(collectionsPath(username), share);
  }

  /**
   * One page of a collection's wallpapers of the purities asked for (the only filter it takes). A
   * page after the last one rejects with `not_found` / `PAGE_PAST_THE_END`, a collection gone with `not_found`.
   */
  async collectionPage(collection: CollectionRef, purity: PurityFilter, page: number, share: MemberShareSpender = {}): Promise<WallpaperPage> {
    const { path, query } = collectionPageQuery(collection.username, collection.id, purity, page, { apiKeyConfigured: this.nsfwAvailable });
    return this.collectionPageCache.get(`${path}?${new URLSearchParams(query).toString()}`, share);
  }

  /**
   * One page of results. A page after the last one rejects with `not_found` / `PAGE_PAST_THE_END`.
   * Cached for 5 minutes by the full parameter set, except random pages without a seed.
   */
  async search(search: WallpaperSearch, share: MemberShareSpender = {}): Promise<WallpaperPage> {
    const query = buildSearchQuery(search, { apiKeyConfigured: this.nsfwAvailable });
    if (!isCacheableSearch(query)) {
      await share.beforeRequest?.();
      return this.fetchSearch(query);
    }
    return this.searchCache.get(new URLSearchParams(query).toString(), share);
  }

  /** A wallpaper with its uploader and tags (validate user input with `parseWallpaperId` first). */
  async detail(id: string, share: MemberShareSpender = {}): Promise<WallpaperDetail> {
    if (!WALLPAPER_ID_PATTERN.test(id)) throw new UpstreamError('wallhaven', 'invalid_input', 'not a wallpaper id');
    return this.detailCache.get(id, share);
  }

  /**
   * A random SFW wallpaper. One `sorting=random` page (24 results) serves the next 24 calls for the
   * same query and categories; concurrent callers share one refill.
   */
  async randomPick(query: string | undefined, categories: CategoryFilter, share: MemberShareSpender = {}, aiArt?: AiArtChoice): Promise<WallpaperSummary> {
    const search = buildSearchQuery({ query, categories, purity: SFW_ONLY, sorting: 'random', page: 1, ...(aiArt ? { aiArt } : {}) }, { apiKeyConfigured: this.nsfwAvailable });
    const key = new URLSearchParams(search).toString();
    for (;;) {
      const pick = this.randomPools.get(key)?.pop();
      if (pick) return pick;
      await share.beforeRequest?.();
      if ((await this.refillRandomPool(key, search)) === 0) throw new UpstreamError('wallhaven', 'not_found', 'no wallpapers match');
    }
  }

  /** How long a request made now would wait for the limiter (the command defers when it is long). */
  expectedWaitMs(): number {
    return this.upstream.limiter.expectedWaitMs();
  }

  health(): UpstreamHealth {
    const details: Record<string, string | number> = { apiKey: this.nsfwAvailable ? 'configured' : 'none' };
    if (this.rateLimitRemaining !== undefined) details.rateLimitRemaining = this.rateLimitRemaining;
    return this.upstream.health(details);
  }

  async close(): Promise<void> {
    await this.upstream.close();
  }

  private refillRandomPool(key: string, search: Record<string, string>): Promise<number> {
    let refill = this.randomRefills.get(key);
    if (refill === undefined) {
      refill = this.fetchSearch(search)
        .then((page) => {
          this.randomPools.set(key, [...page.items]);
          return page.items.length;
        })
        .finally(() => this.randomRefills.delete(key));
      this.randomRefills.set(key, refill);
    }
    return refill;
  }

  private async fetchSearch(query: Record<string, string>): Promise<WallpaperPage> {
    const similar = similarQueryTarget(query.q) !== undefined;
    if (similar && this.now() < this.similarChallengedUntil) throw similarChallenged();
    const body = await this.request(this.http.url('/api/v1/search', query), similar ? 'similar' : 'search');
    const answer = rawSearchAnswer.safeParse(body);
    if (!answer.success) throw new UpstreamError('wallhaven', 'bad_response', 'wallhaven search answer has an unexpected shape', { status: 200 });
    return toPage(answer.data, query.q);
  }

  private async fetchCollections(path: string): Promise<WallpaperCollection[]> {
    const answer = rawCollectionsAnswer.safeParse(await this.request(this.http.url(path), 'collections'));
    if (!answer.success) throw new UpstreamError('wallhaven', 'bad_response', 'wallhaven collections answer has an unexpected shape', { status: 200 });
    return toCollections(answer.data);
  }

  private async fetchCollectionPage(key: string): Promise<WallpaperPage> {
    const [path, search] = key.split('?') as [string, string];
    const answer = rawCollectionListing.safeParse(await this.request(this.http.url(path, Object.fromEntries(new URLSearchParams(search))), 'collection'));
    if (!answer.success) throw new UpstreamError('wallhaven', 'bad_response', 'wallhaven collection answer has an unexpected shape', { status: 200 });
    return toPage(answer.data, undefined);
  }

  private async fetchDetail(id: string): Promise<WallpaperDetail> {
    const body = await this.request(this.http.url(wallpaperDetailPath(id)), 'detail');
    const answer = rawDetailAnswer.safeParse(body);
    if (!answer.success || answer.data.data.id !== id) {
      throw new UpstreamError('wallhaven', 'bad_response', 'wallhaven wallpaper answer has an unexpected shape', { status: 200 });
    }
    return toDetail(answer.data.data);
  }

  /** One limited request; the URL is built (and checked) before it takes a limiter slot. */
  private request(url: URL, kind: RequestKind): Promise<unknown> {
    return this.upstream.limiter.schedule(() =>
      this.upstream.tracker.track(async () => {
        const response = await this.http.get(url, { signal: AbortSignal.timeout(this.requestTimeoutMs) });
        const remaining = Number(response.headers['x-ratelimit-remaining']);
        if (Number.isInteger(remaining)) this.rateLimitRemaining = remaining;
        return this.interpret(response, kind);
      }),
    );
  }

  private interpret(response: UpstreamResponse, kind: RequestKind): unknown {
    if (kind === 'similar' && response.status === 403) {
      this.similarChallengedUntil = this.now() + SIMILAR_CHALLENGE_PAUSE_MS;
      throw similarChallenged();
    }
    try {
      // 429 (an HTML page) → rate_limited; 5xx and HTML pages (Cloudflare's 403 challenge) → unavailable.
      checkCommonFailures('wallhaven', response, RETRY_AFTER_FALLBACK_MS);
    } catch (error) {
      if (isUpstreamError(error, 'rate_limited')) {
        this.upstream.limiter.pause(error.retryAfterMs ?? RETRY_AFTER_FALLBACK_MS, 'wallhaven answered 429');
      }
      throw error;
    }
    const { status } = response;
    if (status === 200) return parseJson('wallhaven', response);
    if (status === 400 && (kind === 'search' || kind === 'similar' || kind === 'collection')) throw new UpstreamError('wallhaven', 'not_found', PAGE_PAST_THE_END, { status });
    if (status === 401) {
      throw new UpstreamError('wallhaven', 'unauthorized', 'wallhaven refused: the API key is missing or invalid (NSFW content needs one)', { status });
    }
    // `{"error":"Nothing here"}` is an unknown wallpaper, user or collection; `{"error":"Not Found"}` would be a route we got wrong.
    if (status === 404 && kind !== 'search' && kind !== 'similar' && errorText(response) === 'Nothing here') {
      throw new UpstreamError('wallhaven', 'not_found', `no such ${kind === 'detail' ? 'wallpaper' : kind === 'collections' ? 'user' : 'collection'}`, { status });
    }
    throw new UpstreamError('wallhaven', 'bad_response', `wallhaven answered ${status}`, { status });
  }
}

/** A `like:` search is told apart: Cloudflare may challenge it (see SIMILAR_CHALLENGED). */
type RequestKind = 'search' | 'similar' | 'detail' | 'collections' | 'collection';

function similarChallenged(): UpstreamError {
  return new UpstreamError('wallhaven', 'unavailable', SIMILAR_CHALLENGED, { status: 403, retryAfterMs: SIMILAR_CHALLENGE_PAUSE_MS });
}

function errorText(response: UpstreamResponse): string | undefined {
  try {
    const body = JSON.parse(response.body.toString('utf8')) as unknown;
    return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
  } catch {
    return undefined;
  }
}
