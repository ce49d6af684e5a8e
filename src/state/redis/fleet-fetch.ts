import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { isUpstreamError, UpstreamError, type UpstreamName } from '../../interaction/upstream-error.js';
import type { SharedConnection } from './connection.js';

/** The first byte of a stored entry: a value, or a remembered "not found". */
const VALUE_TAG = 0x01;
const NOT_FOUND_TAG = 0x00;
/** A waiting process looks for the winner's value this often (backing off to the longest). */
const WAIT_STEPS_MS = [10, 25, 50, 100, 200] as const;
/** Whoever releases a lock must still hold it (a slow loader's lock may have expired and been taken). */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** A remembered "not found", as the loading process saw it. */
interface NotFoundRecord {
  upstream: UpstreamName;
  message: string;
}

interface FleetFetchOptions {
  /** How long the fetched bytes stay in Redis. */
  ttlMs: number;
  /** How long a "not found" stays in Redis; not remembered when absent. */
  notFoundTtlMs?: number;
  /** Longest one process may hold the right to load before another may try (its load's own deadline). */
  lockMs: number;
  load: () => Promise<Buffer>;
}

interface Fetched {
  bytes: Buffer;
  /** What remains of the entry's lifetime in Redis (the whole TTL when just loaded). */
  ttlMs: number;
}

/**
 * Bytes under one key for the whole fleet, loaded at most once at a time: the first process to miss
 * takes a short lock (`SET NX PX`) and loads; the others wait for its entry instead of loading again.
 * Redis is never in the way of an answer: when it is unreachable, slow or fails, the caller loads
 * for itself, and a loader that fails or outlives its lock lets a waiter load.
 */
export class FleetFetch {
  constructor(
    private readonly connection: SharedConnection,
    private readonly logger: Logger,
  ) {}

  async fetch(key: string, options: FleetFetchOptions): Promise<Fetched> {
    const local = async (): Promise<Fetched> => ({ bytes: await options.load(), ttlMs: options.ttlMs });
    if (!this.connection.isUp) return local();
    const client = this.connection.client;
    let found: Fetched | undefined;
    try {
      found = await this.read(key);
    } catch (error) {
      if (isUpstreamError(error)) throw error;
      return local();
    }
    if (found !== undefined) return found;
    const lockKey = `${key}:lock`;
    const token = randomUUID();
    let locked: boolean;
    try {
      locked = (await client.set(lockKey, token, 'PX', options.lockMs, 'NX')) === 'OK';
    } catch {
      return local();
    }
    if (locked) return this.loadAndShare(key, lockKey, token, options);
    const deadline = Date.now() + options.lockMs;
    for (let step = 0; Date.now() < deadline; step++) {
      await sleep(WAIT_STEPS_MS[Math.min(step, WAIT_STEPS_MS.length - 1)]);
      try {
        const [entry, lock] = await Promise.all([this.read(key), client.exists(lockKey)]);
        if (entry !== undefined) return entry;
        // The loader gave up without an entry (its load failed): try for ourselves.
        if (lock === 0) break;
      } catch (error) {
        if (isUpstreamError(error)) throw error;
        break;
      }
    }
    return local();
  }

  private async loadAndShare(key: string, lockKey: string, token: string, options: FleetFetchOptions): Promise<Fetched> {
    const client = this.connection.client;
    try {
      const bytes = await options.load();
      await client.set(key, Buffer.concat([Buffer.of(VALUE_TAG), bytes]), 'PX', options.ttlMs).catch((error: unknown) => this.warn(error));
      return { bytes, ttlMs: options.ttlMs };
    } catch (error) {
      if (options.notFoundTtlMs !== undefined && isUpstreamError(error, 'not_found')) {
        const notFound: NotFoundRecord = { upstream: error.upstream, message: error.message };
        const marker = Buffer.concat([Buffer.of(NOT_FOUND_TAG), Buffer.from(JSON.stringify(notFound))]);
        await client.set(key, marker, 'PX', options.notFoundTtlMs).catch((failure: unknown) => this.warn(failure));
      }
      throw error;
    } finally {
      await client.eval(RELEASE_LOCK, 1, lockKey, token).catch(() => undefined);
    }
  }

  private async read(key: string): Promise<Fetched | undefined> {
    const results = await this.connection.client.multi().getBuffer(key).pttl(key).exec();
    const bytes = results?.[0]?.[1] as Buffer | null | undefined;
    const ttlMs = results?.[1]?.[1] as number | undefined;
    if (bytes === null || bytes === undefined || bytes.length === 0) return undefined;
    if (bytes[0] === NOT_FOUND_TAG) {
      const notFound = JSON.parse(bytes.subarray(1).toString()) as NotFoundRecord;
      throw new UpstreamError(notFound.upstream, 'not_found', notFound.message);
    }
    return { bytes: bytes.subarray(1), ttlMs: ttlMs !== undefined && ttlMs > 0 ? ttlMs : 1 };
  }

  private warn(error: unknown): void {
    this.logger.debug({ err: error }, 'could not store a fetched value in Redis');
  }
}
