import { describe, expect, it } from 'vitest';
import { HealthTracker } from '../../src/upstream/health.js';
import { UpstreamError } from '../../src/interaction/upstream-error.js';

describe('HealthTracker', () => {
  it('records successes with their latency', async () => {
    const tracker = new HealthTracker(() => 1_000);
    await tracker.track(async () => 'ok');
    expect(tracker.lastSuccessAt).toBe(1_000);
    expect(tracker.lastLatencyMs).toBeGreaterThanOrEqual(0);
    expect(tracker.lastFailureAt).toBeNull();
  });

  it.each(['unavailable', 'rate_limited', 'bad_response', 'busy'] as const)('counts %s as a failure of the upstream', async (kind) => {
    const tracker = new HealthTracker(() => 2_000);
    await expect(tracker.track(() => Promise.reject(new UpstreamError('wallhaven', kind, 'x')))).rejects.toThrow();
    expect(tracker.lastFailureAt).toBe(2_000);
    expect(tracker.lastFailure).toBe(kind);
  });

  it.each(['not_found', 'invalid_input', 'unauthorized'] as const)('does not count %s against the upstream', async (kind) => {
    const tracker = new HealthTracker(() => 3_000);
    await expect(tracker.track(() => Promise.reject(new UpstreamError('wallhaven', kind, 'x')))).rejects.toThrow();
    expect(tracker.lastFailureAt).toBeNull();
  });

  it('counts an unexpected error as a failure', async () => {
    const tracker = new HealthTracker(() => 4_000);
    await expect(tracker.track(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(tracker.lastFailure).toBe('error');
  });
});
