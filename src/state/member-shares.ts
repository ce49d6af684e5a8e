import { UserError } from '../interaction/errors.js';
import type { Metrics } from '../runtime/metrics.js';
import { shareSpentSentence } from '../render/member-share.js';
import type { RequestCharge } from '../services/cache.js';
import { GEOJS_MEMBER_SHARE } from '../services/geojs.js';
import type { UpstreamName } from '../interaction/upstream-error.js';
import { WALLHAVEN_USER_BUDGET } from '../services/wallhaven.js';
import { YGOPRODECK_MEMBER_SHARE } from '../services/ygoprodeck.js';
import { countRefusals, type CountedUserBudget } from './counted-budget.js';
import type { SharedState } from './shared-state.js';

export interface MemberShare {
  /** Upstream requests (GeoJS: addresses) one member may cause in any `windowMs`. */
  limit: number;
  windowMs: number;
}

/** Each upstream's per-member share, as documented in the README. */
export const MEMBER_SHARES: Readonly<Record<UpstreamName, MemberShare>> = {
  wallhaven: WALLHAVEN_USER_BUDGET,
  geojs: GEOJS_MEMBER_SHARE,
  ygoprodeck: YGOPRODECK_MEMBER_SHARE,
};

export interface MemberSharesOptions {
  state: SharedState;
  metrics?: Metrics;
  now: () => number;
  /** Other shares (tests of other behaviour lift them). */
  overrides?: Partial<Record<UpstreamName, Partial<MemberShare>>>;
}

/**
 * One per-member share of every upstream, kept in the shared state's member budgets (fleet-wide
 * with Redis), so one member's burst cannot fill a queue everyone shares. Whatever needs an upstream
 * request (a cache miss, the refresh of an expired entry, an art download) is charged to the member
 * who asked for it; refusals are counted per upstream for /status and /metrics.
 */
export class MemberShares {
  private readonly budgets: Record<UpstreamName, CountedUserBudget>;

  constructor(options: MemberSharesOptions) {
    const budget = (upstream: UpstreamName) =>
      countRefusals(
        options.state.userBudget({ name: upstream, ...MEMBER_SHARES[upstream], ...options.overrides?.[upstream], now: options.now }),
        upstream,
        options.metrics,
      );
    this.budgets = { wallhaven: budget('wallhaven'), geojs: budget('geojs'), ygoprodeck: budget('ygoprodeck') };
  }

  budget(upstream: UpstreamName): CountedUserBudget {
    return this.budgets[upstream];
  }

  /** Charges each upstream request to `userId`'s share of `upstream`; a spent share refuses it with a `UserError`. */
  chargeTo(userId: string, upstream: UpstreamName): RequestCharge {
    const budget = this.budgets[upstream];
    return {
      async beforeRequest() {
        const decision = await budget.take(userId);
        if (!decision.allowed) throw new UserError((messages) => shareSpentSentence(upstream, budget.limit, decision.retryAfterMs, messages));
      },
    };
  }
}
