import { describe, expect, it } from 'vitest';
import { createInProcessState, createLocalSeenOnce } from '../../src/state/in-process.js';

describe('seenOnce in process: each key is first once within its lifetime, in bounded memory', () => {
  it('says first once, repeat after that, and first again once the key has expired', async () => {
    let now = 1_000_000;
    const seen = createInProcessState({ processId: 'p', now: () => now }).seenOnce({ name: 'test', ttlMs: 600_000, maxKeys: 10 });
    expect(await seen.firstTime('a')).toBe(true);
    expect(await seen.firstTime('a')).toBe(false);
    expect(await seen.firstTime('b')).toBe(true);
    now += 599_999;
    expect(await seen.firstTime('a')).toBe(false);
    now += 2;
    expect(await seen.firstTime('a')).toBe(true);
  });

  it('keeps at most maxKeys, forgetting the oldest first even when it was repeated since', async () => {
    const seen = createLocalSeenOnce({ name: 'test', ttlMs: 600_000, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) expect(await seen.firstTime(key)).toBe(true);
    expect(await seen.firstTime('a')).toBe(false);
    expect(await seen.firstTime('d')).toBe(true);
    // 'a' was seen first: a repeat does not make it young again.
    expect(await seen.firstTime('b')).toBe(false);
    expect(await seen.firstTime('a')).toBe(true);
  });

  it('refuses a bound that is no positive integer', () => {
    expect(() => createLocalSeenOnce({ name: 'test', ttlMs: 1_000, maxKeys: 0 })).toThrow(/maxKeys/);
  });
});
