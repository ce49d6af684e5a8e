import type { LimiterState } from '../runtime/status-report.js';
import Bottleneck from 'bottleneck';
import type { Metrics } from '../runtime/metrics.js';
import { UpstreamError, type UpstreamName } from '../interaction/upstream-error.js';

export interface LimiterOptions {
  upstream: UpstreamName;
  /**
   * A part of the upstream with a budget of its own (an RDAP registry's host): across a fleet its
   * spacing, queue and pauses are shared under `<upstream>:<scope>`, apart from the upstream's other parts.
   */
  scope?: string;
  /** Minimum spacing between request starts. A true sliding bound, unlike a reservoir refresh. */
  minTimeMs: number;
  maxConcurrent: number;
  /** Queue bound: past it a caller gets a `busy` error at once instead of waiting. */
  maxQueued: number;
  /** A job still running after this long frees its slot (it is timed out by the HTTP layer first). */
  jobExpirationMs: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}


/**
 * Every upstream request goes through `schedule`, including retries and the second hop of a redirect,
 * so the limit holds whatever path a request takes. A 429 or a block pauses the whole upstream; while
 * paused, new work is refused at once with the remaining time instead of piling up, and work already
 * waiting in the queue is refused the same way when the pause begins (rather than held for the
 * whole pause, far past the 20 s a Discord user should wait for an answer).
 */
export interface UpstreamLimiter {
  readonly upstream: UpstreamName;
  schedule<T>(job: () => Promise<T>): Promise<T>;
  /** Stops sending for `ms` (Retry-After, or a circuit opened after a block). */
  pause(ms: number, reason: string): void;
  /** How long a job scheduled now would wait before it starts, roughly. */
  expectedWaitMs(): number;
  state(): LimiterState;
  stop(): Promise<void>;
}

function assertPositive(name: string, value: number, allowZero = false): void {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new TypeError(`createLimiter: option "${name}" must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`);
  }
}

/** The name a limiter's budget is shared under: its upstream, and its scope when it has one. */
export function limiterKey(options: Pick<LimiterOptions, 'upstream' | 'scope'>): string {
  return options.scope === undefined ? options.upstream : `${options.upstream}:${options.scope}`;
}

export type LimiterFactory = (options: LimiterOptions) => UpstreamLimiter;

/** What an upstream's limiter is tuned by: its spacing, concurrency and queue bound. */
export type LimiterSettings = Pick<LimiterOptions, 'minTimeMs' | 'maxConcurrent' | 'maxQueued'>;

/**
 * The in-process limiter (Bottleneck, local datastore). Services receive a factory so a shared
 * backend (Bottleneck's Redis datastore) can be plugged in without touching them.
 */
export function createLocalLimiterFactory(metrics?: Metrics): LimiterFactory {
  return (options) => createLocalLimiter(options, metrics);
}

/**
 * What decides when a job may start: one Bottleneck, or (for a fleet) a choice between a shared one
 * and a local share. The subset of Bottleneck's API the limiter uses.
 */
export interface LimiterGate {
  schedule<T>(options: { expiration: number }, job: () => Promise<T>): Promise<T>;
  counts(): Pick<Bottleneck.Counts, 'QUEUED' | 'RUNNING' | 'EXECUTING'>;
  /** A zero reservoir holds jobs already queued during a pause; null lifts it. */
  updateSettings(settings: { reservoir: number | null }): unknown;
  stop(options: { dropWaitingJobs: boolean }): Promise<unknown>;
  /** Called when jobs are queued or start, to keep the queue gauge current. */
  on(event: 'queued' | 'executing', listener: () => void): void;
}

export function validateLimiterOptions(options: LimiterOptions): void {
  assertPositive('minTimeMs', options.minTimeMs, true);
  assertPositive('maxConcurrent', options.maxConcurrent);
  assertPositive('maxQueued', options.maxQueued, true);
  assertPositive('jobExpirationMs', options.jobExpirationMs);
}

/** An in-process Bottleneck with the limiter's spacing, concurrency and queue bound. */
export function localBottleneck(options: LimiterSettings): Bottleneck {
  return new Bottleneck({
    minTime: options.minTimeMs,
    maxConcurrent: options.maxConcurrent,
    highWater: options.maxQueued,
    strategy: Bottleneck.strategy.OVERFLOW,
  });
}

export function createLocalLimiter(options: LimiterOptions, metrics?: Metrics): UpstreamLimiter {
  validateLimiterOptions(options);
  return createGatedLimiter(options, localBottleneck(options), metrics);
}

/** The limiter's pause, refusal and queue logic over any gate (see `LimiterGate`). */
export function createGatedLimiter(options: LimiterOptions, bottleneck: LimiterGate, metrics?: Metrics): UpstreamLimiter {
  const now = options.now ?? Date.now;
  const { upstream } = options;
  let pausedUntil: number | null = null;
  let pauseReason: string | null = null;
  let resumeTimer: NodeJS.Timeout | undefined;
  /** Refusals of the jobs still waiting in the queue, keyed by job, called when a pause begins. */
  const waiting = new Map<object, (error: UpstreamError) => void>();

  const queuedGauge = metrics?.limiterQueued.labels(upstream);
  const updateGauge = () => queuedGauge?.set(bottleneck.counts().QUEUED);
  /** When this process's latest job started: the spacing counts from it. */
  let lastStartAt = Number.NEGATIVE_INFINITY;
  bottleneck.on('queued', updateGauge);
  bottleneck.on('executing', () => {
    lastStartAt = now();
    updateGauge();
  });

  const remainingPauseMs = () => (pausedUntil === null ? 0 : Math.max(0, pausedUntil - now()));

  const limiter: UpstreamLimiter = {
    upstream,
    async schedule(job) {
      const pausedFor = remainingPauseMs();
      if (pausedFor > 0) {
        metrics?.limiterRejected.labels(upstream, 'paused').inc();
        throw new UpstreamError(upstream, 'rate_limited', `${upstream} paused: ${pauseReason ?? 'rate limited'}`, {
          retryAfterMs: pausedFor,
        });
      }
      const ticket = {};
      const refused = new Promise<never>((_resolve, reject) => waiting.set(ticket, reject));
      // A refused job still takes its turn in Bottleneck's queue later, but then sends nothing.
      const started = bottleneck.schedule({ expiration: options.jobExpirationMs }, () =>
        waiting.delete(ticket) ? job() : Promise.resolve(undefined as never),
      );
      // Once refused, nobody awaits `started`; a later rejection (the limiter stopping) must not go unhandled.
      started.catch(() => undefined);
      try {
        return await Promise.race([started, refused]);
      } catch (error) {
        if (error instanceof Bottleneck.BottleneckError) {
          metrics?.limiterRejected.labels(upstream, 'queue_full').inc();
          throw new UpstreamError(upstream, 'busy', `${upstream} limiter: ${error.message}`, {
            retryAfterMs: limiter.expectedWaitMs(),
            cause: error,
          });
        }
        throw error;
      } finally {
        waiting.delete(ticket);
      }
    },
    pause(ms, reason) {
      const until = now() + ms;
      if (pausedUntil !== null && pausedUntil >= until) return;
      pausedUntil = until;
      pauseReason = reason;
      // A zero reservoir holds back jobs already queued; their callers are answered now instead.
      void bottleneck.updateSettings({ reservoir: 0 });
      if (waiting.size > 0) {
        metrics?.limiterRejected.labels(upstream, 'paused').inc(waiting.size);
        const refusal = new UpstreamError(upstream, 'rate_limited', `${upstream} paused: ${reason}`, { retryAfterMs: ms });
        for (const refuse of waiting.values()) refuse(refusal);
        waiting.clear();
      }
      clearTimeout(resumeTimer);
      resumeTimer = setTimeout(() => {
        pausedUntil = null;
        pauseReason = null;
        void bottleneck.updateSettings({ reservoir: null });
      }, ms);
      resumeTimer.unref();
    },
    expectedWaitMs() {
      // Bottleneck starts one job per spacing whatever its concurrency, the jobs waiting for a slot
      // (RUNNING) and those queued behind them each take one: a new job starts one spacing after
      // the last of them. Dividing by the concurrency, as this once did, halved the wait announced.
      const { QUEUED, RUNNING } = bottleneck.counts();
      const startsAt = lastStartAt + (QUEUED + RUNNING + 1) * options.minTimeMs;
      return remainingPauseMs() + Math.max(0, startsAt - now());
    },
    state() {
      const counts = bottleneck.counts();
      return {
        queued: counts.QUEUED,
        running: counts.RUNNING + counts.EXECUTING,
        pausedUntil: remainingPauseMs() > 0 ? pausedUntil : null,
        pauseReason: remainingPauseMs() > 0 ? pauseReason : null,
      };
    },
    async stop() {
      clearTimeout(resumeTimer);
      await bottleneck.stop({ dropWaitingJobs: true });
    },
  };
  return limiter;
}
