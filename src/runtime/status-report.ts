import type { UpstreamName } from '../interaction/upstream-error.js';

/**
 * What a running process reports about itself: /status shows it, /metrics exports the same
 * figures. Services fill it in; render only reads it.
 */

/** How this process receives interactions: shown by /status. */
export type RunMode = 'gateway' | 'http' | 'terminal';

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

export interface LimiterState {
  queued: number;
  running: number;
  pausedUntil: number | null;
  pauseReason: string | null;
}

export interface CacheStats {
  name: string;
  size: number;
  hits: number;
  misses: number;
  stale: number;
}
