import { describe, expect, it } from 'vitest';
import { MemberShareSpent } from '../../src/interaction/errors.js';
import { MEMBER_SHARES } from '../../src/runtime/member-shares.js';
import { createMetrics } from '../../src/runtime/metrics.js';
import { createInProcessState } from '../../src/state/in-process.js';
import { MemberShares } from '../../src/state/member-shares.js';
import type { MemberShareSpender } from '../../src/upstream/cache.js';

/** What a service does before each request it makes for a member. */
function spend(spender: MemberShareSpender): Promise<void> {
  if (spender.beforeRequest === undefined) throw new Error('a member share spender always checks before a request');
  return spender.beforeRequest();
}

function shares(overrides?: ConstructorParameters<typeof MemberShares>[0]['overrides']) {
  let now = 0;
  const metrics = createMetrics();
  const memberShares = new MemberShares({ state: createInProcessState({ processId: 'p', now: () => now }), metrics, now: () => now, ...(overrides ? { overrides } : {}) });
  return { memberShares, metrics, advance: (ms: number) => (now += ms) };
}

describe('MemberShares', () => {
  it('gives each upstream its README share unless overridden', () => {
    const { memberShares } = shares({ geojs: { limit: 3 } });
    expect(memberShares.ledger('wallhaven').limit).toBe(MEMBER_SHARES.wallhaven.limit);
    expect(memberShares.ledger('ygoprodeck').windowMs).toBe(MEMBER_SHARES.ygoprodeck.windowMs);
    expect(memberShares.ledger('geojs').limit).toBe(3);
  });

  it('refuses a member past their share with a typed MemberShareSpent, others and later still allowed', async () => {
    const { memberShares, advance } = shares({ wallhaven: { limit: 2, windowMs: 60_000 } });
    const spender = memberShares.spenderFor('u1', 'wallhaven');
    await spend(spender);
    await spend(spender);
    const refusal = await spend(spender).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MemberShareSpent);
    expect(refusal).toMatchObject({ upstream: 'wallhaven', limit: 2 });
    expect((refusal as MemberShareSpent).retryAfterMs).toBeGreaterThan(0);
    await spend(memberShares.spenderFor('u2', 'wallhaven'));
    await spend(memberShares.spenderFor('u1', 'geojs'));
    advance(60_001);
    await spend(spender);
  });

  it('counts refusals per upstream, in the ledger and in the metrics', async () => {
    const { memberShares, metrics } = shares({ ygoprodeck: { limit: 1, windowMs: 60_000 } });
    const spender = memberShares.spenderFor('u1', 'ygoprodeck');
    await spend(spender);
    await expect(spend(spender)).rejects.toBeInstanceOf(MemberShareSpent);
    await expect(spend(spender)).rejects.toBeInstanceOf(MemberShareSpent);
    expect(memberShares.ledger('ygoprodeck').refusals).toBe(2);
    expect(memberShares.ledger('geojs').refusals).toBe(0);
    expect(await metrics.registry.getSingleMetricAsString('almanac_member_share_refusals_total')).toMatch(/upstream="ygoprodeck"} 2/);
  });
});
