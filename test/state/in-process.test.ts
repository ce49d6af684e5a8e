import { describe, expect, it } from 'vitest';
import { createInProcessState, createLocalChannelHistory, createLocalSeenOnce } from '../../src/state/in-process.js';

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

describe('channelHistory in process: each channel keeps its last picks', () => {
  it('keeps the last `length` picks per channel, oldest first, channels apart', async () => {
    const history = createLocalChannelHistory({ name: 'test', length: 3, maxChannels: 10 });
    for (const id of [1, 2, 3, 4]) await history.add('a', id);
    await history.add('b', 9);
    expect(await history.recent('a')).toEqual([2, 3, 4]);
    expect(await history.recent('b')).toEqual([9]);
    expect(await history.recent('c')).toEqual([]);
  });

  it('remembers nothing with length 0, forgets the least recently used channel past maxChannels, and refuses a bad length', async () => {
    const none = createLocalChannelHistory({ name: 'test', length: 0, maxChannels: 10 });
    await none.add('a', 1);
    expect(await none.recent('a')).toEqual([]);
    const two = createLocalChannelHistory({ name: 'test', length: 5, maxChannels: 2 });
    await two.add('a', 1);
    await two.add('b', 2);
    await two.add('c', 3);
    expect(await two.recent('a')).toEqual([]);
    expect(await two.recent('c')).toEqual([3]);
    expect(() => createLocalChannelHistory({ name: 'test', length: 1.5, maxChannels: 1 })).toThrow(/length/);
  });
});

describe('createInProcessState', () => {
  it('reports this process alone as the fleet, as its transport describes it, with the requests its limiters started', async () => {
    const now = 5_000_000;
    const state = createInProcessState({ processId: 'solo', now: () => now });
    state.fleet.describeWith(() => ({ shards: [0, 1], guilds: 7 }));
    const limiter = state.limiterFactory({ upstream: 'geojs', minTimeMs: 1, maxConcurrent: 1, maxQueued: 5, jobExpirationMs: 1_000 });
    await limiter.schedule(() => Promise.resolve('done'));
    const [member, ...others] = await state.fleet.members();
    expect(others).toEqual([]);
    expect(member).toMatchObject({ processId: 'solo', shards: [0, 1], guilds: 7, seenAt: now });
    expect(member?.upstreams).toEqual([{ upstream: 'geojs', requestsLastMinute: 1, queued: 0, pausedUntil: null }]);
    expect(state.health()).toEqual({ backend: 'in-process', degraded: false, since: null, fallbackShareOf: 1 });
    await limiter.stop();
  });

  it('gives each member their own share in a ledger on its clock, and keeps long queries for recall', async () => {
    let now = 0;
    const state = createInProcessState({ processId: 'solo', now: () => now });
    const ledger = state.memberShareLedger({ name: 'wallhaven', limit: 2, windowMs: 60_000 });
    expect((await ledger.take('u1')).allowed).toBe(true);
    expect((await ledger.take('u1')).allowed).toBe(true);
    expect(await ledger.take('u1')).toMatchObject({ allowed: false });
    expect((await ledger.take('u2')).allowed).toBe(true);
    now += 60_001;
    expect((await ledger.take('u1')).allowed).toBe(true);
    const text = 'x'.repeat(500);
    expect(await state.longQueries.recall(await state.longQueries.remember(text))).toBe(text);
  });
});
