import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { LocalMemberShareLedger } from '../../src/state/member-share-ledger.js';

function cooldownAt(start = 0, options: { limit?: number; windowMs?: number; maxUsers?: number } = {}) {
  const clock = { now: start };
  const cooldown = new LocalMemberShareLedger({ name: 'test', limit: 3, windowMs: 60_000, ...options, now: () => clock.now });
  return { cooldown, clock };
}

describe('LocalMemberShareLedger', () => {
  it('allows `limit` uses in a window, then says how long until the oldest leaves it', () => {
    const { cooldown, clock } = cooldownAt(1_000);
    expect(cooldown.take('ann')).toEqual({ allowed: true });
    clock.now = 11_000;
    expect(cooldown.take('ann')).toEqual({ allowed: true });
    expect(cooldown.take('ann')).toEqual({ allowed: true });
    clock.now = 21_000;
    expect(cooldown.take('ann')).toEqual({ allowed: false, retryAfterMs: 40_000 });
    clock.now = 60_999;
    expect(cooldown.take('ann')).toEqual({ allowed: false, retryAfterMs: 1 });
    clock.now = 61_000;
    expect(cooldown.take('ann')).toEqual({ allowed: true });
    // The window slid past one use only: the next is refused until the use at 11 000 leaves it.
    expect(cooldown.take('ann')).toEqual({ allowed: false, retryAfterMs: 10_000 });
  });

  it('does not count a refused attempt as a use', () => {
    const { cooldown, clock } = cooldownAt(0, { limit: 1 });
    cooldown.take('ann');
    for (let attempt = 0; attempt < 50; attempt++) expect(cooldown.take('ann').allowed).toBe(false);
    clock.now = 60_000;
    expect(cooldown.take('ann')).toEqual({ allowed: true });
  });

  it('keeps each user’s budget apart', () => {
    const { cooldown } = cooldownAt();
    for (let use = 0; use < 3; use++) cooldown.take('ann');
    expect(cooldown.take('ann').allowed).toBe(false);
    expect(cooldown.take('bob')).toEqual({ allowed: true });
  });

  it('remembers at most maxUsers users, forgetting the least recently active', () => {
    const { cooldown } = cooldownAt(0, { limit: 1, maxUsers: 2 });
    cooldown.take('ann');
    cooldown.take('bob');
    cooldown.take('carol');
    // Ann was forgotten when Carol came: memory stays bounded, at the price of a fresh budget.
    expect(cooldown.take('ann')).toEqual({ allowed: true });
  });

  it('validates its options, naming the bad one', () => {
    expect(() => new LocalMemberShareLedger({ name: 'wallhaven', limit: 0, windowMs: 1_000 })).toThrow(/LocalMemberShareLedger\(wallhaven\): option "limit" must be a positive integer/);
    expect(() => new LocalMemberShareLedger({ name: 'wallhaven', limit: 1, windowMs: 1.5 })).toThrow(/option "windowMs"/);
    expect(() => new LocalMemberShareLedger({ name: 'wallhaven', limit: 1, windowMs: 1_000, maxUsers: -1 })).toThrow(/option "maxUsers"/);
  });

  it('grants exactly the uses a sliding window allows, for any arrival pattern (property)', () => {
    const arrival = fc.record({ user: fc.constantFrom('ann', 'bob', 'carol'), afterMs: fc.integer({ min: 0, max: 30_000 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1_000, max: 60_000 }), fc.array(arrival, { maxLength: 200 }), (limit, windowMs, arrivals) => {
        const { cooldown, clock } = cooldownAt(0, { limit, windowMs });
        const granted = new Map<string, number[]>();
        for (const { user, afterMs } of arrivals) {
          clock.now += afterMs;
          const inWindow = (granted.get(user) ?? []).filter((at) => at > clock.now - windowMs);
          const decision = cooldown.take(user);
          // Allowed exactly when fewer than `limit` uses were granted in the window ending now.
          expect(decision.allowed).toBe(inWindow.length < limit);
          if (decision.allowed) granted.set(user, [...inWindow, clock.now]);
          else expect(decision.retryAfterMs).toBe(inWindow[0]! + windowMs - clock.now);
        }
      }),
      { numRuns: fuzzRuns(500) },
    );
  });
});
