import type { CacheStats } from './cache.js';
import type { LimiterState } from './limiter.js';
import { isUpstreamError, type UpstreamErrorKind, type UpstreamName } from '../interaction/upstream-error.js';

const ANSWERS_NOT_FAILURES: ReadonlySet<UpstreamErrorKind> = new Set(['not_found', 'invalid_input', 'unauthorized']);

export interface UpstreamHealth {
  upstream: UpstreamName;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  /** A short description of the last failure (its error kind), never a URL or a body. */
  lastFailure: string | null;
  /** Latency of the last successful request. */
  lastLatencyMs: number | null;
  limiter: LimiterState;
  caches: CacheStats[];
  /** Service-specific facts for /status, e.g. the card database version and size. */
  details: Record<string, string | number>;
}

/** Records the outcome of upstream requests for /status and the readiness of each service. */
export class HealthTracker {
  lastSuccessAt: number | null = null;
  lastFailureAt: number | null = null;
  lastFailure: string | null = null;
  lastLatencyMs: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Times `work` and records its outcome; rethrows failures. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await work();
      this.lastSuccessAt = this.now();
      this.lastLatencyMs = Math.round(performance.now() - started);
      return result;
    } catch (error) {
      // Only the upstream's own failures count: a refused input, a missing item or a missing key
      // says nothing about its health.
      if (!isUpstreamError(error) || !ANSWERS_NOT_FAILURES.has(error.kind)) {
        this.lastFailureAt = this.now();
        this.lastFailure = isUpstreamError(error) ? error.kind : 'error';
      }
      throw error;
    }
  }
}
