import { describe, expect, it } from 'vitest';
import type { LimiterFactory, UpstreamLimiter } from '../../src/upstream/limiter.js';
import { TrackedLimiters } from '../../src/state/tracked-limiters.js';

/** A limiter that runs every job at once and whose queue and pause the test sets. */
function fakeFactory(shown: { queued: number; pausedUntil: number | null }): { factory: LimiterFactory; paused: [number, string][] } {
  const paused: [number, string][] = [];
  const factory: LimiterFactory = (options) =>
    ({
      upstream: options.upstream,
      schedule: (job) => job(),
      pause: (ms, reason) => paused.push([ms, reason]),
      expectedWaitMs: () => 42,
      state: () => ({ queued: shown.queued, running: 0, pausedUntil: shown.pausedUntil, pauseReason: null }),
      stop: () => Promise.resolve(),
    }) satisfies UpstreamLimiter;
  return { factory, paused };
}

const OPTIONS = { minTimeMs: 1, maxConcurrent: 1, maxQueued: 5, jobExpirationMs: 1_000 };

describe('TrackedLimiters', () => {
  it('counts per upstream the jobs started in the last minute, and forgets older ones', async () => {
    let now = 1_000_000;
    const tracked = new TrackedLimiters(() => now);
    const { factory } = fakeFactory({ queued: 0, pausedUntil: null });
    const geojs = tracked.wrap(factory)({ upstream: 'geojs', ...OPTIONS });
    const wallhaven = tracked.wrap(factory)({ upstream: 'wallhaven', ...OPTIONS });
    expect(await geojs.schedule(() => Promise.resolve('answer'))).toBe('answer');
    now += 30_000;
    await geojs.schedule(() => Promise.resolve());
    await wallhaven.schedule(() => Promise.resolve());
    expect(tracked.reports().map((report) => [report.upstream, report.requestsLastMinute])).toEqual([
      ['geojs', 2],
      ['wallhaven', 1],
    ]);
    now += 30_000;
    expect(tracked.reports().map((report) => report.requestsLastMinute)).toEqual([1, 1]);
    now += 30_001;
    expect(tracked.reports().map((report) => report.requestsLastMinute)).toEqual([0, 0]);
  });

  it('counts each limiter of one upstream apart (one per RDAP registry), so the fleet sums them all', async () => {
    const tracked = new TrackedLimiters(() => 1_000_000);
    const { factory } = fakeFactory({ queued: 0, pausedUntil: null });
    const arin = tracked.wrap(factory)({ upstream: 'rdap', scope: 'rdap.arin.net', ...OPTIONS });
    const ripe = tracked.wrap(factory)({ upstream: 'rdap', scope: 'rdap.db.ripe.net', ...OPTIONS });
    await arin.schedule(() => Promise.resolve());
    await arin.schedule(() => Promise.resolve());
    await ripe.schedule(() => Promise.resolve());
    expect(tracked.reports().map((report) => [report.upstream, report.requestsLastMinute])).toEqual([
      ['rdap', 2],
      ['rdap', 1],
    ]);
  });

  it('reports the limiter’s queue and pause, and passes everything else through', () => {
    const shown = { queued: 3, pausedUntil: 2_000_000 };
    const { factory, paused } = fakeFactory(shown);
    const tracked = new TrackedLimiters(() => 0);
    const limiter = tracked.wrap(factory)({ upstream: 'ygoprodeck', ...OPTIONS });
    limiter.pause(5_000, 'blocked');
    expect(paused).toEqual([[5_000, 'blocked']]);
    expect(limiter.expectedWaitMs()).toBe(42);
    expect(tracked.reports()).toEqual([{ upstream: 'ygoprodeck', requestsLastMinute: 0, queued: 3, pausedUntil: 2_000_000 }]);
  });

  it('counts a job that fails as started', async () => {
    const tracked = new TrackedLimiters(() => 0);
    const limiter = tracked.wrap(fakeFactory({ queued: 0, pausedUntil: null }).factory)({ upstream: 'geojs', ...OPTIONS });
    await expect(limiter.schedule(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(tracked.reports()[0]?.requestsLastMinute).toBe(1);
  });
});
