import { LRUCache } from 'lru-cache';
import { LocalMemberShareLedger } from './member-share-ledger.js';
import type { Metrics } from '../runtime/metrics.js';
import { createLocalCacheFactory } from '../upstream/cache.js';
import { createLocalLimiterFactory } from '../upstream/limiter.js';
import { LongQueryStore } from '../wallpaper/pager-state.js';
import type { FleetMember } from '../runtime/status-report.js';
import type { ChannelHistory, ChannelHistoryOptions, SeenOnce, SeenOnceOptions, SharedState } from './shared-state.js';
import { TrackedLimiters } from './tracked-limiters.js';

interface InProcessStateOptions {
  processId: string;
  metrics?: Metrics;
  now?: () => number;
}

/** A channel's last picks, in process. */
export function createLocalChannelHistory(options: ChannelHistoryOptions): ChannelHistory {
  if (!Number.isInteger(options.length) || options.length < 0) {
    throw new TypeError(`channelHistory(${options.name}): option "length" must be a non-negative integer, got ${options.length}`);
  }
  const picks = new LRUCache<string, number[]>({ max: options.maxChannels });
  return {
    recent: (channelId) => Promise.resolve(picks.get(channelId) ?? []),
    add(channelId, id) {
      if (options.length > 0) picks.set(channelId, [...(picks.get(channelId) ?? []), id].slice(-options.length));
      return Promise.resolve();
    },
  };
}

/** Keys seen in this process, each for `ttlMs`, at most `maxKeys` of them (the oldest go first). */
export function createLocalSeenOnce(options: SeenOnceOptions, now: () => number = Date.now): SeenOnce {
  if (!Number.isInteger(options.maxKeys) || options.maxKeys < 1) {
    throw new TypeError(`seenOnce(${options.name}): option "maxKeys" must be a positive integer, got ${options.maxKeys}`);
  }
  // Never read with get(), so the least recently used is the least recently seen. ttlResolution 0:
  // expiry follows `now` exactly (the default reuses a reading for 1 ms, frozen for an injected clock).
  const seen = new LRUCache<string, true>({ max: options.maxKeys, ttl: options.ttlMs, ttlResolution: 0, perf: { now } });
  return {
    firstTime(key) {
      if (seen.has(key)) return Promise.resolve(false);
      seen.set(key, true);
      return Promise.resolve(true);
    },
  };
}

/** Today's single process: every piece of state lives in this process's memory, as before Redis. */
export function createInProcessState(options: InProcessStateOptions): SharedState {
  const now = options.now ?? Date.now;
  const tracked = new TrackedLimiters(now);
  const longQueries = new LongQueryStore();
  let describe: () => Pick<FleetMember, 'shards' | 'guilds'> = () => ({ shards: [], guilds: 0 });
  return {
    backend: 'in-process',
    processId: options.processId,
    limiterFactory: tracked.wrap(createLocalLimiterFactory(options.metrics)),
    cacheFactory: createLocalCacheFactory(options.metrics),
    blobs: { fetch: (_key, load) => load() },
    downloadOnce: (_key, download) => download(),
    longQueries: {
      remember: (text) => Promise.resolve(longQueries.remember(text)),
      recall: (key) => Promise.resolve(longQueries.recall(key)),
    },
    memberShareLedger(ledgerOptions) {
      const ledger = new LocalMemberShareLedger({ ...ledgerOptions, now: ledgerOptions.now ?? now });
      return { limit: ledger.limit, windowMs: ledger.windowMs, take: (userId) => Promise.resolve(ledger.take(userId)) };
    },
    channelHistory: createLocalChannelHistory,
    seenOnce: (seenOptions) => createLocalSeenOnce(seenOptions, now),
    // One process: nothing to tell, nobody to hear it.
    notices: () => ({ publish: () => Promise.resolve(), subscribe: () => undefined }),
    fleet: {
      describeWith(describer) {
        describe = describer;
      },
      members: () => Promise.resolve([{ processId: options.processId, ...describe(), seenAt: now(), upstreams: tracked.reports() }]),
    },
    health: () => ({ backend: 'in-process', degraded: false, since: null, fallbackShareOf: 1 }),
    close: () => Promise.resolve(),
  };
}
