import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { UpstreamHealth } from './services/health.js';

/**
 * One Prometheus registry per app instance (not prom-client's global one), so tests and the CLI can
 * build several apps in one process without "metric already registered" errors.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    interactions: new Counter({
      name: 'almanac_interactions_total',
      help: 'Interactions handled, by command and outcome',
      labelNames: ['command', 'kind', 'outcome'] as const,
      registers: [registry],
    }),
    interactionLatency: new Histogram({
      name: 'almanac_interaction_duration_seconds',
      help: 'Time from receiving an interaction to its final answer',
      labelNames: ['command', 'kind'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers: [registry],
    }),
    interactionRequests: new Counter({
      name: 'almanac_interaction_requests_total',
      help: 'HTTP mode: requests to POST /interactions, by response status (401: unsigned or badly signed)',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    upstreamRequests: new Counter({
      name: 'almanac_upstream_requests_total',
      help: 'Requests sent to upstream APIs, by upstream and result',
      labelNames: ['upstream', 'result'] as const,
      registers: [registry],
    }),
    upstreamLatency: new Histogram({
      name: 'almanac_upstream_request_duration_seconds',
      help: 'Upstream request latency',
      labelNames: ['upstream'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'almanac_cache_lookups_total',
      help: 'Cache lookups by cache and status (hit, miss, stale)',
      labelNames: ['cache', 'status'] as const,
      registers: [registry],
    }),
    limiterQueued: new Gauge({
      name: 'almanac_limiter_queued',
      help: 'Jobs waiting in an upstream limiter queue',
      labelNames: ['upstream'] as const,
      registers: [registry],
    }),
    memberShareRefusals: new Counter({
      name: 'almanac_member_share_refusals_total',
      help: "Requests refused because the member had spent their share of an upstream's budget, by upstream",
      labelNames: ['upstream'] as const,
      registers: [registry],
    }),
    limiterRejected: new Counter({
      name: 'almanac_limiter_rejected_total',
      help: 'Requests refused by an upstream limiter (queue full, paused or circuit open)',
      labelNames: ['upstream', 'reason'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Gauges read from each upstream's health at scrape time, so /metrics and /status always agree:
 * pause/circuit state, last success and failure times, cache sizes, and the numeric service facts
 * (card database size, sets, images…).
 */
export function registerHealthGauges(metrics: Metrics, health: () => UpstreamHealth[]): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'almanac_upstream_paused',
    help: '1 while requests to an upstream are paused (429 Retry-After or an open circuit)',
    labelNames: ['upstream'] as const,
    registers,
    collect() {
      this.reset();
      for (const report of health()) this.labels(report.upstream).set(report.limiter.pausedUntil === null ? 0 : 1);
    },
  });
  new Gauge({
    name: 'almanac_upstream_last_success_timestamp_seconds',
    help: 'When an upstream last answered successfully',
    labelNames: ['upstream'] as const,
    registers,
    collect() {
      this.reset();
      for (const report of health()) if (report.lastSuccessAt !== null) this.labels(report.upstream).set(report.lastSuccessAt / 1000);
    },
  });
  new Gauge({
    name: 'almanac_upstream_last_failure_timestamp_seconds',
    help: 'When an upstream last failed (timeout, 5xx, rate limit, bad answer)',
    labelNames: ['upstream'] as const,
    registers,
    collect() {
      this.reset();
      for (const report of health()) if (report.lastFailureAt !== null) this.labels(report.upstream).set(report.lastFailureAt / 1000);
    },
  });
  new Gauge({
    name: 'almanac_cache_entries',
    help: 'Entries held by each cache',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      this.reset();
      for (const report of health()) for (const cache of report.caches) this.labels(cache.name).set(cache.size);
    },
  });
  new Gauge({
    name: 'almanac_service_fact',
    help: 'Numeric facts a service reports in /status, e.g. cardDatabaseSize',
    labelNames: ['upstream', 'fact'] as const,
    registers,
    collect() {
      this.reset();
      for (const report of health()) {
        for (const [fact, value] of Object.entries(report.details)) {
          if (typeof value === 'number' && Number.isFinite(value)) this.labels(report.upstream, fact).set(value);
        }
      }
    },
  });
}

/** 1 while Redis is configured but unreachable: each process then spends only its local share of each budget. */
export function registerSharedStateGauge(metrics: Metrics, degraded: () => boolean): void {
  new Gauge({
    name: 'almanac_shared_state_degraded',
    help: '1 while the shared state (Redis) is unreachable and each budget is divided locally; 0 otherwise',
    registers: [metrics.registry],
    collect() {
      this.set(degraded() ? 1 : 0);
    },
  });
}
