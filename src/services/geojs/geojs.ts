import { parseIpAddress } from '../../ip/address.js';
import type { GeoRecord } from '../../ip/geo-record.js';
import { describeSpecialRange } from '../../ip/special-ranges.js';
import type { MemberShareSpender, UpstreamCache } from '../../upstream/cache.js';
import { matchAnswers, rawEgressAnswer, rawGeoAnswer } from './geojs-answer.js';
import type { UpstreamHealth } from '../../runtime/status-report.js';
import { isUpstreamError, UpstreamError } from '../../interaction/upstream-error.js';
import { checkCommonFailures, parseJson, type UpstreamHttp } from '../../upstream/http.js';
import type { LimiterSettings } from '../../upstream/limiter.js';
import { baseUrlOption, numberOption } from '../../upstream/service-options.js';
import { REQUEST_TIMEOUT_MS, UpstreamWiring, type UpstreamServiceOptions } from '../../upstream/upstream.js';


/**
 * GeoJS states no rate limit; these keep us polite towards a single-server volunteer service:
 * 2 concurrent, at most 10 a second as GeoJS receives them, at most 20 batches waiting. Starts
 * 110 ms apart rather than 100: at exactly 100, a first request slowed by its connection arrived
 * within the same second as the eleventh (seen in the bench's flood). Each waiting batch carries
 * every address that missed the cache during its window, so the queue bound is rarely reached.
 */
export const GEOJS_LIMITS: Readonly<LimiterSettings> = { minTimeMs: 110, maxConcurrent: 2, maxQueued: 20 };
/** Geo data changes with monthly MaxMind releases; 12 h keeps answers fresh enough for chat use. */
export const GEOJS_CACHE_TTL_MS = 12 * 60 * 60_000;
/** The address upstreams see Almanac from changes with the host's network, rarely: asked once an hour. */
export const EGRESS_CACHE_TTL_MS = 60 * 60_000;
/** Fallback pause if GeoJS ever answers 429 without Retry-After (it has no limit today). */
const GEOJS_RATE_LIMIT_FALLBACK_MS = 60_000;

export interface GeoServiceOptions extends UpstreamServiceOptions {
  baseUrl: string;
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** How long cache misses are collected into one request (default 5 ms). */
  batchWindowMs?: number;
  /** Most addresses in one `?ip=` list; keeps the URL far below any length limit (default 50). */
  maxBatchSize?: number;
  /** Retry a reset connection or a 5xx once, through the limiter again (default true). */
  retryOnce?: boolean;
}

interface PendingLookup {
  resolve(record: GeoRecord): void;
  reject(error: unknown): void;
}

/**
 * Geolocation by GeoJS. Each address is cached on its own; cache misses arriving within a few
 * milliseconds of each other are sent as one `/v1/ip/geo.json?ip=a,b,…` request. The per-address
 * cache coalesces concurrent lookups of the same address, and its loader joins the pending batch,
 * so N callers asking about overlapping addresses cause at most one request per batch window.
 * Only the list form is used (never `/geo/<ip>.json`): one URL shape, one response shape, and the
 * user's value only ever travels as a query parameter.
 */
export class GeoService {
  private readonly upstream: UpstreamWiring;
  private readonly http: UpstreamHttp;
  private readonly cache: UpstreamCache<GeoRecord>;
  private readonly egressCache: UpstreamCache<string>;
  private readonly requestTimeoutMs: number;
  private readonly batchWindowMs: number;
  private readonly maxBatchSize: number;
  private readonly retryOnce: boolean;
  private pending = new Map<string, PendingLookup[]>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(options: GeoServiceOptions) {
    this.requestTimeoutMs = numberOption('GeoService', 'requestTimeoutMs', options.requestTimeoutMs, REQUEST_TIMEOUT_MS.geojs);
    this.batchWindowMs = numberOption('GeoService', 'batchWindowMs', options.batchWindowMs, 5, true);
    this.maxBatchSize = numberOption('GeoService', 'maxBatchSize', options.maxBatchSize, 50);
    this.retryOnce = options.retryOnce ?? true;
    const baseUrl = baseUrlOption('GeoService', options.baseUrl);
    this.upstream = new UpstreamWiring({
      upstream: 'geojs',
      limits: { ...GEOJS_LIMITS, ...options.limits, jobExpirationMs: this.requestTimeoutMs + 2_000 },
      limiterFactory: options.limiterFactory,
      cacheFactory: options.cacheFactory,
      dispatcher: options.dispatcher,
      metrics: options.metrics,
      now: options.now,
    });
    this.http = this.upstream.http({ baseUrl, pathPrefixes: ['/v1/ip/geo.json', '/v1/ip.json'], maxBodyBytes: 512 * 1024 });
    this.cache = this.upstream.cache<GeoRecord>({
      name: 'geojs-ip',
      max: numberOption('GeoService', 'cacheMaxEntries', options.cacheMaxEntries, 10_000),
      ttlMs: numberOption('GeoService', 'cacheTtlMs', options.cacheTtlMs, GEOJS_CACHE_TTL_MS),
      load: (address) => this.joinBatch(address),
    });
    this.egressCache = this.upstream.cache<string>({
      name: 'geojs-egress',
      max: 1,
      ttlMs: EGRESS_CACHE_TTL_MS,
      load: () => this.upstream.limiter.schedule(() => this.upstream.tracker.track(() => this.fetchEgress())),
    });
  }

  /**
   * The address GeoJS (and so every upstream) sees this host from, with its network: what limits
   * are counted against. Operators' eyes only (a public address of the host is a target). No member
   * pays for it.
   */
  async egress(): Promise<GeoRecord> {
    const address = await this.egressCache.get('egress');
    const records = await this.lookup([address]);
    return records.get(address)!;
  }

  /**
   * Looks up addresses (validated again here: nothing unvalidated reaches a URL). The map is keyed
   * by the strings given; equal addresses in different spellings share one lookup. Rejects with the
   * first failure when an address cannot be answered; an expired entry is served while GeoJS is down.
   * `share.beforeRequest` is called once per address that needs a request (missing or expired).
   */
  async lookup(addresses: readonly string[], share?: MemberShareSpender): Promise<Map<string, GeoRecord>> {
    const canonical = new Map<string, string>();
    for (const input of addresses) {
      const parsed = parseIpAddress(input);
      if (!parsed.ok) throw new UpstreamError('geojs', 'invalid_input', `not a usable IP address (${parsed.problem})`);
      canonical.set(input, parsed.address);
    }
    const unique = [...new Set(canonical.values())];
    // GeoJS knows nothing about special-purpose addresses (private, loopback, documentation…): they are
    // answered here, so they cost no request and work offline.
    const records = await Promise.all(
      unique.map((address) => (describeSpecialRange(address) === null ? this.cache.get(address, share) : { ip: address, known: false })),
    );
    const byAddress = new Map(unique.map((address, index) => [address, records[index]!]));
    return new Map([...canonical].map(([input, address]) => [input, byAddress.get(address)!]));
  }

  health(): UpstreamHealth {
    return this.upstream.health();
  }

  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    const waiting = this.pending;
    this.pending = new Map();
    const closed = new UpstreamError('geojs', 'unavailable', 'geojs service closed');
    for (const waiters of waiting.values()) for (const waiter of waiters) waiter.reject(closed);
    await this.upstream.close();
  }

  /** The cache loader: parks the address in the next batch. */
  private joinBatch(address: string): Promise<GeoRecord> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(address);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(address, [{ resolve, reject }]);
      if (this.pending.size >= this.maxBatchSize) this.flush();
      else this.flushTimer ??= setTimeout(() => this.flush(), this.batchWindowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size > 0) void this.settleBatch(batch);
  }

  private async settleBatch(batch: Map<string, PendingLookup[]>): Promise<void> {
    let records: Map<string, GeoRecord>;
    try {
      records = await this.requestBatch([...batch.keys()]);
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      return;
    }
    for (const [address, waiters] of batch) {
      const record = records.get(address);
      for (const waiter of waiters) {
        if (record) waiter.resolve(record);
        else waiter.reject(new UpstreamError('geojs', 'bad_response', 'geojs answer had no record for one of the addresses'));
      }
    }
  }

  private async requestBatch(addresses: string[]): Promise<Map<string, GeoRecord>> {
    const attempt = () => this.upstream.limiter.schedule(() => this.upstream.tracker.track(() => this.fetchBatch(addresses)));
    try {
      return await attempt();
    } catch (error) {
      if (!this.retryOnce || !isWorthOneRetry(error)) throw error;
      return attempt();
    }
  }

  private async fetchBatch(addresses: string[]): Promise<Map<string, GeoRecord>> {
    const answer = rawGeoAnswer.safeParse(await this.getJson(this.http.url('/v1/ip/geo.json', { ip: addresses.join(',') })));
    if (!answer.success) {
      throw new UpstreamError('geojs', 'bad_response', 'geojs answer is not a list of geo records', { status: 200 });
    }
    return matchAnswers(addresses, answer.data);
  }

  /** `/v1/ip.json`: `{"ip":"…"}`, the caller's address, canonical. */
  private async fetchEgress(): Promise<string> {
    const answer = rawEgressAnswer.safeParse(await this.getJson(this.http.url('/v1/ip.json')));
    const parsed = answer.success ? parseIpAddress(answer.data.ip) : undefined;
    if (!parsed?.ok) throw new UpstreamError('geojs', 'bad_response', 'geojs did not say which address it sees', { status: 200 });
    return parsed.address;
  }

  /** One GET through GeoJS's failure rules: its JSON body, or the upstream error it amounts to. */
  private async getJson(url: URL): Promise<unknown> {
    const response = await this.http.get(url, { signal: AbortSignal.timeout(this.requestTimeoutMs) });
    try {
      checkCommonFailures('geojs', response, GEOJS_RATE_LIMIT_FALLBACK_MS);
    } catch (error) {
      if (isUpstreamError(error, 'rate_limited')) this.upstream.limiter.pause(error.retryAfterMs ?? GEOJS_RATE_LIMIT_FALLBACK_MS, 'geojs answered 429');
      throw error;
    }
    if (response.status !== 200) {
      // GeoJS has no JSON errors: anything but 200 means it is not serving (e.g. a redirect).
      throw new UpstreamError('geojs', 'unavailable', `geojs answered ${response.status}`, { status: response.status });
    }
    return parseJson('geojs', response);
  }
}

/**
 * One more try helps when GeoJS's single server dropped a connection or hiccuped with a 5xx. Not
 * after a timeout: a second full wait would outlast the user's patience.
 */
function isWorthOneRetry(error: unknown): boolean {
  if (!isUpstreamError(error, 'unavailable')) return false;
  if (error.status !== undefined) return error.status >= 500;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ECONNREFUSED' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}
