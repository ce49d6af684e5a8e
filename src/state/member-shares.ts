import { MemberShareSpent } from '../interaction/errors.js';
import type { UpstreamName } from '../interaction/upstream-error.js';
import { GEOJS_BULK_MEMBER_SHARE, MEMBER_SHARES, type MemberShare } from '../runtime/member-shares.js';
import type { Metrics } from '../runtime/metrics.js';
import type { MemberShareSpender } from '../upstream/cache.js';
import type { MemberShareLedger } from './member-share-ledger.js';
import type { SharedState } from './shared-state.js';

/** A member share's ledger that also counts its refusals, for /status (this process) and /metrics. */
interface CountedMemberShareLedger extends MemberShareLedger {
  /** Members refused by this ledger in this process since it started. */
  readonly refusals: number;
}

/**
 * Counts each refusal of `ledger` (a member who spent their share of `upstream`) in
 * `almanac_member_share_refusals_total` and in `refusals`, whichever backend keeps the ledger.
 */
function countRefusals(ledger: MemberShareLedger, upstream: UpstreamName, metrics?: Metrics): CountedMemberShareLedger {
  let refusals = 0;
  const counter = metrics?.memberShareRefusals.labels(upstream);
  return {
    limit: ledger.limit,
    windowMs: ledger.windowMs,
    get refusals() {
      return refusals;
    },
    async take(userId) {
      const decision = await ledger.take(userId);
      if (!decision.allowed) {
        refusals++;
        counter?.inc();
      }
      return decision;
    },
  };
}

interface MemberSharesOptions {
  state: SharedState;
  metrics?: Metrics;
  now: () => number;
  /** Other shares (tests of other behaviour lift them). */
  overrides?: Partial<Record<UpstreamName, Partial<MemberShare>>>;
}

/**
 * Each member's share of every upstream (`MEMBER_SHARES`), kept in the shared state's ledgers
 * (fleet-wide with Redis), so one member's burst cannot fill a queue everyone shares. Whatever
 * needs an upstream request (a cache miss, the refresh of an expired entry, an art download) is
 * spent from the share of the member who asked for it; refusals are counted per upstream for
 * /status and /metrics.
 */
export class MemberShares {
  private readonly ledgers: Record<UpstreamName, CountedMemberShareLedger>;
  /** GeoJS for whole logs: a share of its own (`GEOJS_BULK_MEMBER_SHARE`), refusals counted with GeoJS's. */
  private readonly bulkLedger: CountedMemberShareLedger;

  constructor(options: MemberSharesOptions) {
    const ledger = (upstream: UpstreamName) =>
      countRefusals(
        options.state.memberShareLedger({ name: upstream, ...MEMBER_SHARES[upstream], ...options.overrides?.[upstream], now: options.now }),
        upstream,
        options.metrics,
      );
    this.ledgers = { wallhaven: ledger('wallhaven'), geojs: ledger('geojs'), ygoprodeck: ledger('ygoprodeck'), rdap: ledger('rdap') };
    this.bulkLedger = countRefusals(
      options.state.memberShareLedger({ name: 'geojs-bulk', ...GEOJS_BULK_MEMBER_SHARE, now: options.now }),
      'geojs',
      options.metrics,
    );
  }

  ledger(upstream: UpstreamName): CountedMemberShareLedger {
    return this.ledgers[upstream];
  }

  /**
   * What a service spends, before each request it makes for `userId`, from their share of
   * `upstream`: a spent share refuses the request with `MemberShareSpent` (a typed refusal: render
   * words it in the member's language).
   */
  spenderFor(userId: string, upstream: UpstreamName): MemberShareSpender {
    return spender(this.ledgers[upstream], userId, upstream);
  }

  /** What a whole log's GeoJS lookups spend: the member's bulk share, not their per-minute one. */
  bulkSpenderFor(userId: string): MemberShareSpender {
    return spender(this.bulkLedger, userId, 'geojs');
  }
}

function spender(ledger: CountedMemberShareLedger, userId: string, upstream: UpstreamName): MemberShareSpender {
  return {
    async beforeRequest() {
      const decision = await ledger.take(userId);
      if (!decision.allowed) throw new MemberShareSpent(upstream, ledger.limit, decision.retryAfterMs);
    },
  };
}
