import type { Dispatcher } from 'undici';
import {
  CARD_LANGUAGES,
  normaliseCard,
  normaliseCards,
  normaliseLocalizedCard,
  type Card,
  type CardLanguage,
  type CardListNormalisation,
  type LocalizedCard,
} from '../cards/card.js';
import { normaliseCardSets, SET_IMAGE_STEM_PATTERN, type CardSetListNormalisation } from '../cards/card-set.js';
import type { Metrics } from '../runtime/metrics.js';
import { createLocalCacheFactory, type CacheFactory, type MemberShareSpender, type UpstreamCache } from './cache.js';
import { HealthTracker } from './health.js';
import type { UpstreamHealth } from '../runtime/status-report.js';
import { UpstreamHttp, isHtml, parseJson, parseRetryAfter, type DownloadProgress, type UpstreamResponse } from './http.js';
import { createLocalLimiterFactory, type LimiterFactory, type LimiterOptions, type UpstreamLimiter } from './limiter.js';
import { baseUrlOption } from './service-options.js';
import { UpstreamError } from '../interaction/upstream-error.js';

/**
 * YGOPRODeck allows 20 requests/s per IP and bans the IP for an hour past it; the image hosts count
 * toward the same budget. We keep to half: at most 10 in any sliding second, as the server counts
 * them. Requests leave at most every 125 ms (8/s) because the server sees them after network
 * jitter and scheduling delays, which bunch them: with 100 ms spacing our own fake, on a busy
 * machine, counted 11 in a second. 8/s is plenty: card data is local and each image is fetched once.
 * A short queue turns bursts into `busy` answers instead of long waits. A job may be the whole
 * ≈20 MB database download, so expiration is longer than that download's own timeout.
 */
export const YGOPRODECK_LIMITS: Readonly<YgoprodeckLimits> = {
  minTimeMs: 125,
  maxConcurrent: 4,
  maxQueued: 60,
  jobExpirationMs: 150_000,
};

export type YgoprodeckLimits = Omit<LimiterOptions, 'upstream' | 'now'>;

/** The upstream's own limit, for tests and documentation: ours must stay well under it. */
export const YGOPRODECK_UPSTREAM_LIMIT = { windowMs: 1_000, maxRequests: 20 } as const;

/**
 * How long the circuit stays open. A 429/403 or an HTML page most likely means the IP is banned
 * (an hour, per the API guide), so wait for Retry-After or the whole hour; a plain 5xx is an outage
 * that deserves a short pause only. Retry-After is honoured but never shorter than `minBlockMs`,
 * so a tiny value cannot send us straight back into a ban.
 */
export const YGOPRODECK_CIRCUIT = {
  blockedMs: 60 * 60_000,
  minBlockMs: 30_000,
  maxBlockMs: 2 * 60 * 60_000,
  unavailableMs: 30_000,
} as const;

/** Card data changes rarely: a day for cards, hours for translations, an hour for "no such card". */
export const YGOPRODECK_CACHE = {
  cardTtlMs: 24 * 60 * 60_000,
  notFoundTtlMs: 60 * 60_000,
  localizedTtlMs: 6 * 60 * 60_000,
  maxEntries: 2_000,
} as const;

const REQUEST_TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 120_000;
const API_PREFIX = '/api/v7/';
/** Card art is a few hundred KB at most; anything bigger is not an image we want. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_IMAGES_URL = 'https://images.ygoprodeck.com/images';

export type CardImageSize = 'full' | 'small' | 'cropped';
export const CARD_IMAGE_SIZES: readonly CardImageSize[] = ['full', 'small', 'cropped'];
const IMAGE_FOLDERS: Readonly<Record<CardImageSize, string>> = {
  full: 'cards',
  small: 'cards_small',
  cropped: 'cards_cropped',
};
/** Set images (booster art) live next to the card art: `…/images/sets/<name>.jpg`. */
const SET_IMAGE_FOLDER = 'sets';

export interface DatabaseVersion {
  /** `database_version`, a string such as "42.01". */
  version: string;
  /** `last_update`, as upstream formats it, when present. */
  lastUpdate?: string;
}

export interface YgoprodeckClientOptions {
  /** The API origin, e.g. `https://db.ygoprodeck.com` (the API lives under `/api/v7`). */
  baseUrl: string;
  /**
   * Where card and set art live (`YGOPRODECK_IMAGES_URL`), e.g. `https://images.ygoprodeck.com/images`
   * (the default): `<base>/cards/<id>.jpg`, `<base>/sets/<name>.jpg`.
   */
  imagesBaseUrl?: string;
  dispatcher?: Dispatcher;
  limiterFactory?: LimiterFactory;
  cacheFactory?: CacheFactory;
  /** Overrides for the limiter settings, for tests only (production uses `YGOPRODECK_LIMITS`). */
  limits?: Partial<YgoprodeckLimits>;
  metrics?: Metrics;
  now?: () => number;
}

interface OutgoingRequest {
  http: UpstreamHttp;
  url: URL;
  resource: 'api' | 'image';
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  onProgress?: DownloadProgress | undefined;
}

interface QueuedTicket {
  abandon(error: UpstreamError): void;
}

/**
 * The only way to YGOPRODeck's API and image hosts. Every request goes through one limiter; a
 * response that looks like a block opens a circuit (pauses the limiter) and fails everything already
 * queued at once, so nothing is sent until it closes. Raw JSON is validated and normalised here.
 */
export class YgoprodeckClient {
  private readonly api: UpstreamHttp;
  private readonly images: UpstreamHttp;
  private readonly limiter: UpstreamLimiter;
  private readonly cards: UpstreamCache<Card>;
  private readonly localizedCards: UpstreamCache<LocalizedCard>;
  private readonly tracker: HealthTracker;
  private readonly queued = new Set<QueuedTicket>();

  constructor(options: YgoprodeckClientOptions) {
    const baseUrl = baseUrlOption('YgoprodeckClient', options.baseUrl);
    const imagesBaseUrl = baseUrlOption('YgoprodeckClient', options.imagesBaseUrl ?? DEFAULT_IMAGES_URL, 'imagesBaseUrl');
    const timeouts = { connectMs: 3_000, headersMs: REQUEST_TIMEOUT_MS, bodyMs: REQUEST_TIMEOUT_MS };
    this.api = new UpstreamHttp({
      upstream: 'ygoprodeck',
      baseUrl,
      pathPrefixes: [API_PREFIX],
      dispatcher: options.dispatcher,
      timeouts,
      maxBodyBytes: 128 * 1024 * 1024,
      metrics: options.metrics,
    });
    this.images = new UpstreamHttp({
      upstream: 'ygoprodeck',
      baseUrl: imagesBaseUrl,
      pathPrefixes: [...Object.values(IMAGE_FOLDERS), SET_IMAGE_FOLDER].map((folder) => `/${folder}/`),
      dispatcher: options.dispatcher,
      timeouts,
      maxBodyBytes: MAX_IMAGE_BYTES,
      metrics: options.metrics,
    });
    const limiterFactory = options.limiterFactory ?? createLocalLimiterFactory(options.metrics);
    this.limiter = limiterFactory({ upstream: 'ygoprodeck', ...YGOPRODECK_LIMITS, ...options.limits, now: options.now });
    const cacheFactory = options.cacheFactory ?? createLocalCacheFactory(options.metrics);
    this.cards = cacheFactory<Card>({
      name: 'ygoprodeck-cards',
      max: YGOPRODECK_CACHE.maxEntries,
      ttlMs: YGOPRODECK_CACHE.cardTtlMs,
      negativeTtlMs: YGOPRODECK_CACHE.notFoundTtlMs,
      now: options.now,
      load: (key, signal) => this.loadCard(key, signal),
    });
    this.localizedCards = cacheFactory<LocalizedCard>({
      name: 'ygoprodeck-localized',
      max: YGOPRODECK_CACHE.maxEntries,
      ttlMs: YGOPRODECK_CACHE.localizedTtlMs,
      negativeTtlMs: YGOPRODECK_CACHE.notFoundTtlMs,
      now: options.now,
      load: (key, signal) => this.loadLocalized(key, signal),
    });
    this.tracker = new HealthTracker(options.now);
  }

  /** The card with this passcode (cached; a request or refresh is spent from `share`). */
  async cardById(id: number, share?: MemberShareSpender): Promise<Card> {
    return this.cards.get(`id:${requireCardId(id)}`, share);
  }

  /** The card with exactly this name, ignoring case (cached; a request or refresh is spent from `share`). */
  async cardByName(name: string, share?: MemberShareSpender): Promise<Card> {
    return this.cards.get(`name:${requireCardName(name).toLowerCase()}`, share);
  }

  /**
   * The card's name and texts in another language (cached for hours): only while that language's
   * database has never loaded (see `CardService.localize`). A download or refresh is spent from `share`.
   */
  async localized(id: number, language: CardLanguage, share?: MemberShareSpender): Promise<LocalizedCard> {
    if (!(CARD_LANGUAGES as readonly string[]).includes(language)) {
      throw new UpstreamError('ygoprodeck', 'invalid_input', `unsupported card language`);
    }
    return this.localizedCards.get(`${language}:${requireCardId(id)}`, share);
  }

  /** `checkDBVer.php`: the version of the card database (never cached: it is what polling is for). */
  async databaseVersion(): Promise<DatabaseVersion> {
    const body = await this.getJson(this.api.url(`${API_PREFIX}checkDBVer.php`));
    const entry: unknown = Array.isArray(body) ? body[0] : body;
    const version = (entry as { database_version?: unknown } | null)?.database_version;
    const lastUpdate = (entry as { last_update?: unknown } | null)?.last_update;
    if ((typeof version !== 'string' && typeof version !== 'number') || String(version).trim() === '') {
      throw new UpstreamError('ygoprodeck', 'bad_response', 'checkDBVer.php answered without a database_version');
    }
    return { version: String(version).trim(), ...(typeof lastUpdate === 'string' ? { lastUpdate } : {}) };
  }

  /** The whole card database (`cardinfo.php?misc=yes`, ≈20 MB), validated card by card. */
  async downloadDatabase(signal?: AbortSignal, onProgress?: DownloadProgress): Promise<CardListNormalisation> {
    const url = this.api.url(`${API_PREFIX}cardinfo.php`, { misc: 'yes' });
    return this.send({ http: this.api, url, signal, onProgress, timeoutMs: DOWNLOAD_TIMEOUT_MS, resource: 'api' }, (response) =>
      parseCardinfoBody(response.body),
    );
  }

  /**
   * A language's whole database (`cardinfo.php?language=…`, about as large as the English one):
   * the cards YGOPRODeck has translated, names and texts in that language, validated card by card.
   */
  async downloadTexts(language: CardLanguage, signal?: AbortSignal): Promise<CardListNormalisation> {
    if (!(CARD_LANGUAGES as readonly string[]).includes(language)) {
      throw new UpstreamError('ygoprodeck', 'invalid_input', 'unsupported card language');
    }
    const url = this.api.url(`${API_PREFIX}cardinfo.php`, { language });
    return this.send({ http: this.api, url, signal, timeoutMs: DOWNLOAD_TIMEOUT_MS, resource: 'api' }, (response) =>
      parseCardinfoBody(response.body),
    );
  }

  /**
   * `cardsets.php`: every card set (≈1,000, ≈150 KB), validated set by set. A bare array upstream;
   * callers store it (it is asked for at most daily), so nothing here caches it.
   */
  async cardSets(signal?: AbortSignal): Promise<CardSetListNormalisation> {
    const body = await this.getJson(this.api.url(`${API_PREFIX}cardsets.php`), signal);
    if (!Array.isArray(body)) throw new UpstreamError('ygoprodeck', 'bad_response', 'cardsets.php answered without an array');
    return normaliseCardSets(body);
  }

  /** A set's image by its file name (`CardSet.imageStem`), as downloaded; the image store validates and keeps it. */
  async setImage(stem: string): Promise<Buffer> {
    if (typeof stem !== 'string' || !SET_IMAGE_STEM_PATTERN.test(stem)) {
      throw new UpstreamError('ygoprodeck', 'invalid_input', 'a set image name must be 1-40 letters, digits, "_" or "-"');
    }
    const url = this.images.url(`/${SET_IMAGE_FOLDER}/${stem}.jpg`);
    return this.send({ http: this.images, url, timeoutMs: REQUEST_TIMEOUT_MS, resource: 'image' }, (response) => response.body);
  }

  /** One card image, as downloaded (callers validate and store it: nothing here caches images). */
  async image(imageId: number, size: CardImageSize): Promise<Buffer> {
    const folder = IMAGE_FOLDERS[size];
    if (folder === undefined) throw new UpstreamError('ygoprodeck', 'invalid_input', 'unknown image size');
    const url = this.images.url(`/${folder}/${requireCardId(imageId)}.jpg`);
    return this.send({ http: this.images, url, timeoutMs: REQUEST_TIMEOUT_MS, resource: 'image' }, (response) => response.body);
  }

  /** For /status; `details` are the card database's and image store's facts. */
  health(details: Record<string, string | number> = {}): UpstreamHealth {
    return {
      upstream: 'ygoprodeck',
      lastSuccessAt: this.tracker.lastSuccessAt,
      lastFailureAt: this.tracker.lastFailureAt,
      lastFailure: this.tracker.lastFailure,
      lastLatencyMs: this.tracker.lastLatencyMs,
      limiter: this.limiter.state(),
      caches: [this.cards.stats(), this.localizedCards.stats()],
      details,
    };
  }

  async close(): Promise<void> {
    await this.limiter.stop();
    await Promise.all([this.api.close(), this.images.close()]);
  }

  private async loadCard(key: string, signal: AbortSignal): Promise<Card> {
    const [by, value = ''] = splitKey(key);
    const data = await this.getCardData({ [by === 'id' ? 'id' : 'name']: value, misc: 'yes' }, signal);
    // `name` is exact but case-insensitive upstream; prefer the card whose name matches as typed.
    const raw = data.find((card) => by === 'name' && rawName(card)?.toLowerCase() === value) ?? data[0];
    const result = normaliseCard(raw);
    if (!result.ok) throw new UpstreamError('ygoprodeck', 'bad_response', `cardinfo.php sent an invalid card (${result.problem})`);
    // A name lookup also answers the id lookup for the same card.
    if (by === 'name') this.cards.set(`id:${result.card.id}`, result.card);
    return result.card;
  }

  private async loadLocalized(key: string, signal: AbortSignal): Promise<LocalizedCard> {
    const [language = '', id = ''] = splitKey(key);
    const data = await this.getCardData({ id, language, misc: 'yes' }, signal);
    const card = normaliseLocalizedCard(data[0], language as CardLanguage);
    if (card === null) throw new UpstreamError('ygoprodeck', 'bad_response', 'cardinfo.php sent an invalid translated card');
    return card;
  }

  private async getCardData(query: Record<string, string>, signal: AbortSignal): Promise<unknown[]> {
    const body = await this.getJson(this.api.url(`${API_PREFIX}cardinfo.php`, query), signal);
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length === 0) {
      throw new UpstreamError('ygoprodeck', 'bad_response', 'cardinfo.php answered without a data array');
    }
    return data;
  }

  private async getJson(url: URL, signal?: AbortSignal): Promise<unknown> {
    return this.send({ http: this.api, url, signal, timeoutMs: REQUEST_TIMEOUT_MS, resource: 'api' }, (response) =>
      parseJson('ygoprodeck', response),
    );
  }

  /** One request through the limiter and the circuit; `read` interprets a 200 (its failures count in /status too). */
  private async send<T>(request: OutgoingRequest, read: (response: UpstreamResponse) => T): Promise<T> {
    const accept = request.resource === 'image' ? 'image/jpeg,image/png,image/*' : 'application/json';
    return this.tracker.track(async () => {
      // The response is checked inside the job, so a block opens the circuit before another job can start.
      const response = await this.throughLimiter(async () => {
        // The timeout starts with the request, not while it waits in the queue.
        const timeout = AbortSignal.timeout(request.timeoutMs);
        const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
        const received = await request.http.get(request.url, { signal, accept, onProgress: request.onProgress });
        this.check(received, request.resource);
        return received;
      });
      return read(response);
    });
  }

  /**
   * Schedules a job, and lets it be abandoned while it waits: when the circuit opens, every queued
   * caller gets the error at once (rather than waiting out an hour-long pause) and its job, when the
   * limiter finally runs it, sends nothing.
   */
  private async throughLimiter<T>(job: () => Promise<T>): Promise<T> {
    let ticket!: QueuedTicket;
    const abandoned = new Promise<never>((_resolve, reject) => {
      ticket = { abandon: reject };
    });
    this.queued.add(ticket);
    try {
      return await Promise.race([
        this.limiter.schedule(async () => {
          if (!this.queued.delete(ticket)) return undefined as never;
          return job();
        }),
        abandoned,
      ]);
    } finally {
      this.queued.delete(ticket);
    }
  }

  private check(response: UpstreamResponse, resource: OutgoingRequest['resource']): void {
    const { status } = response;
    if (status === 429 || status === 403) {
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], YGOPRODECK_CIRCUIT.blockedMs, {
        minMs: YGOPRODECK_CIRCUIT.minBlockMs,
        maxMs: YGOPRODECK_CIRCUIT.maxBlockMs,
      });
      throw this.openCircuit(retryAfterMs, 'blocked', 'rate_limited', `YGOPRODeck answered ${status}: probably blocked`, status);
    }
    if (status >= 500) {
      throw this.openCircuit(YGOPRODECK_CIRCUIT.unavailableMs, 'unavailable', 'unavailable', `YGOPRODeck answered ${status}`, status);
    }
    if (status === 404) {
      // A missing image is an ordinary miss; a missing API route means a misconfigured base URL.
      throw resource === 'image'
        ? new UpstreamError('ygoprodeck', 'not_found', 'no such card image', { status })
        : new UpstreamError('ygoprodeck', 'bad_response', 'YGOPRODeck has no such API route', { status });
    }
    if (isHtml(response)) {
      // A 2xx/4xx HTML page in place of JSON or an image is a block or challenge page.
      throw this.openCircuit(YGOPRODECK_CIRCUIT.blockedMs, 'blocked', 'unavailable', `YGOPRODeck answered ${status} with an HTML page`, status);
    }
    if (status === 400) throw apiError(response);
    if (status !== 200) throw new UpstreamError('ygoprodeck', 'bad_response', `YGOPRODeck answered ${status}`, { status });
  }

  private openCircuit(ms: number, reason: string, kind: 'rate_limited' | 'unavailable', message: string, status: number): UpstreamError {
    this.limiter.pause(ms, reason);
    const error = new UpstreamError('ygoprodeck', kind, message, { status, retryAfterMs: ms });
    const waiting = [...this.queued];
    this.queued.clear();
    for (const ticket of waiting) ticket.abandon(new UpstreamError('ygoprodeck', kind, `YGOPRODeck circuit open (${reason})`, { retryAfterMs: ms }));
    return error;
  }
}

/** Parses a `cardinfo.php` body (`{"data":[…]}`) into normalised cards. */
function parseCardinfoBody(body: Buffer): CardListNormalisation {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new UpstreamError('ygoprodeck', 'bad_response', 'cardinfo.php body is not JSON (truncated?)', { cause: error });
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new UpstreamError('ygoprodeck', 'bad_response', 'cardinfo.php body has no data array');
  return normaliseCards(data);
}

const NO_MATCH_PREFIX = 'No card matching your query';

/** Every YGOPRODeck API error is a 400 with `{"error": "…"}`; "no match" is the one that means not found. */
function apiError(response: UpstreamResponse): UpstreamError {
  let message: unknown;
  try {
    message = (JSON.parse(response.body.toString('utf8')) as { error?: unknown } | null)?.error;
  } catch {
    message = undefined;
  }
  if (typeof message !== 'string') {
    return new UpstreamError('ygoprodeck', 'bad_response', 'YGOPRODeck answered 400 without an error message', { status: 400 });
  }
  if (message.startsWith(NO_MATCH_PREFIX)) {
    return new UpstreamError('ygoprodeck', 'not_found', 'no card matches', { status: 400 });
  }
  // The upstream's text describes the bad parameter; it never contains anything secret.
  return new UpstreamError('ygoprodeck', 'invalid_input', `YGOPRODeck refused the query: ${message.slice(0, 200)}`, { status: 400 });
}

/** Passcodes and image ids are positive integers of at most 10 digits. */
function requireCardId(id: number): number {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 9_999_999_999) {
    throw new UpstreamError('ygoprodeck', 'invalid_input', 'a card id must be a positive integer');
  }
  return id;
}

/**
 * Card names are at most ~70 characters. `|` separates several names upstream, so it would change
 * the query's meaning; control characters are never part of a name.
 */
function requireCardName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  // eslint-disable-next-line no-control-regex
  if (trimmed === '' || trimmed.length > 200 || /[\u0000-\u001f\u007f|]/.test(trimmed)) {
    throw new UpstreamError('ygoprodeck', 'invalid_input', 'a card name must be 1-200 printable characters without "|"');
  }
  return trimmed;
}

function splitKey(key: string): [string, string] {
  const separator = key.indexOf(':');
  return [key.slice(0, separator), key.slice(separator + 1)];
}

function rawName(card: unknown): string | undefined {
  const name = (card as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}
