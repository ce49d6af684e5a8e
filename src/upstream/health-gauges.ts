import { Gauge, type Registry } from 'prom-client';
import type { Metrics } from '../runtime/metrics.js';
import type { UpstreamHealth } from '../runtime/status-report.js';

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
  serviceFactGauge(registers, health, 'almanac_service_fact', 'Numeric facts a service reports in /status, e.g. cardDatabaseSize', (_fact, value) =>
    typeof value === 'number' ? value : undefined,
  );
  serviceFactGauge(
    registers,
    health,
    'almanac_service_timestamp_seconds',
    'Moments a service reports in /status (facts named …At), e.g. cardDatabaseDownloadedAt, cardDatabaseLastCheckAt: what age alerts read',
    (fact, value) => (fact.endsWith('At') && typeof value === 'string' ? Date.parse(value) / 1000 : undefined),
  );
}

/** A gauge of each service's `/status` facts that `valueOf` turns into a number (the others are left out). */
function serviceFactGauge(
  registers: Registry[],
  health: () => UpstreamHealth[],
  name: string,
  help: string,
  valueOf: (fact: string, value: string | number) => number | undefined,
): void {
  new Gauge({
    name,
    help,
    labelNames: ['upstream', 'fact'] as const,
    registers,
    collect() {
      this.reset();
      for (const report of health()) {
        for (const [fact, value] of Object.entries(report.details)) {
          const number = valueOf(fact, value);
          if (number !== undefined && Number.isFinite(number)) this.labels(report.upstream, fact).set(number);
        }
      }
    },
  });
}
