import { EventEmitter } from 'node:events';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** A Redis command never holds an interaction longer than this (Discord allows 3 s for the first answer). */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 1_000;
/** Reconnection attempts back off up to this, so a restarted Redis is found again within seconds. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * ioredis options for every connection: fail fast instead of queueing while disconnected (the
 * caller then uses its local fallback), one try per command, short timeouts, endless reconnection.
 */
export function redisClientOptions(): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(100 * attempt, MAX_RECONNECT_DELAY_MS),
    // Defaults to true: a subscriber gets its channels back after a reconnection.
    autoResubscribe: true,
  };
}

interface SharedConnectionEvents {
  /** Redis became reachable (at start or after an outage). */
  up: [];
  /** Redis was lost (or was never reachable at start). */
  down: [];
}

/**
 * The command connection and the subscriber connection to one Redis, and whether sharing works right
 * now. Sharing is "up" only while both are ready; each transition is logged once (never the URL: it
 * may carry a password).
 */
export class SharedConnection extends EventEmitter<SharedConnectionEvents> {
  readonly client: Redis;
  readonly subscriber: Redis;
  private up = false;
  private changedAt: number | null = null;
  private reportedDown = false;
  private closing = false;

  constructor(
    url: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    super();
    const options = redisClientOptions();
    this.client = new Redis(url, { ...options, connectionName: 'almanac' });
    this.subscriber = new Redis(url, { ...options, connectionName: 'almanac-subscriber' });
    for (const connection of [this.client, this.subscriber]) {
      connection.on('ready', () => this.update());
      connection.on('close', () => this.update());
      connection.on('end', () => this.update());
      // Without a listener ioredis prints every failed reconnection; the transition log says enough.
      connection.on('error', (error: Error) => {
        this.logger.debug({ err: { message: error.message } }, 'redis connection error');
        this.update(true);
      });
    }
  }

  get isUp(): boolean {
    return this.up;
  }

  /** Epoch ms of the last transition between up and down, null before the first. */
  get since(): number | null {
    return this.changedAt;
  }

  /** Resolves once up, or false after `timeoutMs` (start-up waits a moment, never long). */
  async whenUp(timeoutMs: number): Promise<boolean> {
    if (this.up) return true;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        this.once('up', () => resolve(true));
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.removeAllListeners();
    await Promise.allSettled([this.client.quit(), this.subscriber.quit()]);
    this.client.disconnect();
    this.subscriber.disconnect();
  }

  private update(failed = false): void {
    if (this.closing) return;
    const up = this.client.status === 'ready' && this.subscriber.status === 'ready';
    if (up === this.up) {
      // Unreachable from the start: say so once, then stay quiet until it changes.
      if (!up && failed && !this.reportedDown) {
        this.reportedDown = true;
        this.changedAt = this.now();
        this.logger.warn('shared state: degraded (Redis unreachable); each process keeps a local share of each budget');
        this.emit('down');
      }
      return;
    }
    this.up = up;
    this.changedAt = this.now();
    if (up) {
      this.reportedDown = false;
      this.logger.info('shared state: Redis reachable, sharing budgets, caches and state');
      this.emit('up');
    } else if (!this.reportedDown) {
      this.reportedDown = true;
      this.logger.warn('shared state: degraded (Redis lost); each process keeps a local share of each budget');
      this.emit('down');
    }
  }
}
