import type { CacheStats } from '../runtime/status-report.js';
import { LRUCache } from 'lru-cache';
import type { Metrics } from '../runtime/metrics.js';
import { isUpstreamError, type UpstreamError } from '../interaction/upstream-error.js';

export interface CacheOptions<V> {
  /** Cache name, used in metrics and /status. */
  name: string;
  max: number;
  /** Fresh lifetime. After it, the entry is served stale while it is refreshed in the background. */
  ttlMs: number;
  /** How long a "not found" answer is remembered, so repeated misses do not reach the upstream. */
  negativeTtlMs?: number;
  /** Bound on total size, in the units of `sizeOf` (default: every entry counts 1). */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /**
   * Loads a missing or expired entry. A loader that got the value from a shared tier (another
   * process fetched it earlier) sets `entry.ttlMs` to what remains of its lifetime there.
   */
  load: (key: string, signal: AbortSignal, entry: LoadedEntry) => Promise<V>;
  /** Clock in ms, injectable for tests (lru-cache captures `performance` at import time). */
  now?: () => number;
}

export interface LoadedEntry {
  ttlMs?: number;
}


/**
 * The asking member's share of an upstream (`MemberShares.spenderFor`), spent on each request a
 * call needs: a miss, or the refresh of an expired entry (see `UpstreamCache.get`). Services call
 * `beforeRequest` before anything is queued, so a refusal sends nothing.
 */
export interface MemberShareSpender {
  /**
   * Called before a missing entry is loaded or an expired one refreshed. Throwing refuses the
   * request: a missing entry then rejects with that error, an expired one is served as it is.
   */
  beforeRequest?: () => Promise<void>;
}

export interface UpstreamCache<V> {
  /**
   * Returns the cached value, or loads it once however many callers ask at the same time. An expired
   * entry is returned at once and refreshed in the background; when a refresh fails the old value is
   * kept and keeps being served (stale-if-error). A cached "not found" is rethrown. With a `share`,
   * neither a load nor a refresh happens unless it agrees: a stale entry is not free.
   */
  get(key: string, share?: MemberShareSpender): Promise<V>;
  peek(key: string): V | undefined;
  set(key: string, value: V): void;
  stats(): CacheStats;
  clear(): void;
}

interface NotFound {
  notFound: UpstreamError;
}

type Entry<V> = { value: V } | NotFound;

export type CacheFactory = <V>(options: CacheOptions<V>) => UpstreamCache<V>;

/** The in-process cache factory. A shared tier (Redis) can implement the same interface. */
export function createLocalCacheFactory(metrics?: Metrics): CacheFactory {
  return (options) => createLocalCache(options, metrics);
}

export function createLocalCache<V>(options: CacheOptions<V>, metrics?: Metrics): UpstreamCache<V> {
  if (!Number.isInteger(options.max) || options.max <= 0) {
    throw new TypeError(`createCache(${options.name}): option "max" must be a positive integer`);
  }
  if (!(options.ttlMs > 0)) throw new TypeError(`createCache(${options.name}): option "ttlMs" must be positive`);
  const counters = { hits: 0, misses: 0, stale: 0 };
  const lookups = metrics?.cacheLookups;
  const sizeOf = options.sizeOf;

  const lru = new LRUCache<string, Entry<V>>({
    max: options.max,
    ttl: options.ttlMs,
    allowStale: true,
    noDeleteOnFetchRejection: true,
    ...(options.maxSize !== undefined && sizeOf
      ? {
          maxSize: options.maxSize,
          sizeCalculation: (entry: Entry<V>) => ('value' in entry ? Math.max(1, sizeOf(entry.value)) : 1),
        }
      : {}),
    ...(options.now ? { perf: { now: options.now } } : {}),
    fetchMethod: async (key, _stale, { signal, options: fetchOptions }) => {
      try {
        const loaded: LoadedEntry = {};
        const value = await options.load(key, signal, loaded);
        if (loaded.ttlMs !== undefined) fetchOptions.ttl = loaded.ttlMs;
        return { value };
      } catch (error) {
        if (options.negativeTtlMs !== undefined && isUpstreamError(error, 'not_found')) {
          fetchOptions.ttl = options.negativeTtlMs;
          return { notFound: error };
        }
        throw error;
      }
    },
  });

  return {
    async get(key, share = {}) {
      const count = (outcome: 'hit' | 'stale' | 'miss') => {
        counters[outcome === 'hit' ? 'hits' : outcome === 'stale' ? 'stale' : 'misses']++;
        lookups?.labels(options.name, outcome).inc();
      };
      const valueOf = (entry: Entry<V> | undefined): V => {
        if (entry === undefined) throw new Error(`cache ${options.name}: load for a key returned nothing`);
        if ('notFound' in entry) throw entry.notFound;
        return entry.value;
      };
      if (share.beforeRequest !== undefined && !lru.has(key)) {
        const stale = lru.peek(key, { allowStale: true });
        try {
          await share.beforeRequest();
        } catch (refusal) {
          if (stale === undefined) throw refusal;
          count('stale');
          return valueOf(stale);
        }
      }
      const status: LRUCache.Status<string, Entry<V>> = {};
      const entry = await lru.fetch(key, { status });
      count(status.fetch === 'hit' ? 'hit' : status.fetch === 'stale' ? 'stale' : 'miss');
      return valueOf(entry);
    },
    peek(key) {
      const entry = lru.peek(key, { allowStale: true });
      return entry && 'value' in entry ? entry.value : undefined;
    },
    set(key, value) {
      lru.set(key, { value });
    },
    stats() {
      return { name: options.name, size: lru.size, ...counters };
    },
    clear() {
      lru.clear();
    },
  };
}
