import type { Metrics } from '../runtime/metrics.js';
import type { UpstreamName } from '../interaction/upstream-error.js';
import type { UserBudget } from './shared-state.js';

/** A member budget that also counts its refusals, for /status (this process) and /metrics. */
export interface CountedUserBudget extends UserBudget {
  /** Members refused by this budget in this process since it started. */
  readonly refusals: number;
}

/**
 * Counts each refusal of `budget` (a member who spent their share of `upstream`) in
 * `almanac_member_share_refusals_total` and in `refusals`, whichever backend keeps the budget.
 */
export function countRefusals(budget: UserBudget, upstream: UpstreamName, metrics?: Metrics): CountedUserBudget {
  let refusals = 0;
  const counter = metrics?.memberShareRefusals.labels(upstream);
  return {
    limit: budget.limit,
    windowMs: budget.windowMs,
    get refusals() {
      return refusals;
    },
    async take(userId) {
      const decision = await budget.take(userId);
      if (!decision.allowed) {
        refusals++;
        counter?.inc();
      }
      return decision;
    },
  };
}
