import { LRUCache } from 'lru-cache';

export interface MemberShareLedgerOptions {
  /** Named in option errors. */
  name: string;
  /** Most uses one user may make within any `windowMs`. */
  limit: number;
  windowMs: number;
  /**
   * Users remembered at once. Past it the least recently active user is forgotten (and so starts
   * afresh), which bounds memory whatever the number of users (default 10,000).
   */
  maxUsers?: number;
  /** Clock in ms, injectable for tests. */
  now?: () => number;
}

export type MemberShareDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Each member's uses of one upstream's share (see `MemberShares`), in process or counted by the whole fleet. */
export interface MemberShareLedger {
  readonly limit: number;
  readonly windowMs: number;
  /** Records one use by `userId` when their share allows it; otherwise says how long until it will. */
  take(userId: string): Promise<MemberShareDecision>;
}

/**
 * A member share's ledger in this process: at most `limit` uses per member in any sliding
 * `windowMs`. It exists so that one member cannot spend a whole shared upstream budget (Wallhaven's
 * 45 requests a minute) and leave everyone else with "busy" answers. Each member's state is the
 * times of their last `limit` uses, so the window slides exactly, with no burst at a fixed window's
 * boundary. Synchronous: the in-process state and the Redis ledger's fallback wrap it.
 */
export class LocalMemberShareLedger {
  readonly limit: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly uses: LRUCache<string, number[]>;

  constructor(options: MemberShareLedgerOptions) {
    const integer = (option: string, value: number) => {
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new TypeError(`LocalMemberShareLedger(${options.name}): option "${option}" must be a positive integer, got ${value}`);
      }
      return value;
    };
    this.limit = integer('limit', options.limit);
    this.windowMs = integer('windowMs', options.windowMs);
    this.now = options.now ?? Date.now;
    this.uses = new LRUCache({ max: integer('maxUsers', options.maxUsers ?? 10_000) });
  }

  /** Records one use by `userId` when their share allows it; otherwise says how long until it will. */
  take(userId: string): MemberShareDecision {
    const now = this.now();
    const recent = this.recentUses(userId, now);
    if (recent.length >= this.limit) {
      return { allowed: false, retryAfterMs: Math.max(1, recent[0]! + this.windowMs - now) };
    }
    recent.push(now);
    this.uses.set(userId, recent);
    return { allowed: true };
  }

  private recentUses(userId: string, now: number): number[] {
    const since = now - this.windowMs;
    return (this.uses.get(userId) ?? []).filter((at) => at > since);
  }
}
