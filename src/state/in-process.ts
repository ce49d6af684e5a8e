import { LRUCache } from 'lru-cache';
import { LocalMemberShareLedger } from './member-share-ledger.js';
import type { Metrics } from '../runtime/metrics.js';
import { createLocalCacheFactory } from '../services/cache.js';
import { createLocalLimiterFactory } from '../services/limiter.js';
import { LongQueryStore } from '../wallpaper/pager-state.js';
import type { ChannelHistory, ChannelHistoryOptions, FleetMember, SharedState } from './shared-state.js';
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
