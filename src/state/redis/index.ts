import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { createGzip, gunzip as gunzipCallback } from 'node:zlib';
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Metrics } from '../../runtime/metrics.js';
import type { SharedState } from '../shared-state.js';
import { TrackedLimiters } from '../tracked-limiters.js';
import { createFleetChannelHistory } from './channel-history.js';
import { redisClientOptions, SharedConnection } from './connection.js';
import { FleetFetch } from './fleet-fetch.js';
import { FleetLimiters } from './fleet-limiter.js';
import { FleetHeartbeat } from './fleet-registry.js';
import { createFleetQueryStore } from './long-queries.js';
import { createFleetSeenOnce } from './seen-once.js';
import { createFleetNotices } from './notices.js';
import { createTwoLevelCacheFactory } from './two-level-cache.js';
import { decodeCached, encodeCachedParts, VALUE_FORMAT } from './value-codec.js';
import { createFleetMemberShareLedger } from './member-share-ledger.js';

/** Every key Almanac writes starts with this (Bottleneck's own keys are `b_almanac:<upstream>_…`). */
const KEY_PREFIX = 'almanac:';
/** Card and set art stays this long in Redis for the other processes to pick up (see README: memory). */
const SHARED_ART_TTL_MS = 24 * 60 * 60_000;
/** Longest one process downloads an image while the others wait (the art wait itself is 5 s). */
const ART_LOCK_MS = 20_000;
/** A shared download (a card database version) stays this long for hosts that start later. */
const SHARED_DOWNLOAD_TTL_MS = 24 * 60 * 60_000;
/** Longest one process may download and parse a database while the others wait (≈20 MB). */
const DOWNLOAD_LOCK_MS = 5 * 60_000;
/** Start-up waits this long for Redis, then starts degraded and keeps trying in the background. */
const START_WAIT_MS = 2_000;

const gunzip = promisify(gunzipCallback);
/** The largest output buffer a shared download's gzip trailer may ask for (English's is 16 MB). */
const MAX_GUNZIP_CHUNK = 64 * 1024 * 1024;

/**
 * Gunzips into one buffer sized from the gzip trailer (the uncompressed size, mod 2^32), so a 16 MB
 * download is not assembled from 16 KB pieces on the event loop (a damaged size only costs that copy).
 */
async function gunzipWhole(compressed: Buffer): Promise<Buffer> {
  const size = compressed.length >= 4 ? compressed.readUInt32LE(compressed.length - 4) : 0;
  // One byte more than the data: zlib then sees room left and ends without asking for a second buffer.
  return gunzip(compressed, { chunkSize: Math.min(Math.max(size + 1, 64 * 1024), MAX_GUNZIP_CHUNK) });
}

/** The pieces compressed as one stream: a card download's body is compressed where it is, never first copied into one Buffer. */
async function gzipParts(parts: readonly Buffer[]): Promise<Buffer> {
  const gzip = createGzip();
  const compressed = buffer(gzip);
  for (const part of parts) gzip.write(part);
  gzip.end();
  return compressed;
}

interface RedisStateOptions {
  url: string;
  processId: string;
  logger: Logger;
  metrics?: Metrics;
  /** The fleet size assumed until a heartbeat is read (SHARD_COUNT when sharded). */
  expectedFleetSize?: number;
  now?: () => number;
}

export async function createRedisState(options: RedisStateOptions): Promise<SharedState> {
  const logger = options.logger.child({ component: 'shared-state' });
  const now = options.now ?? Date.now;
  const connection = new SharedConnection(options.url, logger, now);
  const tracked = new TrackedLimiters(now);
  const fleet = new FleetHeartbeat({
    connection,
    keyPrefix: KEY_PREFIX,
    processId: options.processId,
    logger,
    upstreams: () => tracked.reports(),
    ...(options.expectedFleetSize === undefined ? {} : { expectedSize: options.expectedFleetSize }),
    now,
  });
  const bottleneckConnection = new Bottleneck.IORedisConnection({ Redis, client: connection.client, clientOptions: redisClientOptions() });
  bottleneckConnection.on('error', (error: unknown) => logger.debug({ err: error }, 'bottleneck redis connection error'));
  const limiters = new FleetLimiters({
    connection,
    bottleneckConnection,
    fallbackShare: () => fleet.fallbackShare,
    processId: options.processId,
    keyPrefix: KEY_PREFIX,
    logger,
    metrics: options.metrics,
    now,
  });
  const fetcher = new FleetFetch(connection, logger);
  // A fleet's first seconds should share; a Redis that is down does not hold the start for long.
  if (await connection.whenUp(START_WAIT_MS)) await fleet.beat();

  return {
    backend: 'redis',
    processId: options.processId,
    limiterFactory: tracked.wrap(limiters.factory),
    cacheFactory: createTwoLevelCacheFactory(fetcher, KEY_PREFIX, options.metrics),
    blobs: {
      fetch: async (key, load) => (await fetcher.fetch(`${KEY_PREFIX}blob:${key}`, { ttlMs: SHARED_ART_TTL_MS, lockMs: ART_LOCK_MS, load })).bytes,
    },
    async downloadOnce(key, download) {
      // The process that downloads keeps what it downloaded, rather than reading back its own entry.
      let downloaded: { value: Awaited<ReturnType<typeof download>> } | undefined;
      const fetched = await fetcher.fetch(`${KEY_PREFIX}download:${VALUE_FORMAT}:${key}`, {
        ttlMs: SHARED_DOWNLOAD_TTL_MS,
        lockMs: DOWNLOAD_LOCK_MS,
        load: async () => {
          downloaded = { value: await download() };
          return gzipParts(encodeCachedParts(downloaded.value));
        },
      });
      if (downloaded !== undefined) return downloaded.value;
      try {
        return decodeCached(await gunzipWhole(fetched.bytes));
      } catch (error) {
        // A damaged entry (its key names this layout) costs this process its own download, never a crash.
        logger.warn({ err: error, key }, 'shared download unreadable; downloading it in this process');
        return download();
      }
    },
    longQueries: createFleetQueryStore(connection, KEY_PREFIX),
    memberShareLedger: (ledgerOptions) => createFleetMemberShareLedger(connection, KEY_PREFIX, { ...ledgerOptions, now: ledgerOptions.now ?? now }),
    channelHistory: (historyOptions) => createFleetChannelHistory(connection, KEY_PREFIX, historyOptions),
    seenOnce: (seenOptions) => createFleetSeenOnce(connection, KEY_PREFIX, seenOptions, now),
    notices: (name) => createFleetNotices(connection, KEY_PREFIX, name, options.processId, logger),
    fleet,
    health: () => ({ backend: 'redis', degraded: !connection.isUp, since: connection.since, fallbackShareOf: fleet.fallbackShare }),
    async close() {
      await fleet.close();
      await bottleneckConnection.disconnect(false);
      await connection.close();
    },
  };
}
