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

/** How the shared state stands (/status): shared through Redis, or degraded to each process's own share. */
export interface SharedStateHealth {
  backend: 'in-process' | 'redis';
  /** True while Redis is configured but unreachable: each process then keeps a local share of each budget. */
  degraded: boolean;
  /** Epoch ms of the last change between shared and degraded, null when it never changed. */
  since: number | null;
  /** How many processes each budget is divided by while degraded (the last known fleet size). */
  fallbackShareOf: number;
}

/** What one process says about itself in its heartbeat. */
export interface FleetMember {
  processId: string;
  /** Gateway shard ids this process runs (empty for HTTP-only or not yet connected). */
  shards: number[];
  guilds: number;
  /** Epoch ms of its last heartbeat. */
  seenAt: number;
  upstreams: FleetUpstreamReport[];
}

export interface FleetUpstreamReport {
  upstream: UpstreamName;
  /** Requests this process started in the last minute. */
  requestsLastMinute: number;
  queued: number;
  pausedUntil: number | null;
}
