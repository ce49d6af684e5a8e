import type { Dispatcher } from 'undici';
import { CARD_LANGUAGES, type Card, type CardLanguage, type LocalizedCard } from '../../cards/card.js';
import { normaliseCard, normaliseLocalizedCard } from '../../cards/normalise-card.js';
import { CardSetListReader, SET_IMAGE_STEM_PATTERN, type CardSetListNormalisation } from '../../cards/card-set.js';
import { UpstreamError } from '../../interaction/upstream-error.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { UpstreamHealth } from '../../runtime/status-report.js';
import type { CacheFactory, MemberShareSpender, UpstreamCache } from '../../upstream/cache.js';
import { parseJson, type DownloadProgress, type UpstreamHttp, type UpstreamResponse } from '../../upstream/http.js';
import type { LimiterFactory } from '../../upstream/limiter.js';
import { compactCardinfoBody, type CompactDownload, type ReadDownload } from '../off-thread/compact-download.js';
import { baseUrlOption, numberOption } from '../../upstream/service-options.js';
import { REQUEST_TIMEOUT_MS, UpstreamWiring } from '../../upstream/upstream.js';
import { inSlices } from '../../upstream/slices.js';
import { rawName, requireCardId, requireCardName, splitKey } from './ygoprodeck-answers.js';
import { YgoprodeckCircuit } from './ygoprodeck-circuit.js';
import { YGOPRODECK_CACHE, YGOPRODECK_LIMITS, type YgoprodeckLimits } from './ygoprodeck-limits.js';


const DOWNLOAD_TIMEOUT_MS = 120_000;
const API_PREFIX = '/api/v7/';
/** Card art is a few hundred KB at most; anything bigger is not an image we want. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const DEFAULT_IMAGES_URL = 'https://images.ygoprodeck.com/images';

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
  /** Deadline of one lookup or image request, headers and body (default `REQUEST_TIMEOUT_MS.ygoprodeck`); whole downloads have their own. */
  requestTimeoutMs?: number;
  /** How a whole database's body is read (off the event loop in the app: see src/services/off-thread); on the caller's thread by default. */
  readDownload?: ReadDownload;
}

interface OutgoingRequest {
  http: UpstreamHttp;
  url: URL;
  resource: 'api' | 'image';
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  onProgress?: DownloadProgress | undefined;
}


/**
 * The only way to YGOPRODeck's API and image hosts. Every request goes through one limiter; a
 * response that looks like a block opens a circuit (pauses the limiter) and fails everything already
 * queued at once, so nothing is sent until it closes. Raw JSON is validated and normalised here.
 */
export class YgoprodeckClient {
  private readonly upstream: UpstreamWiring;
  private readonly circuit: YgoprodeckCircuit;
  private readonly api: UpstreamHttp;
  private readonly images: UpstreamHttp;
  private readonly cards: UpstreamCache<Card>;
  private readonly localizedCards: UpstreamCache<LocalizedCard>;
  private readonly readDownload: ReadDownload;
  private readonly requestTimeoutMs: number;

  constructor(options: YgoprodeckClientOptions) {
    this.readDownload = options.readDownload ?? (async (body, kind) => compactCardinfoBody(body, kind));
    this.requestTimeoutMs = numberOption('YgoprodeckClient', 'requestTimeoutMs', options.requestTimeoutMs, REQUEST_TIMEOUT_MS.ygoprodeck);
    const baseUrl = baseUrlOption('YgoprodeckClient', options.baseUrl);
    const imagesBaseUrl = baseUrlOption('YgoprodeckClient', options.imagesBaseUrl ?? DEFAULT_IMAGES_URL, 'imagesBaseUrl');
    const timeouts = { connectMs: 3_000, headersMs: this.requestTimeoutMs, bodyMs: this.requestTimeoutMs };
    this.upstream = new UpstreamWiring({
      upstream: 'ygoprodeck',
      limits: { ...YGOPRODECK_LIMITS, ...options.limits },
      limiterFactory: options.limiterFactory,
      cacheFactory: options.cacheFactory,
      dispatcher: options.dispatcher,
      metrics: options.metrics,
      now: options.now,
    });
    this.circuit = new YgoprodeckCircuit(this.upstream.limiter);
    this.api = this.upstream.http({ baseUrl, pathPrefixes: [API_PREFIX], timeouts, maxBodyBytes: 128 * 1024 * 1024 });
    this.images = this.upstream.http({
      baseUrl: imagesBaseUrl,
      pathPrefixes: [...Object.values(IMAGE_FOLDERS), SET_IMAGE_FOLDER].map((folder) => `/${folder}/`),
      timeouts,
      maxBodyBytes: MAX_IMAGE_BYTES,
    });
    this.cards = this.upstream.cache<Card>({
      name: 'ygoprodeck-cards',
      max: YGOPRODECK_CACHE.maxEntries,
      ttlMs: YGOPRODECK_CACHE.cardTtlMs,
      negativeTtlMs: YGOPRODECK_CACHE.notFoundTtlMs,
      load: (key, signal) => this.loadCard(key, signal),
    });
    this.localizedCards = this.upstream.cache<LocalizedCard>({
      name: 'ygoprodeck-localized',
      max: YGOPRODECK_CACHE.maxEntries,
      ttlMs: YGOPRODECK_CACHE.localizedTtlMs,
      negativeTtlMs: YGOPRODECK_CACHE.notFoundTtlMs,
      load: (key, signal) => this.loadLocalized(key, signal),
    });
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

  /** The whole card database (`cardinfo.php?misc=yes`, ≈20 MB), validated card by card and compact. */
  async downloadDatabase(signal?: AbortSignal, onProgress?: DownloadProgress): Promise<CompactDownload> {
    const url = this.api.url(`${API_PREFIX}cardinfo.php`, { misc: 'yes' });
    return this.send({ http: this.api, url, signal, onProgress, timeoutMs: DOWNLOAD_TIMEOUT_MS, resource: 'api' }, (response) =>
      this.readDownload(response.body, 'cards', signal),
    );
  }

  /**
   * A language's whole database (`cardinfo.php?language=…`, about as large as the English one):
   * the cards YGOPRODeck has translated, names and texts in that language, validated card by card
   * and compact (`CardTranslation`s).
   */
  async downloadTexts(language: CardLanguage, signal?: AbortSignal): Promise<CompactDownload> {
    if (!(CARD_LANGUAGES as readonly string[]).includes(language)) {
      throw new UpstreamError('ygoprodeck', 'invalid_input', 'unsupported card language');
    }
    const url = this.api.url(`${API_PREFIX}cardinfo.php`, { language });
    return this.send({ http: this.api, url, signal, timeoutMs: DOWNLOAD_TIMEOUT_MS, resource: 'api' }, (response) =>
      this.readDownload(response.body, 'texts', signal),
    );
  }

  /**
   * The Genesys pool (`cardinfo.php?format=genesys&misc=yes`: without `misc` upstream leaves the
   * points out, AlanOC91/YGOPRODeck#540), about as large as the English database: kept as each
   * card's passcode, name and points (`GenesysEntry`).
   */
  async downloadGenesys(signal?: AbortSignal): Promise<CompactDownload> {
    const url = this.api.url(`${API_PREFIX}cardinfo.php`, { format: 'genesys', misc: 'yes' });
    return this.send({ http: this.api, url, signal, timeoutMs: DOWNLOAD_TIMEOUT_MS, resource: 'api' }, (response) =>
      this.readDownload(response.body, 'genesys', signal),
    );
  }

  /**
   * `cardsets.php`: every card set (≈1,000, ≈150 KB), validated set by set. A bare array upstream;
   * callers store it (it is asked for at most daily), so nothing here caches it.
   */
  async cardSets(signal?: AbortSignal): Promise<CardSetListNormalisation> {
    const body = await this.getJson(this.api.url(`${API_PREFIX}cardsets.php`), signal);
    if (!Array.isArray(body)) throw new UpstreamError('ygoprodeck', 'bad_response', 'cardsets.php answered without an array');
    // A thousand sets validated in one go held the event loop for tens of ms right after login.
    const reader = new CardSetListReader();
    await inSlices(body.length, (index) => reader.add(body[index], index));
    return reader.result();
  }

  /** A set's image by its file name (`CardSet.imageStem`), as downloaded; the image store validates and keeps it. */
  async setImage(stem: string): Promise<Buffer> {
    if (typeof stem !== 'string' || !SET_IMAGE_STEM_PATTERN.test(stem)) {
      throw new UpstreamError('ygoprodeck', 'invalid_input', 'a set image name must be 1-40 letters, digits, "_" or "-"');
    }
    const url = this.images.url(`/${SET_IMAGE_FOLDER}/${stem}.jpg`);
    return this.send({ http: this.images, url, timeoutMs: this.requestTimeoutMs, resource: 'image' }, (response) => response.body);
  }

  /** One card image, as downloaded (callers validate and store it: nothing here caches images). */
  async image(imageId: number, size: CardImageSize): Promise<Buffer> {
    const folder = IMAGE_FOLDERS[size];
    if (folder === undefined) throw new UpstreamError('ygoprodeck', 'invalid_input', 'unknown image size');
    const url = this.images.url(`/${folder}/${requireCardId(imageId)}.jpg`);
    return this.send({ http: this.images, url, timeoutMs: this.requestTimeoutMs, resource: 'image' }, (response) => response.body);
  }

  /** For /status; `details` are the card database's and image store's facts. */
  health(details: Record<string, string | number> = {}): UpstreamHealth {
    return this.upstream.health(details);
  }

  async close(): Promise<void> {
    await this.upstream.close();
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
    return this.send({ http: this.api, url, signal, timeoutMs: this.requestTimeoutMs, resource: 'api' }, (response) =>
      parseJson('ygoprodeck', response),
    );
  }

  /** One request through the limiter and the circuit; `read` interprets a 200 (its failures count in /status too). */
  private async send<T>(request: OutgoingRequest, read: (response: UpstreamResponse) => T): Promise<T> {
    const accept = request.resource === 'image' ? 'image/jpeg,image/png,image/*' : 'application/json';
    return this.upstream.tracker.track(async () => {
      // The response is checked inside the job, so a block opens the circuit before another job can start.
      const response = await this.circuit.throughLimiter(async () => {
        // The timeout starts with the request, not while it waits in the queue.
        const timeout = AbortSignal.timeout(request.timeoutMs);
        const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
        const received = await request.http.get(request.url, { signal, accept, onProgress: request.onProgress });
        this.circuit.check(received, request.resource);
        return received;
      });
      return read(response);
    });
  }
}
