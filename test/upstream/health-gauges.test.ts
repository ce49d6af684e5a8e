import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/runtime/metrics.js';
import type { UpstreamHealth } from '../../src/runtime/status-report.js';
import { registerHealthGauges } from '../../src/upstream/health-gauges.js';

const report: UpstreamHealth = {
  upstream: 'ygoprodeck',
  lastSuccessAt: 1_700_000_000_000,
  lastFailureAt: null,
  lastFailure: null,
  lastLatencyMs: 12,
  limiter: { queued: 0, running: 0, pausedUntil: null, pauseReason: null },
  caches: [{ name: 'card-art', size: 3, hits: 0, misses: 0, stale: 0 }],
  details: {
    cardDatabase: 'local',
    cardDatabaseSize: 13_703,
    cardDatabaseDownloadedAt: '2026-11-01T00:00:00.000Z',
    cardDatabaseLastCheckAt: 'never',
    cardDatabaseVersion: '1.00',
  },
};

describe('registerHealthGauges', () => {
  it('exports the numeric facts and the moments of /status, and nothing else of it', async () => {
    const metrics = createMetrics();
    registerHealthGauges(metrics, () => [report]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('almanac_service_fact{upstream="ygoprodeck",fact="cardDatabaseSize"} 13703');
    expect(text).toContain(`almanac_service_timestamp_seconds{upstream="ygoprodeck",fact="cardDatabaseDownloadedAt"} ${Date.parse('2026-11-01T00:00:00.000Z') / 1000}`);
    // "never" is no moment, a version is no number, and a string fact is no timestamp.
    expect(text).not.toMatch(/fact="cardDatabaseLastCheckAt"|fact="cardDatabaseVersion"|fact="cardDatabase"}/);
    expect(text).toContain('almanac_upstream_last_success_timestamp_seconds{upstream="ygoprodeck"} 1700000000');
  });
});
