import type { Dispatcher } from 'undici';
import type { RdapObject } from '../../ip/rdap.js';
import type { WhoisQuery } from '../../ip/whois-query.js';
import { isUpstreamError, UpstreamError } from '../../interaction/upstream-error.js';
import type { UpstreamHealth } from '../../runtime/status-report.js';
import type { MemberShareSpender, UpstreamCache } from '../../upstream/cache.js';
import { checkCommonFailures, createUpstreamAgent, parseJson, parseRetryAfter, type UpstreamHttp } from '../../upstream/http.js';
import type { LimiterSettings, UpstreamLimiter } from '../../upstream/limiter.js';
import { baseUrlOption, numberOption } from '../../upstream/service-options.js';
import { REQUEST_TIMEOUT_MS, UpstreamWiring, type UpstreamServiceOptions } from '../../upstream/upstream.js';
import { basesFor, fileFor, isNamedServer, parseBootstrap, type BootstrapFile, type BootstrapServices } from './bootstrap.js';
import { readRdapAnswer } from './rdap-answer.js';


/** Registries publish different limits and change them; one request a second each stays under all of them. */
export const RDAP_REGISTRY_LIMITS: Readonly<LimiterSettings> = { minTimeMs: 1_000, maxConcurrent: 1, maxQueued: 10 };
/** Registrations change seldom; a day also spares the registries the same questions. */
export const RDAP_CACHE_TTL_MS = 24 * 60 * 60_000;
/** IANA's files change a few times a year; asked again after a day. */
export const RDAP_BOOTSTRAP_TTL_MS = 24 * 60 * 60_000;
/** Largest RDAP answer read: a network's answer is a few KiB; a bigger body is refused as it arrives. */
export const RDAP_MAX_BODY_BYTES = 256 * 1024;
/** Redirects followed for one question (a transferred range moves once; more is a loop or an error). */
const MAX_REDIRECTS = 3;
/** "Nothing registered here" is kept an hour: a member retrying at once asks no registry. */
const NOT_FOUND_TTL_MS = 60 * 60_000;
/** A 429 without Retry-After pauses that registry this long. */
const RATE_LIMIT_FALLBACK_MS = 60_000;

export interface RdapServiceOptions extends UpstreamServiceOptions {
  /** `RDAP_BOOTSTRAP_URL`: where `ipv4.json`, `ipv6.json`, `asn.json` and `dns.json` are read; its scheme is the one servers must use. */
  bootstrapUrl: string;
}

/**
 * Registration data over RDAP: which registry serves a question is read from IANA's bootstrap files
 * (never a list of our own), each registry is asked at most once a second (its own limiter), every
 * answer is kept a day, and a redirect is followed only to a server the same bootstrap file names,
 * on the bootstrap's scheme (https in production).
 */
export class RdapService {
  private readonly upstream: UpstreamWiring;
  private readonly bootstrapHttp: UpstreamHttp;
  private readonly bootstrap: UpstreamCache<BootstrapServices>;
  private readonly answers: UpstreamCache<RdapObject>;
  private readonly registries = new Map<string, { http: UpstreamHttp; limiter: UpstreamLimiter }>();
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly protocol: string;
  private readonly requestTimeoutMs: number;
  private readonly limits: LimiterSettings;

  constructor(private readonly options: RdapServiceOptions) {
    const bootstrapUrl = baseUrlOption('RdapService', options.bootstrapUrl, 'bootstrapUrl');
    this.protocol = new URL(bootstrapUrl).protocol;
    this.requestTimeoutMs = numberOption('RdapService', 'requestTimeoutMs', options.requestTimeoutMs, REQUEST_TIMEOUT_MS.rdap);
    this.limits = { ...RDAP_REGISTRY_LIMITS, ...options.limits };
    this.ownsDispatcher = options.dispatcher === undefined;
    // One connection pool for IANA and every registry, however many registries get asked.
    this.dispatcher = options.dispatcher ?? createUpstreamAgent();
    this.upstream = new UpstreamWiring({
      upstream: 'rdap',
      // The wiring's own limiter paces IANA; each registry has its own (`registry`).
      limits: { ...this.limits, jobExpirationMs: this.requestTimeoutMs + 2_000 },
      limiterFactory: options.limiterFactory,
      cacheFactory: options.cacheFactory,
      dispatcher: this.dispatcher,
      metrics: options.metrics,
      now: options.now,
    });
    this.bootstrapHttp = this.upstream.http({ baseUrl: bootstrapUrl, pathPrefixes: ['/ipv4.json', '/ipv6.json', '/asn.json', '/dns.json'], maxBodyBytes: 1024 * 1024 });
    this.bootstrap = this.upstream.cache<BootstrapServices>({ name: 'rdap-bootstrap', max: 4, ttlMs: RDAP_BOOTSTRAP_TTL_MS, load: (file) => this.fetchBootstrap(file as BootstrapFile) });
    this.answers = this.upstream.cache<RdapObject>({
      name: 'rdap',
      max: 5_000,
      ttlMs: RDAP_CACHE_TTL_MS,
      negativeTtlMs: NOT_FOUND_TTL_MS,
      load: (key) => this.fetchObject(decodeKey(key)),
    });
  }

  /**
   * The registration of an address, an AS number or a domain (validated by `parseWhoisQuery`). A
   * question not answered in the last day costs one of `share`. Rejects with `not_found` when no
   * registry serves it or the registry has no such object.
   */
  lookup(query: WhoisQuery, share?: MemberShareSpender): Promise<RdapObject> {
    return this.answers.get(encodeKey(query), share);
  }

  /** `lookup`, with "no registry has it" as null (an answer to show, not a failure). */
  async find(query: WhoisQuery, share?: MemberShareSpender): Promise<RdapObject | null> {
    try {
      return await this.lookup(query, share);
    } catch (error) {
      if (isUpstreamError(error, 'not_found')) return null;
      throw error;
    }
  }

  health(): UpstreamHealth {
    return this.upstream.health({ registries: this.registries.size });
  }

  async close(): Promise<void> {
    await Promise.all([...this.registries.values()].map(({ limiter }) => limiter.stop()));
    await this.upstream.close();
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async fetchBootstrap(file: BootstrapFile): Promise<BootstrapServices> {
    const url = this.bootstrapHttp.url(`/${file}.json`);
    const response = await this.upstream.limiter.schedule(() =>
      this.upstream.tracker.track(() => this.bootstrapHttp.get(url, { signal: AbortSignal.timeout(this.requestTimeoutMs) })),
    );
    checkCommonFailures('rdap', response, RATE_LIMIT_FALLBACK_MS);
    if (response.status !== 200) throw new UpstreamError('rdap', 'unavailable', `the RDAP bootstrap answered ${response.status}`, { status: response.status });
    return parseBootstrap(parseJson('rdap', response), this.protocol);
  }

  private async fetchObject(query: WhoisQuery): Promise<RdapObject> {
    const services = await this.bootstrap.get(fileFor(query));
    const [base] = basesFor(services, query);
    if (base === undefined) throw new UpstreamError('rdap', 'not_found', `no RDAP registry serves this ${query.kind}`);
    let url = new URL(pathOf(query), base);
    const seen = new Set<string>();
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (seen.has(url.href)) break;
      seen.add(url.href);
      const registry = this.registry(url, services);
      const response = await registry.limiter.schedule(() =>
        this.upstream.tracker.track(() => registry.http.get(url, { signal: AbortSignal.timeout(this.requestTimeoutMs), accept: 'application/rdap+json, application/json' })),
      );
      if (response.status >= 300 && response.status < 400) {
        url = this.redirectTarget(url, response.headers.location, services);
        continue;
      }
      if (response.status === 404) throw new UpstreamError('rdap', 'not_found', `${url.host} has no such ${query.kind}`, { status: 404 });
      if (response.status === 429) {
        const retryAfterMs = parseRetryAfter(response.headers['retry-after'], RATE_LIMIT_FALLBACK_MS);
        registry.limiter.pause(retryAfterMs, `${url.host} answered 429`);
        throw new UpstreamError('rdap', 'rate_limited', `${url.host} answered 429`, { status: 429, retryAfterMs });
      }
      checkCommonFailures('rdap', response, RATE_LIMIT_FALLBACK_MS);
      if (response.status !== 200) throw new UpstreamError('rdap', 'unavailable', `${url.host} answered ${response.status}`, { status: response.status });
      return readRdapAnswer(query, parseJson('rdap', response), url.host);
    }
    throw new UpstreamError('rdap', 'bad_response', 'RDAP redirects went round in a loop or past the limit');
  }

  /** Where a redirect leads, when it leads to a server the bootstrap names; anything else is refused. */
  private redirectTarget(from: URL, location: string | string[] | undefined, services: BootstrapServices): URL {
    const target = typeof location === 'string' ? safeUrl(location, from) : undefined;
    if (target === undefined || target.protocol !== this.protocol || !isNamedServer(services, target)) {
      throw new UpstreamError('rdap', 'bad_response', `${from.host} redirected to a server the RDAP bootstrap does not name`);
    }
    return target;
  }

  /** The HTTP origin and limiter of the registry serving `url` (one a base the bootstrap names), made on first use. */
  private registry(url: URL, services: BootstrapServices): { http: UpstreamHttp; limiter: UpstreamLimiter } {
    const base = services.flatMap(({ bases }) => bases).find((candidate) => url.href.startsWith(candidate));
    if (base === undefined) throw new UpstreamError('rdap', 'invalid_input', 'refused an RDAP request outside the servers the bootstrap names');
    const known = this.registries.get(url.origin);
    if (known) return known;
    const registry = {
      http: this.upstream.http({ baseUrl: url.origin, pathPrefixes: ['/'], maxBodyBytes: RDAP_MAX_BODY_BYTES }),
      limiter: this.options.limiterFactory({ upstream: 'rdap', scope: url.host, ...this.limits, jobExpirationMs: this.requestTimeoutMs + 2_000, now: this.options.now }),
    };
    this.registries.set(url.origin, registry);
    return registry;
  }
}

function safeUrl(text: string, base: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/** RFC 9082 paths, relative to a registry's base; the values were validated (and are canonical) before. */
function pathOf(query: WhoisQuery): string {
  if (query.kind === 'ip') return `ip/${query.address}`;
  if (query.kind === 'autnum') return `autnum/${query.number}`;
  return `domain/${query.name}`;
}

function encodeKey(query: WhoisQuery): string {
  if (query.kind === 'ip') return `ip:${query.address}`;
  if (query.kind === 'autnum') return `autnum:${query.number}`;
  return `domain:${query.name}`;
}

function decodeKey(key: string): WhoisQuery {
  const [kind, value = ''] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  if (kind === 'autnum') return { kind, number: Number(value) };
  if (kind === 'domain') return { kind, name: value, display: value };
  return { kind: 'ip', address: value };
}
