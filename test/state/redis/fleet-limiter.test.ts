import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { LimiterOptions, UpstreamLimiter } from '../../../src/upstream/limiter.js';
import { createRedisState } from '../../../src/state/redis/index.js';
import type { SharedState } from '../../../src/state/shared-state.js';
import { describeWithRedis, emptyRedis, startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

/**
 * Scoped fleet limiters (one per RDAP registry): two processes on one real Redis share each scope's
 * spacing and pauses, and one scope's never hold another's.
 */

const silent = pino({ level: 'silent' });
/** Far longer than any test waits: a second start inside it means the two did not share a spacing. */
const SPACING_MS = 600_000;

function registryOptions(scope: string): LimiterOptions {
  return { upstream: 'rdap', scope, minTimeMs: SPACING_MS, maxConcurrent: 1, maxQueued: 10, jobExpirationMs: 5_000 };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describeWithRedis('scoped limiters of a fleet on a real Redis', () => {
  let redis: RedisServer;
  const states: SharedState[] = [];
  const limiters: UpstreamLimiter[] = [];

  async function process(id: string): Promise<SharedState> {
    const state = await createRedisState({ url: redis.url, processId: id, logger: silent });
    states.push(state);
    return state;
  }

  function limiter(state: SharedState, scope: string): UpstreamLimiter {
    const created = state.limiterFactory(registryOptions(scope));
    limiters.push(created);
    return created;
  }

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    for (const created of limiters.splice(0)) await created.stop();
    for (const state of states.splice(0)) await state.close();
    await emptyRedis(redis.url);
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('spaces each registry on its own: two registries start at once, a second request to one waits', async () => {
    const state = await process('p1');
    const arin = limiter(state, 'rdap.arin.net');
    const ripe = limiter(state, 'rdap.db.ripe.net');
    const started: string[] = [];
    void arin.schedule(async () => void started.push('arin 1'));
    void ripe.schedule(async () => void started.push('ripe 1'));
    void arin.schedule(async () => void started.push('arin 2')).catch(() => undefined);
    await until(() => started.length >= 2, 'both registries to start');
    await sleep(200);
    expect(started.sort()).toEqual(['arin 1', 'ripe 1']);
  });

  it('a pause of one registry reaches the same registry in another process, and no other registry', async () => {
    const [first, second] = [await process('p1'), await process('p2')];
    const firstArin = limiter(first, 'rdap.arin.net');
    const secondArin = limiter(second, 'rdap.arin.net');
    const secondRipe = limiter(second, 'rdap.db.ripe.net');
    firstArin.pause(30_000, 'rdap.arin.net answered 429');
    await until(() => secondArin.state().pausedUntil !== null, 'the pause to reach the other process');
    expect(secondRipe.state().pausedUntil).toBeNull();
    await expect(secondRipe.schedule(async () => 'asked')).resolves.toBe('asked');
    // A process started during the pause finds it under the registry's own key.
    const late = await process('p3');
    const lateArin = limiter(late, 'rdap.arin.net');
    const lateRipe = limiter(late, 'rdap.db.ripe.net');
    await until(() => lateArin.state().pausedUntil !== null, 'the pause to reach a late process');
    expect(lateRipe.state().pausedUntil).toBeNull();
  });
});
