import { BlockList, isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { Metrics } from '../metrics.js';
import type { CacheFactory, RequestCharge, UpstreamCache } from './cache.js';
import { HealthTracker, type UpstreamHealth } from './health.js';
import { checkCommonFailures, parseJson, UpstreamHttp } from './http.js';
import type { LimiterFactory, LimiterOptions, UpstreamLimiter } from './limiter.js';
import { baseUrlOption, numberOption } from './service-options.js';
import { isUpstreamError, UpstreamError } from './upstream-error.js';

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

export type ParsedIpAddress = { ok: true; address: string; version: 4 | 6 } | { ok: false; reason: string };

/**
 * Validates one user-supplied IP address and returns its canonical form (the cache key and the
 * value sent to GeoJS). IPv6 is lowercased and compressed (RFC 5952, via the WHATWG URL host
 * serialiser). An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is returned as the IPv4 address it
 * carries: GeoJS/MaxMind answer the same record for both, so they share one cache entry and one
 * request.
 */
export function parseIpAddress(input: string): ParsedIpAddress {
  const value = input.trim();
  if (value === '') return { ok: false, reason: 'empty: give an IPv4 or IPv6 address' };
  // `net.isIP` accepts zone ids (`fe80::1%eth0`); a `%` can also smuggle percent-encoding into a URL.
  if (value.includes('%')) return { ok: false, reason: 'zone ids (%…) and percent-encoded text are not supported' };
  if (value.includes('/')) {
    const [address, prefix] = value.split('/', 2);
    if (address !== undefined && isIP(address) !== 0 && /^\d{1,3}$/.test(prefix ?? '')) {
      return { ok: false, reason: 'looks like a CIDR range, give a single address' };
    }
    return { ok: false, reason: 'not an IP address' };
  }
  const version = isIP(value);
  if (version === 4) return { ok: true, address: value, version: 4 };
  if (version === 6) {
    const compressed = new URL(`http://[${value}]/`).hostname.slice(1, -1);
    const mapped = ipv4FromMapped(compressed);
    return mapped === undefined ? { ok: true, address: compressed, version: 6 } : { ok: true, address: mapped, version: 4 };
  }
  if (/^(\d{1,3}\.){3}\d{1,3}:\d+$/.test(value) || /^\[[0-9a-f:.]+\]:\d+$/i.test(value)) {
    return { ok: false, reason: 'looks like an address with a port, give the address alone' };
  }
  if (/^(?=.*[a-z])[a-z0-9-]+(\.[a-z0-9-]+)+\.?$/i.test(value)) {
    return { ok: false, reason: 'looks like a host name, give an IP address' };
  }
  return { ok: false, reason: 'not an IP address' };
}

/** `::ffff:102:304` (the compressed form of `::ffff:1.2.3.4`) → `1.2.3.4`. */
function ipv4FromMapped(compressed: string): string | undefined {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Most specific first: the first range that contains an address names it. */
const SPECIAL_RANGES: { label: string; ranges: [network: string, prefix: number][] }[] = [
  { label: 'unspecified', ranges: [['0.0.0.0', 32], ['::', 128]] },
  { label: 'loopback', ranges: [['127.0.0.0', 8], ['::1', 128]] },
  { label: 'broadcast', ranges: [['255.255.255.255', 32]] },
  { label: 'private network (RFC 1918)', ranges: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]] },
  { label: 'carrier-grade NAT (RFC 6598)', ranges: [['100.64.0.0', 10]] },
  { label: 'link-local', ranges: [['169.254.0.0', 16], ['fe80::', 10]] },
  { label: 'documentation range (RFC 5737)', ranges: [['192.0.2.0', 24], ['198.51.100.0', 24], ['203.0.113.0', 24]] },
  { label: 'documentation range (RFC 3849)', ranges: [['2001:db8::', 32]] },
  { label: 'documentation range (RFC 9637)', ranges: [['3fff::', 20]] },
  { label: 'benchmarking (RFC 2544)', ranges: [['198.18.0.0', 15]] },
  { label: 'benchmarking (RFC 5180)', ranges: [['2001:2::', 48]] },
  { label: 'unique local (RFC 4193)', ranges: [['fc00::', 7]] },
  { label: 'discard-only (RFC 6666)', ranges: [['100::', 64]] },
  { label: 'multicast', ranges: [['224.0.0.0', 4], ['ff00::', 8]] },
  {
    label: 'reserved',
    // "this network" 0/8, IETF protocol assignments, the retired 6to4 relay, class E, and the
    // IPv6 ::/8 block (IPv4-compatible and other unassigned forms; mapped ones were unwrapped above).
    ranges: [['0.0.0.0', 8], ['192.0.0.0', 24], ['192.88.99.0', 24], ['240.0.0.0', 4], ['::', 8]],
  },
];

// One list per family: a BlockList also matches IPv4 addresses against IPv6 rules (as ::ffff:a.b.c.d),
// which would put every IPv4 address inside the IPv6 ::/8 "reserved" block.
const SPECIAL_RANGE_LISTS = SPECIAL_RANGES.map(({ label, ranges }) => {
  const lists = { 4: new BlockList(), 6: new BlockList() };
  for (const [network, prefix] of ranges) {
    const version = isIP(network) === 4 ? 4 : 6;
    lists[version].addSubnet(network, prefix, version === 4 ? 'ipv4' : 'ipv6');
  }
  return { label, lists };
});

/**
 * Names the special-purpose range an address belongs to (GeoJS answers its "unknown" record for
 * all of them), or null for an ordinary public address or a string that is not an address.
 */
export function describeSpecialRange(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed.ok) return null;
  const family = parsed.version === 4 ? 'ipv4' : 'ipv6';
  return SPECIAL_RANGE_LISTS.find(({ lists }) => lists[parsed.version].check(parsed.address, family))?.label ?? null;
}

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

export interface GeoRecord {
  /** The canonical address (see `parseIpAddress`). */
  ip: string;
  /** False for GeoJS's "unknown" record: private, reserved and unrouted addresses, or no data. */
  known: boolean;
  country?: { code: string; code3?: string; name: string };
  region?: string;
  city?: string;
  continentCode?: string;
  latitude?: number;
  longitude?: number;
  accuracyKm?: number;
  /** Undefined when GeoJS has no network for the address (it reports the private ASN 64512). */
  asn?: number;
  organization?: string;
  /** An IANA zone this runtime knows (an unknown name is dropped rather than crash a formatter). */
  timezone?: string;
}

/** GeoJS's placeholder for "no ASN": the first private ASN. */
const UNKNOWN_ASN = 64512;

// No `null`s upstream: a missing value is a missing key, except lat/lon which are the string "nil".
// Coordinates were numbers in early versions, hence the union.
const rawGeoRecord = z.object({
  ip: z.string().optional(),
  accuracy: z.number().int().nonnegative().optional(),
  asn: z.number().int().nonnegative().optional(),
  city: z.string().optional(),
  continent_code: z.string().optional(),
  country: z.string().optional(),
  country_code: z.string().optional(),
  country_code3: z.string().optional(),
  latitude: z.union([z.string(), z.number()]).optional(),
  longitude: z.union([z.string(), z.number()]).optional(),
  organization: z.string().optional(),
  organization_name: z.string().optional(),
  region: z.string().optional(),
  timezone: z.string().optional(),
});
type RawGeoRecord = z.infer<typeof rawGeoRecord>;

/** The list form (`?ip=a,b`) always answers an array, even for one address. */
const rawGeoAnswer = z.array(rawGeoRecord);

/** A trimmed non-empty string, with GeoJS's "nil"/"" placeholders treated as absent. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' || trimmed === 'nil' ? undefined : trimmed;
}

function coordinate(value: string | number | undefined, limit: number): number | undefined {
  const raw = typeof value === 'number' ? value : text(value);
  if (raw === undefined) return undefined;
  const number = typeof raw === 'number' ? raw : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(number) && Math.abs(number) <= limit ? number : undefined;
}

function knownTimeZone(value: string | undefined): string | undefined {
  const zone = text(value);
  if (zone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

function organizationOf(raw: RawGeoRecord): string | undefined {
  // `organization` is the deprecated "AS<asn> <name>" form: only a fallback for the name.
  const name = text(raw.organization_name) ?? text(raw.organization?.replace(/^AS\d+\s*/, ''));
  return name === 'Unknown' ? undefined : name;
}

function toGeoRecord(ip: string, raw: RawGeoRecord): GeoRecord {
  const record: GeoRecord = { ip, known: false };
  const code = text(raw.country_code)?.toUpperCase();
  if (code !== undefined && /^[A-Z]{2}$/.test(code)) {
    const code3 = text(raw.country_code3)?.toUpperCase();
    record.country = { code, name: text(raw.country) ?? code };
    if (code3 !== undefined && /^[A-Z]{3}$/.test(code3)) record.country.code3 = code3;
  }
  const region = text(raw.region);
  if (region !== undefined) record.region = region;
  const city = text(raw.city);
  if (city !== undefined) record.city = city;
  const continent = text(raw.continent_code)?.toUpperCase();
  if (continent !== undefined && /^[A-Z]{2}$/.test(continent)) record.continentCode = continent;
  const latitude = coordinate(raw.latitude, 90);
  const longitude = coordinate(raw.longitude, 180);
  // A coordinate is only useful as a pair.
  if (latitude !== undefined && longitude !== undefined) {
    record.latitude = latitude;
    record.longitude = longitude;
    if (raw.accuracy !== undefined) record.accuracyKm = raw.accuracy;
  }
  if (raw.asn !== undefined && raw.asn !== UNKNOWN_ASN && raw.asn > 0) record.asn = raw.asn;
  const organization = organizationOf(raw);
  if (organization !== undefined) record.organization = organization;
  const timezone = knownTimeZone(raw.timezone);
  if (timezone !== undefined) record.timezone = timezone;
  record.known =
    record.country !== undefined ||
    record.city !== undefined ||
    record.region !== undefined ||
    record.latitude !== undefined ||
    record.asn !== undefined ||
    record.timezone !== undefined;
  return record;
}

/**
 * Pairs each answer with the address it is for. The `ip` echo decides (GeoJS echoes the string it
 * was sent, which is canonical because we send canonical forms; it is re-canonicalised anyway).
 * Only an entry whose echo is missing or unreadable falls back to its position, and only when the
 * answer has exactly one entry per address asked. An echo naming an address we did not ask about is
 * ignored rather than guessed at.
 */
function matchAnswers(requested: readonly string[], answers: readonly RawGeoRecord[]): Map<string, GeoRecord> {
  const wanted = new Set(requested);
  const records = new Map<string, GeoRecord>();
  const unreadable: number[] = [];
  answers.forEach((raw, index) => {
    const echo = raw.ip === undefined ? undefined : parseIpAddress(raw.ip);
    if (echo === undefined || !echo.ok) unreadable.push(index);
    else if (wanted.has(echo.address) && !records.has(echo.address)) records.set(echo.address, toGeoRecord(echo.address, raw));
  });
  if (answers.length === requested.length) {
    for (const index of unreadable) {
      const address = requested[index]!;
      if (!records.has(address)) records.set(address, toGeoRecord(address, answers[index]!));
    }
  }
  return records;
}

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

type LimiterSettings = Pick<LimiterOptions, 'minTimeMs' | 'maxConcurrent' | 'maxQueued'>;

/**
 * GeoJS states no rate limit; these keep us polite towards a single-server volunteer service:
 * 2 concurrent, 100 ms apart (≤ 10 req/s), at most 20 batches waiting. Each waiting batch carries
 * every address that missed the cache during its window, so the queue bound is rarely reached.
 */
export const GEOJS_LIMITS: Readonly<LimiterSettings> = { minTimeMs: 100, maxConcurrent: 2, maxQueued: 20 };
/**
 * What one Discord member may spend of GeoJS: 60 addresses that miss the cache in any minute (six
 * full `/ip lookup`s). Their batches then hold at most a few of the 20 queue places, so another
 * member's lookup during one member's flood still finds room and little wait. Cached addresses are free.
 */
export const GEOJS_MEMBER_SHARE = { limit: 60, windowMs: 60_000 } as const;
/** Geo data changes with monthly MaxMind releases; 12 h keeps answers fresh enough for chat use. */
export const GEOJS_CACHE_TTL_MS = 12 * 60 * 60_000;
/** Fallback pause if GeoJS ever answers 429 without Retry-After (it has no limit today). */
const GEOJS_RATE_LIMIT_FALLBACK_MS = 60_000;

export interface GeoServiceOptions {
  baseUrl: string;
  limiterFactory: LimiterFactory;
  cacheFactory: CacheFactory;
  dispatcher?: Dispatcher;
  metrics?: Metrics;
  /** Total deadline of one request, headers and body (default 6 s). */
  requestTimeoutMs?: number;
  /** Override the limiter (tests); defaults to `GEOJS_LIMITS`. */
  limits?: Partial<LimiterSettings>;
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** How long cache misses are collected into one request (default 5 ms). */
  batchWindowMs?: number;
  /** Most addresses in one `?ip=` list; keeps the URL far below any length limit (default 50). */
  maxBatchSize?: number;
  /** Retry a reset connection or a 5xx once, through the limiter again (default true). */
  retryOnce?: boolean;
  /** Clock for the cache and health, injectable for tests. */
  now?: () => number;
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
  private readonly http: UpstreamHttp;
  private readonly limiter: UpstreamLimiter;
  private readonly cache: UpstreamCache<GeoRecord>;
  private readonly tracker: HealthTracker;
  private readonly requestTimeoutMs: number;
  private readonly batchWindowMs: number;
  private readonly maxBatchSize: number;
  private readonly retryOnce: boolean;
  private pending = new Map<string, PendingLookup[]>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(options: GeoServiceOptions) {
    this.requestTimeoutMs = numberOption('GeoService', 'requestTimeoutMs', options.requestTimeoutMs, 6_000);
    this.batchWindowMs = numberOption('GeoService', 'batchWindowMs', options.batchWindowMs, 5, true);
    this.maxBatchSize = numberOption('GeoService', 'maxBatchSize', options.maxBatchSize, 50);
    this.retryOnce = options.retryOnce ?? true;
    this.http = new UpstreamHttp({
      upstream: 'geojs',
      baseUrl: baseUrlOption('GeoService', options.baseUrl),
      pathPrefixes: ['/v1/ip/geo.json'],
      dispatcher: options.dispatcher,
      maxBodyBytes: 512 * 1024,
      metrics: options.metrics,
    });
    this.limiter = options.limiterFactory({
      upstream: 'geojs',
      ...GEOJS_LIMITS,
      ...options.limits,
      jobExpirationMs: this.requestTimeoutMs + 2_000,
      now: options.now,
    });
    this.cache = options.cacheFactory<GeoRecord>({
      name: 'geojs-ip',
      max: numberOption('GeoService', 'cacheMaxEntries', options.cacheMaxEntries, 10_000),
      ttlMs: numberOption('GeoService', 'cacheTtlMs', options.cacheTtlMs, GEOJS_CACHE_TTL_MS),
      load: (address) => this.joinBatch(address),
      now: options.now,
    });
    this.tracker = new HealthTracker(options.now);
  }

  /**
   * Looks up addresses (validated again here: nothing unvalidated reaches a URL). The map is keyed
   * by the strings given; equal addresses in different spellings share one lookup. Rejects with the
   * first failure when an address cannot be answered; an expired entry is served while GeoJS is down.
   * `charge.beforeRequest` is called once per address that needs a request (missing or expired).
   */
  async lookup(addresses: readonly string[], charge?: RequestCharge): Promise<Map<string, GeoRecord>> {
    const canonical = new Map<string, string>();
    for (const input of addresses) {
      const parsed = parseIpAddress(input);
      if (!parsed.ok) throw new UpstreamError('geojs', 'invalid_input', `not a usable IP address: ${parsed.reason}`);
      canonical.set(input, parsed.address);
    }
    const unique = [...new Set(canonical.values())];
    // GeoJS knows nothing about special-purpose addresses (private, loopback, documentation…): they are
    // answered here, so they cost no request and work offline.
    const records = await Promise.all(
      unique.map((address) => (describeSpecialRange(address) === null ? this.cache.get(address, charge) : { ip: address, known: false })),
    );
    const byAddress = new Map(unique.map((address, index) => [address, records[index]!]));
    return new Map([...canonical].map(([input, address]) => [input, byAddress.get(address)!]));
  }

  health(): UpstreamHealth {
    return {
      upstream: 'geojs',
      lastSuccessAt: this.tracker.lastSuccessAt,
      lastFailureAt: this.tracker.lastFailureAt,
      lastFailure: this.tracker.lastFailure,
      lastLatencyMs: this.tracker.lastLatencyMs,
      limiter: this.limiter.state(),
      caches: [this.cache.stats()],
      details: {},
    };
  }

  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    const waiting = this.pending;
    this.pending = new Map();
    const closed = new UpstreamError('geojs', 'unavailable', 'geojs service closed');
    for (const waiters of waiting.values()) for (const waiter of waiters) waiter.reject(closed);
    await this.limiter.stop();
    await this.http.close();
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
    const attempt = () => this.limiter.schedule(() => this.tracker.track(() => this.fetchBatch(addresses)));
    try {
      return await attempt();
    } catch (error) {
      if (!this.retryOnce || !isWorthOneRetry(error)) throw error;
      return attempt();
    }
  }

  private async fetchBatch(addresses: string[]): Promise<Map<string, GeoRecord>> {
    const url = this.http.url('/v1/ip/geo.json', { ip: addresses.join(',') });
    const response = await this.http.get(url, { signal: AbortSignal.timeout(this.requestTimeoutMs) });
    try {
      checkCommonFailures('geojs', response, GEOJS_RATE_LIMIT_FALLBACK_MS);
    } catch (error) {
      if (isUpstreamError(error, 'rate_limited')) this.limiter.pause(error.retryAfterMs ?? GEOJS_RATE_LIMIT_FALLBACK_MS, 'geojs answered 429');
      throw error;
    }
    if (response.status !== 200) {
      // GeoJS has no JSON errors: anything but 200 means it is not serving (e.g. a redirect).
      throw new UpstreamError('geojs', 'unavailable', `geojs answered ${response.status}`, { status: response.status });
    }
    const answer = rawGeoAnswer.safeParse(parseJson('geojs', response));
    if (!answer.success) {
      throw new UpstreamError('geojs', 'bad_response', 'geojs answer is not a list of geo records', { status: 200 });
    }
    return matchAnswers(addresses, answer.data);
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
