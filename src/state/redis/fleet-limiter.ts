import { setTimeout as sleep } from 'node:timers/promises';
import Bottleneck from 'bottleneck';
import type { Logger } from 'pino';
import type { Metrics } from '../../runtime/metrics.js';
import { createGatedLimiter, limiterKey, localBottleneck, validateLimiterOptions, type LimiterFactory, type LimiterGate, type LimiterOptions, type UpstreamLimiter } from '../../upstream/limiter.js';
import type { UpstreamName } from '../../interaction/upstream-error.js';
import type { SharedConnection } from './connection.js';

interface FleetLimiterDeps {
  connection: SharedConnection;
  /** One Bottleneck connection for every upstream (it opens one more Redis client, for its pub/sub). */
  bottleneckConnection: Bottleneck.IORedisConnection;
  /** What each budget is divided by while Redis is unreachable: the last known number of live processes. */
  fallbackShare: () => number;
  processId: string;
  keyPrefix: string;
  logger: Logger;
  metrics?: Metrics;
  now?: () => number;
}

/** A pause as every process stores and announces it. */
interface PauseNotice {
  upstream: UpstreamName;
  /** The limiter's scope, when the pause is one registry's rather than the whole upstream's. */
  scope?: string;
  until: number;
  reason: string;
  from: string;
}

/** Longest wait for a limiter's Redis side to stop on shutdown (a lost Redis must not hold the exit). */
const STOP_WAIT_MS = 1_000;

/**
 * Chooses, for each job, between the fleet's shared Bottleneck (Redis datastore: its spacing holds
 * across every process) and a local share of the budget while Redis is unreachable. The local share
 * is a spacing of `minTime × fallbackShare` between this process's actual starts, and it continues
 * from this process's own last start whichever side sent it: the fallback does not begin with a burst, and the
 * first shared job after an outage waits for the slot the fallback had reserved, so a Redis that comes
 * back empty does not start the window afresh. Jobs still waiting in the shared queue when Redis is
 * lost move to the local share instead of waiting on a dead connection, and that shared Bottleneck
 * is stopped with its queue dropped: Bottleneck cannot take one job back, and each job left in it
 * would spend a shared slot once Redis returned, and count in the queue gauge and the waits
 * announced meanwhile (an outage test left 25, which at Wallhaven's 1.4 s spacing would hold the
 * next request 35 s). A new one takes its place when Redis is back.
 */
class FleetGate implements LimiterGate {
  private shared: Bottleneck;
  /** Set when Redis is lost: `shared` is stopped, and is replaced on the next 'up'. */
  private sharedStopped = false;
  /** Set by `stop`: a Redis that comes back afterwards gets no new shared Bottleneck. */
  private closed = false;
  /** Stops of replaced shared Bottlenecks still finishing (their running jobs end first). */
  private readonly retiring = new Set<Promise<unknown>>();
  /** What `on` was given, for each shared Bottleneck that replaces the last. */
  private readonly listeners: ['queued' | 'executing', () => void][] = [];
  private readonly fallback: Bottleneck;
  /** Earliest start of this process's next job under the local share. */
  private nextSlot = 0;
  /** Set by a fallback start: the next shared job first waits for `nextSlot`. */
  private recovering = false;
  private readonly waitingShared = new Map<object, () => void>();
  private readonly now: () => number;

  constructor(
    private readonly options: LimiterOptions,
    private readonly deps: FleetLimiterDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.shared = this.sharedBottleneck();
    this.fallback = localBottleneck({ minTimeMs: 0, maxConcurrent: options.maxConcurrent, maxQueued: options.maxQueued });
    deps.connection.on('down', () => {
      this.moveWaitingToFallback();
      this.stopShared();
    });
    deps.connection.on('up', () => {
      if (!this.sharedStopped || this.closed) return;
      this.sharedStopped = false;
      this.shared = this.sharedBottleneck();
    });
  }

  private sharedBottleneck(): Bottleneck {
    const { options, deps } = this;
    const shared = new Bottleneck({
      id: `${deps.keyPrefix}${limiterKey(options)}`,
      datastore: 'ioredis',
      connection: deps.bottleneckConnection,
      minTime: options.minTimeMs,
      maxConcurrent: options.maxConcurrent,
      highWater: options.maxQueued,
      strategy: Bottleneck.strategy.OVERFLOW,
      // Never `timeout` (settings expiring break Bottleneck on Redis 7) nor `clearDatastore`.
    });
    shared.on('error', (error: unknown) =>
      deps.logger.debug({ upstream: options.upstream, err: { message: error instanceof Error ? error.message : String(error) } }, 'shared limiter error'),
    );
    for (const [event, listener] of this.listeners) this.listen(shared, event, listener);
    // The first limiter to reach Redis stores its settings for all; a deploy's new settings win here.
    void shared
      .ready()
      .then(() => shared.updateSettings({ minTime: options.minTimeMs, maxConcurrent: options.maxConcurrent }))
      .catch((error: unknown) => deps.logger.warn({ upstream: options.upstream, err: error }, 'shared limiter could not start; using the local share'));
    return shared;
  }

  /**
   * Drops what the shared Bottleneck still holds (each job already moved to the local share) and
   * lets its running jobs end. It is not disconnected: its replacement has the same id, so the same
   * pub/sub channels, which a disconnect would unsubscribe.
   */
  private stopShared(): void {
    if (this.sharedStopped) return;
    this.sharedStopped = true;
    const stopping = this.shared.stop({ dropWaitingJobs: true }).catch(() => undefined);
    this.retiring.add(stopping);
    void stopping.then(() => this.retiring.delete(stopping));
  }

  private listen(bottleneck: Bottleneck, event: 'queued' | 'executing', listener: () => void): void {
    if (event === 'queued') bottleneck.on('queued', listener);
    else bottleneck.on('executing', listener);
  }

  schedule<T>(options: { expiration: number }, job: () => Promise<T>): Promise<T> {
    // Bottleneck holds jobs until its Redis side is ready; a failure before the start moves them to the local share.
    return this.deps.connection.isUp && !this.sharedStopped ? this.viaShared(options, job) : this.viaFallback(options, job);
  }

  counts() {
    const shared = this.shared.counts();
    const fallback = this.fallback.counts();
    return { QUEUED: shared.QUEUED + fallback.QUEUED, RUNNING: shared.RUNNING + fallback.RUNNING, EXECUTING: shared.EXECUTING + fallback.EXECUTING };
  }

  /** Only the local side: a pause reaches other processes by its own notice, not by a shared reservoir left at 0. */
  updateSettings(settings: { reservoir: number | null }) {
    return this.fallback.updateSettings(settings);
  }

  on(event: 'queued' | 'executing', listener: () => void): void {
    this.listeners.push([event, listener]);
    for (const bottleneck of [this.shared, this.fallback]) this.listen(bottleneck, event, listener);
  }

  async stop(options: { dropWaitingJobs: boolean }): Promise<void> {
    this.closed = true;
    const stopShared = Promise.all([this.sharedStopped ? undefined : this.shared.stop(options).catch(() => undefined), ...this.retiring]);
    await Promise.all([Promise.race([stopShared, sleep(STOP_WAIT_MS)]), this.fallback.stop(options).catch(() => undefined)]);
  }

  private spacingMs(): number {
    return this.options.minTimeMs * Math.max(1, this.deps.fallbackShare());
  }

  private recordStart(): void {
    this.nextSlot = Math.max(this.nextSlot, this.now() + this.spacingMs());
  }

  private viaShared<T>(options: { expiration: number }, job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let state: 'waiting' | 'started' | 'moved' = 'waiting';
      const ticket = {};
      const move = () => {
        if (state !== 'waiting') return;
        state = 'moved';
        this.waitingShared.delete(ticket);
        this.viaFallback(options, job).then(resolve, reject);
      };
      this.waitingShared.set(ticket, move);
      this.shared
        .schedule({ expiration: options.expiration }, async () => {
          if (state !== 'waiting') return undefined as T;
          state = 'started';
          this.waitingShared.delete(ticket);
          if (this.recovering) {
            this.recovering = false;
            const wait = this.nextSlot - this.now();
            if (wait > 0) await sleep(wait);
          }
          this.recordStart();
          return job();
        })
        .then(
          (value) => {
            if (state === 'started') resolve(value);
          },
          (error: unknown) => {
            if (state === 'started' || (state === 'waiting' && error instanceof Bottleneck.BottleneckError)) {
              this.waitingShared.delete(ticket);
              reject(error instanceof Error ? error : new Error(String(error)));
            } else {
              // Redis failed before the job could start: the local share sends it instead.
              move();
            }
          },
        );
    });
  }

  private viaFallback<T>(options: { expiration: number }, job: () => Promise<T>): Promise<T> {
    return this.fallback.schedule({ expiration: options.expiration }, async () => {
      // Spaced from the previous start as it happened, not as it was planned: a start that a busy
      // event loop delayed pushes the next one back instead of bunching the two together. Jobs
      // running side by side wait for the same slot; the first to wake takes it, the others wait on.
      for (let wait = this.nextSlot - this.now(); wait > 0; wait = this.nextSlot - this.now()) await sleep(wait);
      this.recordStart();
      this.recovering = true;
      return job();
    });
  }

  private moveWaitingToFallback(): void {
    for (const move of [...this.waitingShared.values()]) move();
  }
}

/**
 * Limiters whose budget is the fleet's, and whose pauses reach every process: a 429 or a block seen
 * by one process is stored in Redis (`pause:<upstream>` or `pause:<upstream>:<scope>`, expiring with the pause) and announced on
 * `pauses`, so the others stop sending at once, and a process started or reconnected during the pause
 * finds it. Each process keeps its own resume timer, so a pause ends even if its author died.
 */
export class FleetLimiters {
  /** Each limiter by its key (`limiterKey`): a scoped one is paused apart from its upstream's others. */
  private readonly cores = new Map<string, { core: UpstreamLimiter; upstream: UpstreamName; scope?: string }>();
  private readonly now: () => number;
  private readonly channel: string;

  constructor(private readonly deps: FleetLimiterDeps) {
    this.now = deps.now ?? Date.now;
    this.channel = `${deps.keyPrefix}pauses`;
    deps.connection.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.applyNotice(message);
    });
    // Without an offline queue a subscription is only possible while connected: (re)subscribe on each 'up'.
    const subscribe = () => deps.connection.subscriber.subscribe(this.channel).catch(() => undefined);
    if (deps.connection.isUp) void subscribe();
    deps.connection.on('up', () => {
      void subscribe();
      void this.syncPauses();
    });
  }

  readonly factory: LimiterFactory = (options) => {
    validateLimiterOptions(options);
    const core = createGatedLimiter(options, new FleetGate(options, this.deps), this.deps.metrics);
    this.cores.set(limiterKey(options), { core, upstream: options.upstream, scope: options.scope });
    if (this.deps.connection.isUp) void this.syncPauses();
    return {
      ...core,
      upstream: core.upstream,
      schedule: (job) => core.schedule(job),
      pause: (ms, reason) => {
        core.pause(ms, reason);
        void this.announce({ upstream: options.upstream, scope: options.scope, until: this.now() + ms, reason, from: this.deps.processId });
      },
    };
  };

  private pauseKey(key: string): string {
    return `${this.deps.keyPrefix}pause:${key}`;
  }

  private async announce(notice: PauseNotice): Promise<void> {
    const ms = notice.until - this.now();
    if (ms <= 0 || !this.deps.connection.isUp) return;
    const { client } = this.deps.connection;
    const text = JSON.stringify(notice);
    try {
      // Keep the longest pause when two processes see one at once.
      const key = this.pauseKey(limiterKey(notice));
      const current = this.parse(await client.get(key));
      if (current === undefined || current.until < notice.until) await client.set(key, text, 'PX', Math.ceil(ms));
      await client.publish(this.channel, text);
    } catch (error) {
      this.deps.logger.warn({ upstream: notice.upstream, err: error }, 'could not share a pause with the fleet');
    }
  }

  private parse(text: string | null): PauseNotice | undefined {
    if (text === null) return undefined;
    try {
      const notice = JSON.parse(text) as PauseNotice;
      const fields = typeof notice.until === 'number' && typeof notice.upstream === 'string' && typeof notice.reason === 'string';
      return fields && (notice.scope === undefined || typeof notice.scope === 'string') ? notice : undefined;
    } catch {
      return undefined;
    }
  }

  private applyNotice(text: string | null): void {
    const notice = this.parse(text);
    if (notice === undefined || notice.from === this.deps.processId) return;
    const ms = notice.until - this.now();
    if (ms > 0) this.cores.get(limiterKey(notice))?.core.pause(ms, notice.reason);
  }

  /** After (re)connecting: take the fleet's pauses, and share the ones this process saw while cut off. */
  private async syncPauses(): Promise<void> {
    for (const [key, { core, upstream, scope }] of this.cores) {
      try {
        const text = await this.deps.connection.client.get(this.pauseKey(key));
        this.applyNotice(text);
        const { pausedUntil, pauseReason } = core.state();
        if (pausedUntil !== null) await this.announce({ upstream, scope, until: pausedUntil, reason: pauseReason ?? 'rate limited', from: this.deps.processId });
      } catch {
        // Lost again: the next 'up' retries.
      }
    }
  }
}
