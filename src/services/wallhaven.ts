import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { Metrics } from '../metrics.js';
import type { CacheFactory, RequestCharge, UpstreamCache } from './cache.js';
import { HealthTracker, type UpstreamHealth } from './health.js';
import { checkCommonFailures, parseJson, UpstreamHttp, type UpstreamResponse } from './http.js';
import type { LimiterFactory, LimiterOptions, UpstreamLimiter } from './limiter.js';
import { baseUrlOption, numberOption } from './service-options.js';
import { isUpstreamError, UpstreamError } from '../interaction/upstream-error.js';
import {
  buildSearchQuery,
  isCacheableSearch,
  WALLPAPER_ID_PATTERN,
  wallpaperDetailPath,
  type CategoryFilter,
  type WallpaperSearch,
} from './wallhaven-query.js';

// ---------------------------------------------------------------------------------------------
// Domain
// ---------------------------------------------------------------------------------------------

export type WallpaperCategory = 'general' | 'anime' | 'people';
export type WallpaperPurity = 'sfw' | 'sketchy' | 'nsfw';

export interface WallpaperSummary {
  id: string;
  /** `https://wallhaven.cc/w/<id>`. */
  pageUrl: string;
  /** `https://whvn.cc/<id>` (the API sometimes says `http://`). */
  shortUrl: string;
  views: number;
  favorites: number;
  /** Where the uploader says the image comes from: any http(s) site, so render it escaped. */
  source?: string;
  purity: WallpaperPurity;
  category: WallpaperCategory;
  width: number;
  height: number;
  /** `<width>x<height>`. */
  resolution: string;
  /** Width / height, rounded to 2 decimals as Wallhaven does. */
  ratio: number;
  fileSize: number;
  fileType: string;
  /** Wallhaven sends no time zone; its times are UTC. */
  createdAt: Date;
  /** `#rrggbb`. */
  colors: string[];
  /** The full image. Absent when the answer's URL is not https on a Wallhaven image host. */
  imageUrl?: string;
  thumbnails: { large?: string; original?: string; small?: string };
}

export interface WallpaperUploader {
  username: string;
  group?: string;
  avatarUrl?: string;
}

export interface WallpaperTag {
  id: number;
  name: string;
  aliases: string[];
  category?: string;
  purity?: WallpaperPurity;
}

export interface WallpaperDetail extends WallpaperSummary {
  /** Null for the few wallpapers whose uploader account is gone. */
  uploader: WallpaperUploader | null;
  tags: WallpaperTag[];
}

export interface WallpaperPage {
  items: WallpaperSummary[];
  page: number;
  lastPage: number;
  total: number;
  perPage: number;
  /** The seed of a random page: pass it back to get the same order on the next page. */
  seed: string | null;
  /** What was searched for, for display: the text, or the tag name of an `id:` search; null without a query. */
  query: string | null;
}

/**
 * A search for a page after the last one: Wallhaven answers 400, reported as `not_found` with this
 * message (and cached like any not-found for a few minutes). `isPastLastPage` recognises it.
 */
export const PAGE_PAST_THE_END = 'page past the end';

export function isPastLastPage(error: unknown): boolean {
  return isUpstreamError(error, 'not_found') && error.message === PAGE_PAST_THE_END;
}

// ---------------------------------------------------------------------------------------------
// Validation of answers
// ---------------------------------------------------------------------------------------------

const IMAGE_HOSTS = new Set(['wallhaven.cc', 'w.wallhaven.cc', 'th.wallhaven.cc', 'whvn.cc']);

/** An https URL on a Wallhaven host, or undefined: nothing else becomes an image or a link. */
export function wallhavenHttpsUrl(value: string | undefined, upgradeHttp = false): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (upgradeHttp && url.protocol === 'http:') url.protocol = 'https:';
  if (url.protocol !== 'https:' || !IMAGE_HOSTS.has(url.hostname) || url.port !== '' || url.username !== '' || url.password !== '') return undefined;
  return url.href;
}

function webUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const count = z.number().int().nonnegative();
/** Integers PHP sometimes sends as strings (`per_page` is `"24"` on /settings). */
const integer = z.union([count, z.string().regex(/^\d+$/).transform(Number)]);
const purity = z.enum(['sfw', 'sketchy', 'nsfw']);
const dimension = z.number().int().positive();
const createdAt = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .transform((value) => new Date(`${value.replace(' ', 'T')}Z`))
  .refine((date) => !Number.isNaN(date.getTime()), 'not a date');

const rawSummary = z.object({
  id: z.string().regex(WALLPAPER_ID_PATTERN),
  url: z.string().optional(),
  short_url: z.string().optional(),
  views: count,
  favorites: count,
  source: z.string().optional(),
  purity,
  category: z.enum(['general', 'anime', 'people']),
  dimension_x: dimension,
  dimension_y: dimension,
  // A string with trailing zeros trimmed ("1.78", "1.5"); recomputed when absent or unreadable.
  ratio: z.union([z.string(), z.number()]).optional(),
  file_size: count,
  file_type: z.string().regex(/^image\/[a-z0-9.+-]+$/),
  created_at: createdAt,
  colors: z.array(z.string()).optional(),
  path: z.string().optional(),
  thumbs: z.object({ large: z.string().optional(), original: z.string().optional(), small: z.string().optional() }).optional(),
});
type RawSummary = z.infer<typeof rawSummary>;

const rawDetailAnswer = z.object({
  data: rawSummary.extend({
    uploader: z
      .object({ username: z.string().min(1), group: z.string().optional(), avatar: z.record(z.string(), z.string()).optional() })
      .nullable()
      .optional(),
    tags: z
      .array(
        z.object({
          id: z.number().int().positive(),
          name: z.string().min(1),
          alias: z.string().optional(),
          category: z.string().optional(),
          purity: purity.optional(),
        }),
      )
      .optional(),
  }),
});

const rawSearchAnswer = z.object({
  data: z.array(rawSummary),
  meta: z.object({
    current_page: integer,
    last_page: integer,
    per_page: integer,
    total: integer,
    // null without q; the q echoed (but "" for @user and type: searches); {id, tag} for id: searches.
    query: z.union([z.null(), z.string(), z.object({ id: z.number(), tag: z.string() })]).optional(),
    seed: z.string().nullable().optional(),
  }),
});

function ratioOf(raw: RawSummary): number {
  const given = typeof raw.ratio === 'number' ? raw.ratio : /^\d+(\.\d+)?$/.test(raw.ratio ?? '') ? Number(raw.ratio) : NaN;
  return Number.isFinite(given) && given > 0 ? given : Math.round((raw.dimension_x / raw.dimension_y) * 100) / 100;
}

function toSummary(raw: RawSummary): WallpaperSummary {
  const summary: WallpaperSummary = {
    id: raw.id,
    pageUrl: wallhavenHttpsUrl(raw.url, true) ?? `https://wallhaven.cc/w/${raw.id}`,
    shortUrl: wallhavenHttpsUrl(raw.short_url, true) ?? `https://whvn.cc/${raw.id}`,
    views: raw.views,
    favorites: raw.favorites,
    purity: raw.purity,
    category: raw.category,
    width: raw.dimension_x,
    height: raw.dimension_y,
    resolution: `${raw.dimension_x}x${raw.dimension_y}`,
    ratio: ratioOf(raw),
    fileSize: raw.file_size,
    fileType: raw.file_type,
    createdAt: raw.created_at,
    colors: (raw.colors ?? []).filter((color) => /^#[0-9a-f]{6}$/i.test(color)).map((color) => color.toLowerCase()),
    thumbnails: {},
  };
  const source = webUrl(raw.source);
  if (source !== undefined) summary.source = source;
  const image = wallhavenHttpsUrl(raw.path);
  if (image !== undefined) summary.imageUrl = image;
  for (const size of ['large', 'original', 'small'] as const) {
    const thumbnail = wallhavenHttpsUrl(raw.thumbs?.[size]);
    if (thumbnail !== undefined) summary.thumbnails[size] = thumbnail;
  }
  return summary;
}

function toDetail(raw: z.infer<typeof rawDetailAnswer>['data']): WallpaperDetail {
  let uploader: WallpaperUploader | null = null;
  if (raw.uploader) {
    uploader = { username: raw.uploader.username };
    if (raw.uploader.group) uploader.group = raw.uploader.group;
    const avatar = wallhavenHttpsUrl(raw.uploader.avatar?.['128px'] ?? raw.uploader.avatar?.['200px']);
    if (avatar !== undefined) uploader.avatarUrl = avatar;
  }
  const tags = (raw.tags ?? []).map((tag): WallpaperTag => {
    const result: WallpaperTag = {
      id: tag.id,
      name: tag.name,
      aliases: (tag.alias ?? '')
        .split(',')
        .map((alias) => alias.trim())
        .filter((alias) => alias !== ''),
    };
    if (tag.category) result.category = tag.category;
    if (tag.purity) result.purity = tag.purity;
    return result;
  });
  return { ...toSummary(raw), uploader, tags };
}

function toPage(raw: z.infer<typeof rawSearchAnswer>, sentQuery: string | undefined): WallpaperPage {
  const echoed = raw.meta.query;
  let query: string | null;
  if (echoed === null || echoed === undefined || echoed === '') query = sentQuery ?? null;
  else if (typeof echoed === 'string') query = echoed;
  else query = echoed.tag;
  return {
    items: raw.data.map(toSummary),
    page: raw.meta.current_page,
    lastPage: Math.max(1, raw.meta.last_page),
    total: raw.meta.total,
    perPage: raw.meta.per_page,
    seed: raw.meta.seed ?? null,
    query,
  };
}

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

type LimiterSettings = Pick<LimiterOptions, 'minTimeMs' | 'maxConcurrent' | 'maxQueued'>;

/** Wallhaven's published limit: 45 requests per minute, per client, with or without a key. */
export const WALLHAVEN_RATE_LIMIT = { requests: 45, windowMs: 60_000 } as const;

/**
 * What one Discord user may spend of that shared budget: 10 requests in any minute, under a quarter
 * of the 43 the limiter sends, so no single member can leave everyone else with "busy" answers.
 * Answers from the cache (pages already loaded, wallpapers already shown) cost nothing.
 */
export const WALLHAVEN_USER_BUDGET = { limit: 10, windowMs: 60_000 } as const;

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

export interface WallhavenServiceOptions {
  baseUrl: string;
  /** Unlocks NSFW. Sent only as the `X-API-Key` header, never in a URL, a log or an error. */
  apiKey?: string;
  limiterFactory: LimiterFactory;
  cacheFactory: CacheFactory;
  dispatcher?: Dispatcher;
  metrics?: Metrics;
  /** Total deadline of one request, headers and body (default 8 s). */
  requestTimeoutMs?: number;
  /** Override the limiter (tests); defaults to `WALLHAVEN_LIMITS`. */
  limits?: Partial<LimiterSettings>;
  /** Clock for the caches and health, injectable for tests. */
  now?: () => number;
}

/**
 * `beforeRequest` is called before anything is queued when the call needs a request to Wallhaven:
 * nothing cached can answer it, or a cached answer has expired and would be refreshed. Throwing
 * refuses the request without sending anything (an expired answer is then served as it is):
 * commands charge requests to the member's share. A remembered "no such wallpaper" is counted too.
 */
export type WallhavenCallOptions = RequestCharge;

/**
 * Wallhaven API v1: search, detail and random picks, with every request through one limiter that
 * holds 43 per minute, a pause of the whole upstream on 429, and caches for details and searches.
 */
export class WallhavenService {
  /** Whether NSFW searches are possible (a key is configured). */
  readonly nsfwAvailable: boolean;
  private readonly http: UpstreamHttp;
  private readonly limiter: UpstreamLimiter;
  private readonly detailCache: UpstreamCache<WallpaperDetail>;
  private readonly searchCache: UpstreamCache<WallpaperPage>;
  /** Per (query, categories): the rest of a drawn random page, handed out one pick at a time. */
  private readonly randomPools = new LRUCache<string, WallpaperSummary[]>({ max: 100, ttl: RANDOM_POOL_TTL_MS });
  private readonly randomRefills = new Map<string, Promise<number>>();
  private readonly tracker: HealthTracker;
  private readonly requestTimeoutMs: number;
  private rateLimitRemaining: number | undefined;

  constructor(options: WallhavenServiceOptions) {
    const service = 'WallhavenService';
    this.requestTimeoutMs = numberOption(service, 'requestTimeoutMs', options.requestTimeoutMs, 8_000);
    if (options.apiKey !== undefined && !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError(`${service}: option "apiKey" must be printable ASCII without spaces`);
    }
    this.nsfwAvailable = options.apiKey !== undefined;
    this.http = new UpstreamHttp({
      upstream: 'wallhaven',
      baseUrl: baseUrlOption(service, options.baseUrl),
      pathPrefixes: ['/api/v1/search', '/api/v1/w/'],
      dispatcher: options.dispatcher,
      headers: options.apiKey === undefined ? undefined : { 'x-api-key': options.apiKey },
      maxBodyBytes: 2 * 1024 * 1024,
      metrics: options.metrics,
    });
    this.limiter = options.limiterFactory({
      upstream: 'wallhaven',
      ...WALLHAVEN_LIMITS,
      ...options.limits,
      jobExpirationMs: this.requestTimeoutMs + 2_000,
      now: options.now,
    });
    this.detailCache = options.cacheFactory<WallpaperDetail>({
      name: 'wallhaven-detail',
      max: 500,
      ttlMs: DETAIL_TTL_MS,
      negativeTtlMs: NEGATIVE_TTL_MS,
      load: (id) => this.fetchDetail(id),
      now: options.now,
    });
    this.searchCache = options.cacheFactory<WallpaperPage>({
      name: 'wallhaven-search',
      max: 200,
      ttlMs: SEARCH_TTL_MS,
      negativeTtlMs: NEGATIVE_TTL_MS,
      // The key is the canonical query string itself (see buildSearchQuery).
      load: (key) => this.fetchSearch(Object.fromEntries(new URLSearchParams(key))),
      now: options.now,
    });
    this.tracker = new HealthTracker(options.now);
  }

  /**
   * One page of results. A page after the last one rejects with `not_found` / `PAGE_PAST_THE_END`.
   * Cached for 5 minutes by the full parameter set, except random pages without a seed.
   */
  async search(search: WallpaperSearch, options: WallhavenCallOptions = {}): Promise<WallpaperPage> {
    const query = buildSearchQuery(search, { apiKeyConfigured: this.nsfwAvailable });
    if (!isCacheableSearch(query)) {
      await options.beforeRequest?.();
      return this.fetchSearch(query);
    }
    return this.searchCache.get(new URLSearchParams(query).toString(), options);
  }

  /** A wallpaper with its uploader and tags (validate user input with `parseWallpaperId` first). */
  async detail(id: string, options: WallhavenCallOptions = {}): Promise<WallpaperDetail> {
    if (!WALLPAPER_ID_PATTERN.test(id)) throw new UpstreamError('wallhaven', 'invalid_input', 'not a wallpaper id');
    return this.detailCache.get(id, options);
  }

  /**
   * A random SFW wallpaper. One `sorting=random` page (24 results) serves the next 24 calls for the
   * same query and categories; concurrent callers share one refill.
   */
  async randomPick(query: string | undefined, categories: CategoryFilter, options: WallhavenCallOptions = {}): Promise<WallpaperSummary> {
    const search = buildSearchQuery({ query, categories, purity: SFW_ONLY, sorting: 'random', page: 1 }, { apiKeyConfigured: this.nsfwAvailable });
    const key = new URLSearchParams(search).toString();
    for (;;) {
      const pick = this.randomPools.get(key)?.pop();
      if (pick) return pick;
      await options.beforeRequest?.();
      if ((await this.refillRandomPool(key, search)) === 0) throw new UpstreamError('wallhaven', 'not_found', 'no wallpapers match');
    }
  }

  /** How long a request made now would wait for the limiter (the command defers when it is long). */
  expectedWaitMs(): number {
    return this.limiter.expectedWaitMs();
  }

  health(): UpstreamHealth {
    const details: Record<string, string | number> = { apiKey: this.nsfwAvailable ? 'configured' : 'none' };
    if (this.rateLimitRemaining !== undefined) details.rateLimitRemaining = this.rateLimitRemaining;
    return {
      upstream: 'wallhaven',
      lastSuccessAt: this.tracker.lastSuccessAt,
      lastFailureAt: this.tracker.lastFailureAt,
      lastFailure: this.tracker.lastFailure,
      lastLatencyMs: this.tracker.lastLatencyMs,
      limiter: this.limiter.state(),
      caches: [this.detailCache.stats(), this.searchCache.stats()],
      details,
    };
  }

  async close(): Promise<void> {
    await this.limiter.stop();
    await this.http.close();
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
    const body = await this.request(this.http.url('/api/v1/search', query), 'search');
    const answer = rawSearchAnswer.safeParse(body);
    if (!answer.success) throw new UpstreamError('wallhaven', 'bad_response', 'wallhaven search answer has an unexpected shape', { status: 200 });
    return toPage(answer.data, query.q);
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
  private request(url: URL, kind: 'search' | 'detail'): Promise<unknown> {
    return this.limiter.schedule(() =>
      this.tracker.track(async () => {
        const response = await this.http.get(url, { signal: AbortSignal.timeout(this.requestTimeoutMs) });
        const remaining = Number(response.headers['x-ratelimit-remaining']);
        if (Number.isInteger(remaining)) this.rateLimitRemaining = remaining;
        return this.interpret(response, kind);
      }),
    );
  }

  private interpret(response: UpstreamResponse, kind: 'search' | 'detail'): unknown {
    try {
      // 429 (an HTML page) → rate_limited; 5xx and HTML pages (Cloudflare's 403 challenge) → unavailable.
      checkCommonFailures('wallhaven', response, RETRY_AFTER_FALLBACK_MS);
    } catch (error) {
      if (isUpstreamError(error, 'rate_limited')) {
        this.limiter.pause(error.retryAfterMs ?? RETRY_AFTER_FALLBACK_MS, 'wallhaven answered 429');
      }
      throw error;
    }
    const { status } = response;
    if (status === 200) return parseJson('wallhaven', response);
    if (status === 400 && kind === 'search') throw new UpstreamError('wallhaven', 'not_found', PAGE_PAST_THE_END, { status });
    if (status === 401) {
      throw new UpstreamError('wallhaven', 'unauthorized', 'wallhaven refused: the API key is missing or invalid (NSFW content needs one)', { status });
    }
    // `{"error":"Nothing here"}` is an unknown wallpaper; `{"error":"Not Found"}` would be a route we got wrong.
    if (status === 404 && kind === 'detail' && errorText(response) === 'Nothing here') {
      throw new UpstreamError('wallhaven', 'not_found', 'no wallpaper with this id', { status });
    }
    throw new UpstreamError('wallhaven', 'bad_response', `wallhaven answered ${status}`, { status });
  }
}

function errorText(response: UpstreamResponse): string | undefined {
  try {
    const body = JSON.parse(response.body.toString('utf8')) as unknown;
    return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
  } catch {
    return undefined;
  }
}
