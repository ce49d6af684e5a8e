import type { Metrics } from '../../runtime/metrics.js';
import { createLocalCache, type CacheFactory } from '../../upstream/cache.js';
import type { FleetFetch } from './fleet-fetch.js';
import { decodeCached, encodeCached, UnreadableValueError, VALUE_FORMAT } from './value-codec.js';

/** Longest one process loads an entry while the others wait for it (the upstreams' own deadlines are shorter). */
const LOAD_LOCK_MS = 20_000;

/**
 * Caches in two levels: the in-process lru-cache (L1, unchanged: coalescing, stale-while-revalidate,
 * stale-if-error, negative entries) in front of Redis (L2, same TTLs). An L1 miss or refresh
 * asks L2 first, so what one process fetched is a hit for the others, and a key missing everywhere
 * is loaded by one process for the fleet. Values travel as value-codec.ts writes them (JSON with
 * their `Date`s kept). An entry taken from L2 lives in L1 only for what remains of
 * its L2 lifetime, so no copy outlives the TTL. A hit in L1 never touches Redis.
 */
export function createTwoLevelCacheFactory(fetcher: FleetFetch, keyPrefix: string, metrics?: Metrics): CacheFactory {
  return (options) =>
    createLocalCache(
      {
        ...options,
        load: async (key, signal, entry) => {
          const fetched = await fetcher.fetch(`${keyPrefix}cache:${VALUE_FORMAT}:${options.name}:${key}`, {
            ttlMs: options.ttlMs,
            ...(options.negativeTtlMs === undefined ? {} : { notFoundTtlMs: options.negativeTtlMs }),
            lockMs: LOAD_LOCK_MS,
            load: async () => encodeCached(await options.load(key, signal, {})),
          });
          let value: Awaited<ReturnType<typeof options.load>>;
          try {
            value = decodeCached(fetched.bytes);
          } catch (error) {
            if (!(error instanceof UnreadableValueError)) throw error;
            // A damaged entry (its key names this layout) is a miss for this process, never a failed request.
            return options.load(key, signal, {});
          }
          entry.ttlMs = fetched.ttlMs;
          return value;
        },
      },
      metrics,
    );
}
