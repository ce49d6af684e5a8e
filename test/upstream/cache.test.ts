import { describe, expect, it } from 'vitest';
import { createLocalCache } from '../../src/upstream/cache.js';

/** A cache whose loads are counted, on a clock the test moves. */
function countingCache() {
  // Not 0: lru-cache takes an entry stored at time 0 for one without a TTL.
  let now = 1_000_000;
  const loads: string[] = [];
  const cache = createLocalCache<string>({
    name: 'charged',
    max: 10,
    ttlMs: 1_000,
    now: () => now,
    load: (key) => {
      loads.push(key);
      return Promise.resolve(`${key}#${loads.length}`);
    },
  });
  // lru-cache keeps one clock reading until a 1 ms timer clears it: let that timer run after a move.
  const advance = async (ms: number) => {
    now += ms;
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { cache, loads, advance };
}

const refusal = new Error('share spent');
const refuse = { beforeRequest: () => Promise.reject(refusal) };

describe('a cache lookup with a charge', () => {
  it('does not charge a fresh entry', async () => {
    const { cache, loads } = countingCache();
    await cache.get('a');
    expect(await cache.get('a', refuse)).toBe('a#1');
    expect(loads).toEqual(['a']);
  });

  it('refuses a missing entry with the charge’s error, loading nothing', async () => {
    const { cache, loads } = countingCache();
    await expect(cache.get('a', refuse)).rejects.toBe(refusal);
    expect(loads).toEqual([]);
  });

  it('serves an expired entry as it is, without refreshing it, when the charge refuses', async () => {
    const { cache, loads, advance } = countingCache();
    await cache.get('a');
    await advance(5_000);
    expect(await cache.get('a', refuse)).toBe('a#1');
    expect(await cache.get('a', refuse)).toBe('a#1');
    expect(loads).toEqual(['a']);
    expect(cache.stats()).toMatchObject({ misses: 1, stale: 2, hits: 0 });
  });

  it('refreshes an expired entry in the background once the charge agrees', async () => {
    const { cache, loads, advance } = countingCache();
    await cache.get('a');
    await advance(5_000);
    let charged = 0;
    expect(await cache.get('a', { beforeRequest: () => Promise.resolve(void charged++) })).toBe('a#1');
    await expect.poll(() => cache.get('a')).toBe('a#2');
    expect(charged).toBe(1);
    expect(loads).toEqual(['a', 'a']);
  });
});
