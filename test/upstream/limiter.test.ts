import { afterEach, describe, expect, it } from 'vitest';
import { createLocalLimiter, type UpstreamLimiter } from '../../src/upstream/limiter.js';

const SPACING_MS = 60_000;

describe('expectedWaitMs', () => {
  let limiter: UpstreamLimiter | undefined;
  afterEach(() => limiter?.stop());

  it('counts one spacing for each job ahead, whatever the concurrency', async () => {
    let clock = 1_000_000;
    limiter = createLocalLimiter({ upstream: 'wallhaven', minTimeMs: SPACING_MS, maxConcurrent: 2, maxQueued: 10, jobExpirationMs: 5 * SPACING_MS, now: () => clock });
    expect(limiter.expectedWaitMs()).toBe(0);
    const first = limiter.schedule(() => Promise.resolve('first'));
    for (let job = 0; job < 4; job++) void limiter.schedule(() => Promise.resolve(job)).catch(() => undefined);
    await first;
    // The first started at `clock`; two more hold the next slots (concurrency 2), two are queued.
    await expect.poll(() => limiter!.state()).toMatchObject({ queued: 2, running: 2 });
    expect(limiter.expectedWaitMs()).toBe(5 * SPACING_MS);
    clock += 10_000;
    expect(limiter.expectedWaitMs()).toBe(5 * SPACING_MS - 10_000);
  });

  it('is nothing once the last start is a spacing old and nothing waits', async () => {
    let clock = 0;
    limiter = createLocalLimiter({ upstream: 'geojs', minTimeMs: 1_000, maxConcurrent: 1, maxQueued: 10, jobExpirationMs: 5_000, now: () => clock });
    await limiter.schedule(() => Promise.resolve(undefined));
    expect(limiter.expectedWaitMs()).toBe(1_000);
    clock += 1_500;
    expect(limiter.expectedWaitMs()).toBe(0);
  });

  it('adds what is left of a pause', async () => {
    let clock = 0;
    limiter = createLocalLimiter({ upstream: 'geojs', minTimeMs: 1_000, maxConcurrent: 1, maxQueued: 10, jobExpirationMs: 5_000, now: () => clock });
    limiter.pause(30_000, 'Retry-After');
    clock += 5_000;
    expect(limiter.expectedWaitMs()).toBe(25_000);
  });
});
