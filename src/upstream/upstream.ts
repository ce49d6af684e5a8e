import type { Dispatcher } from 'undici';
import type { UpstreamName } from '../interaction/upstream-error.js';
import type { Metrics } from '../runtime/metrics.js';
import type { UpstreamHealth } from '../runtime/status-report.js';
import { createLocalCacheFactory, type CacheFactory, type CacheOptions, type UpstreamCache } from './cache.js';
import { HealthTracker } from './health.js';
import { UpstreamHttp, type UpstreamHttpOptions } from './http.js';
import { createLocalLimiterFactory, type LimiterFactory, type LimiterOptions, type LimiterSettings, type UpstreamLimiter } from './limiter.js';

/**
 * How long one request to each upstream may take, headers and body, before it is abandoned and the
 * member gets a plain sentence: every answer must be final within 20 s of the command, including
 * the time a request waits in its upstream's queue.
 */
export const REQUEST_TIMEOUT_MS: Readonly<Record<UpstreamName, number>> = { geojs: 6_000, wallhaven: 8_000, ygoprodeck: 15_000, rdap: 8_000 };

/** What each upstream's service is built with (src/app/services.ts gives every one the same wiring). */
export interface UpstreamServiceOptions {
  limiterFactory: LimiterFactory;
  cacheFactory: CacheFactory;
  dispatcher?: Dispatcher;
  metrics?: Metrics;
  /** Total deadline of one request, headers and body (default: the upstream's `REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs?: number;
  /** Override the limiter (tests); defaults to the upstream's own limits. */
  limits?: Partial<LimiterSettings>;
  /** Clock for the limiter, the caches and health, injectable for tests. */
  now?: () => number;
}

interface UpstreamWiringOptions {
  upstream: UpstreamName;
  /** The limiter's settings (every request to this upstream goes through it). */
  limits: Omit<LimiterOptions, 'upstream' | 'now'>;
  /** Default: an in-process limiter. */
  limiterFactory?: LimiterFactory;
  /** Default: in-process caches. */
  cacheFactory?: CacheFactory;
  dispatcher?: Dispatcher;
  metrics?: Metrics;
  /** Clock for the limiter, the caches and health, injectable for tests. */
  now?: () => number;
}

/**
 * What every upstream client is built on, wired the same way for GeoJS, Wallhaven and YGOPRODeck:
 * its HTTP origins, one limiter, its caches and its health, reported together for /status and
 * released together on close. A client adds only what is its own (URLs, answers, retries).
 */
export class UpstreamWiring {
  readonly upstream: UpstreamName;
  readonly limiter: UpstreamLimiter;
  readonly tracker: HealthTracker;
  private readonly https: UpstreamHttp[] = [];
  private readonly caches: UpstreamCache<unknown>[] = [];
  private readonly cacheFactory: CacheFactory;
  private readonly options: UpstreamWiringOptions;

  constructor(options: UpstreamWiringOptions) {
    this.options = options;
    this.upstream = options.upstream;
    const limiterFactory = options.limiterFactory ?? createLocalLimiterFactory(options.metrics);
    this.limiter = limiterFactory({ upstream: options.upstream, ...options.limits, now: options.now });
    options.metrics?.upstreamLimit.labels(options.upstream).set(1000 / options.limits.minTimeMs);
    this.cacheFactory = options.cacheFactory ?? createLocalCacheFactory(options.metrics);
    this.tracker = new HealthTracker(options.now);
  }

  /** An HTTP origin of this upstream (its API, or an image host). */
  http(options: Omit<UpstreamHttpOptions, 'upstream' | 'dispatcher' | 'metrics'>): UpstreamHttp {
    const http = new UpstreamHttp({ upstream: this.upstream, dispatcher: this.options.dispatcher, metrics: this.options.metrics, ...options });
    this.https.push(http);
    return http;
  }

  /** A cache of this upstream's answers, on the wiring's clock; its figures join `health()`. */
  cache<V>(options: Omit<CacheOptions<V>, 'now'>): UpstreamCache<V> {
    const cache = this.cacheFactory<V>({ ...options, now: this.options.now });
    this.caches.push(cache as UpstreamCache<unknown>);
    return cache;
  }

  /** For /status; `details` are the client's own facts. */
  health(details: Record<string, string | number> = {}): UpstreamHealth {
    return {
      upstream: this.upstream,
      lastSuccessAt: this.tracker.lastSuccessAt,
      lastFailureAt: this.tracker.lastFailureAt,
      lastFailure: this.tracker.lastFailure,
      lastLatencyMs: this.tracker.lastLatencyMs,
      limiter: this.limiter.state(),
      caches: this.caches.map((cache) => cache.stats()),
      details,
    };
  }

  /** Stops the limiter, then closes the HTTP origins. */
  async close(): Promise<void> {
    await this.limiter.stop();
    await Promise.all(this.https.map((http) => http.close()));
  }
}
