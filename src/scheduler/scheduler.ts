import type { Logger } from 'pino';
import { nextOccurrence, parseTimeOfDay, postNonce } from '../schedule/time-of-day.js';
import type { ClaimRow, Finish, SubscriptionRow, SubscriptionsStore } from '../storage/subscriptions-store.js';
import { DECK_RETENTION_MS } from './banlist-feed.js';
import type { ChannelPoster } from './channel-poster.js';
import { WALLPAPER_NO_REPEAT_MS, type PostContent } from './post-content.js';
import { POLL_INTERVAL_MS, POLL_SPACING_MS } from './wallpaper-feed.js';

/** How long a claim is held before another process may take it over (at most 2 minutes). */
export const LEASE_MS = 60_000;
/**
 * How long after a first attempt Discord still returns that attempt's message for its nonce.
 * Discord says "a few minutes"; a takeover past this would risk a second message, so the
 * occurrence is skipped instead. Only one takeover is allowed, within this window of the first.
 */
export const NONCE_WINDOW_MS = 150_000;
/** A post missed while every process was down is still made this late, and skipped past it. */
export const MISSED_LIMIT_MS = 3_600_000;
/** Discord refusing a channel this many times in a row pauses its subscription. */
export const REFUSALS_TO_PAUSE = 3;
/** A refused post is tried again this much later (until it pauses). */
export const REFUSAL_RETRY_MS = 10 * 60_000;
/** How often a process looks for due posts. */
export const TICK_MS = 10_000;
/** A wallpaper poll this late (more than two ticks) lost its turn: it takes the next free one. */
export const LATE_POLL_MS = 2 * TICK_MS;
/** In HTTP-only deployments (no GUILD_DELETE), a subscription paused this long is deleted. */
export const PAUSED_RETENTION_MS = 30 * 86_400_000;
/** Finished claims are kept this long (well past the nonce window), then pruned. */
const CLAIM_RETENTION_MS = 86_400_000;
/** How often a process prunes (every process may: the deletes are idempotent). */
const PRUNE_EVERY_MS = 3_600_000;

/** How an occurrence ended, for the metric and the tests. */
export type PostResult = 'posted' | 'refused' | 'failed' | 'missed' | 'expired' | 'empty';

export interface SchedulerMetrics {
  /** One per occurrence handled, by result. */
  onPost(result: PostResult, lagMs: number): void;
}

export interface SchedulerOptions {
  store: SubscriptionsStore;
  poster: ChannelPoster;
  /** Makes an occurrence's post (./post-content.ts). */
  content(subscription: SubscriptionRow, now: number): Promise<PostContent | undefined>;
  now(): number;
  /** This process, in claims (SharedState's process id). */
  processId: string;
  logger: Logger;
  metrics?: SchedulerMetrics;
  /** HTTP-only deployments: delete subscriptions paused for 30 days (nothing else tells Almanac the bot left). */
  deletePausedAfterRetention: boolean;
  /** Tests and the bench shorten the lease and the nonce window. */
  leaseMs?: number;
  nonceWindowMs?: number;
  /** Due subscriptions read at a time, and posts in flight at once. */
  batchSize?: number;
  concurrency?: number;
}

/**
 * Posts what subscriptions have due, once each across every process sharing the database: an
 * occurrence is claimed by one insert only one process wins, posted with a nonce derived from it,
 * then finished and its subscription moved to its next occurrence in one transaction.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly nonceWindowMs: number;

  constructor(private readonly options: SchedulerOptions) {
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.nonceWindowMs = options.nonceWindowMs ?? NONCE_WINDOW_MS;
  }

  /** Looks for due posts now and every TICK_MS until `stop()`. */
  start(intervalMs = TICK_MS): void {
    let prunedAt = 0;
    const loop = () => {
      const now = this.options.now();
      const prune = now - prunedAt >= PRUNE_EVERY_MS;
      if (prune) prunedAt = now;
      this.running = (prune ? this.prune() : Promise.resolve())
        .then(() => this.tick())
        .then(
          () => undefined,
          (error: unknown) => this.options.logger.error({ err: error }, 'the scheduler could not read its subscriptions'),
        )
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, intervalMs).unref();
        });
    };
    loop();
  }

  /** Stops looking, and waits for the posts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Handles every occurrence due now (batch after batch); returns how many this process handled. */
  async tick(): Promise<number> {
    const batchSize = this.options.batchSize ?? 100;
    let handled = 0;
    const skipped = new Set<number>();
    for (;;) {
      const due = (await this.options.store.due(this.options.now(), batchSize + skipped.size)).filter((row) => !skipped.has(row.id));
      if (due.length === 0) return handled;
      const results = await this.inParallel(due.slice(0, batchSize), (row) => this.handle(row));
      results.forEach((done, index) => (done ? handled++ : skipped.add(due[index]!.id)));
      if (this.stopped) return handled;
    }
  }

  /** Housekeeping: old claims and poll turns, wallpaper history and kept decks, and (HTTP-only) long-paused subscriptions. */
  async prune(): Promise<void> {
    const now = this.options.now();
    const pruned = await this.options.store.prune({
      claimsBefore: now - CLAIM_RETENTION_MS,
      pollTurnsBefore: Math.floor((now - CLAIM_RETENTION_MS) / POLL_SPACING_MS),
      wallpapersBefore: now - WALLPAPER_NO_REPEAT_MS,
      decksBefore: now - DECK_RETENTION_MS,
      ...(this.options.deletePausedAfterRetention ? { pausedBefore: now - PAUSED_RETENTION_MS } : {}),
    });
    if (pruned.paused > 0) this.options.logger.info({ deleted: pruned.paused }, 'deleted subscriptions paused for 30 days');
  }

  private async inParallel<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
    const results: R[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency ?? 8, items.length) }, worker));
    return results;
  }

  /** One due occurrence; false when another process holds it (this tick leaves it be). */
  private async handle(subscription: SubscriptionRow): Promise<boolean> {
    const { store, processId } = this.options;
    const dueAt = subscription.next_due_at!;
    const now = this.options.now();
    const claimed = await store.claim(subscription.id, dueAt, processId, now + this.leaseMs, postNonce(subscription.id, dueAt));
    if (!claimed) {
      const claim = await store.claimOf(subscription.id, dueAt);
      if (claim === undefined || claim.state !== 'claimed' || claim.lease_expires_at > now) return false;
      if (!this.mayTakeOver(claim, now)) {
        await this.end(subscription, dueAt, 'expired', { state: 'skipped', nextDueAt: await this.following(subscription, now) });
        return true;
      }
      if (!(await store.retake(subscription.id, dueAt, claim, processId, now + this.leaseMs))) return false;
    }
    try {
      await this.post(subscription, dueAt, now);
    } catch (error) {
      this.options.logger.warn({ err: error, subscription: subscription.id }, 'a scheduled post failed');
      await this.end(subscription, dueAt, 'failed', { state: 'skipped', nextDueAt: await this.afterFailure(subscription, this.options.now()) });
    }
    return true;
  }

  /** A crashed claim may be posted again (same nonce) once, within Discord's nonce window of the first attempt. */
  private mayTakeOver(claim: ClaimRow, now: number): boolean {
    const firstAttempt = claim.lease_expires_at - this.leaseMs;
    return claim.attempts < 2 && now - firstAttempt <= this.nonceWindowMs;
  }

  private async post(subscription: SubscriptionRow, dueAt: number, now: number): Promise<void> {
    if (subscription.kind === 'wallpapers' && now - dueAt > LATE_POLL_MS) {
      // Polls bunched by downtime would pass the fleet's polling budget together: each takes a new turn instead.
      await this.end(subscription, dueAt, 'missed', { state: 'skipped', nextDueAt: await this.options.store.nextPollSlot(now, POLL_SPACING_MS) });
      return;
    }
    if (now - dueAt > MISSED_LIMIT_MS) {
      await this.end(subscription, dueAt, 'missed', { state: 'skipped', nextDueAt: await this.following(subscription, now) });
      return;
    }
    const content = await this.options.content(subscription, now);
    if (content === undefined) {
      await this.end(subscription, dueAt, 'empty', { state: 'skipped', nextDueAt: await this.following(subscription, now) });
      return;
    }
    const outcome = await this.options.poster.post(subscription.channel_id, content.message, postNonce(subscription.id, dueAt));
    const after = this.options.now();
    if (outcome.ok) {
      for (const item of [content.item, ...(content.moreItems ?? [])]) await this.options.store.recordPosted(subscription.guild_id, subscription.channel_id, item.kind, item.id, after);
      await this.end(subscription, dueAt, 'posted', { state: 'posted', messageId: outcome.messageId, postedAt: after, nextDueAt: await this.following(subscription, Math.max(after, dueAt)) });
    } else if (outcome.refused !== undefined) {
      const pause = subscription.consecutive_failures + 1 >= REFUSALS_TO_PAUSE;
      const following = await this.following(subscription, after);
      // A wallpapers poll retried early would spend a request outside its turn: it waits for its next one.
      const nextDueAt = pause || subscription.kind === 'wallpapers' ? following : Math.min(after + REFUSAL_RETRY_MS, following ?? Infinity);
      this.options.logger.warn({ subscription: subscription.id, status: outcome.status, reason: outcome.refused, paused: pause }, 'Discord refused a scheduled post');
      await this.end(subscription, dueAt, 'refused', { state: 'skipped', nextDueAt, refused: pause ? { pauseReason: outcome.refused } : {} });
    } else {
      this.options.logger.warn({ subscription: subscription.id, status: outcome.status, error: outcome.error }, 'a scheduled post failed');
      await this.end(subscription, dueAt, 'failed', { state: 'skipped', nextDueAt: await this.afterFailure(subscription, after) });
    }
  }

  private async end(subscription: SubscriptionRow, dueAt: number, result: PostResult, finish: Finish): Promise<void> {
    const now = this.options.now();
    await this.options.store.finish(subscription, dueAt, finish, now);
    this.options.metrics?.onPost(result, now - dueAt);
  }

  /**
   * After a failed post (Discord's outage, the network): a daily subscription waits for its next
   * day; a feed, whose change would otherwise never be posted, tries again REFUSAL_RETRY_MS later
   * (its content says when the channel already has it, so a retry never posts twice).
   */
  private async afterFailure(subscription: SubscriptionRow, after: number): Promise<number> {
    return (await this.following(subscription, after)) ?? after + REFUSAL_RETRY_MS;
  }

  /**
   * The subscription's first occurrence after `after`, in its zone; a polled feed's next turn (a 429
   * or a failure too waits for it, so a paused Wallhaven is not asked again by the same subscription
   * soon); none for a feed its source's next change makes due.
   */
  private async following(subscription: SubscriptionRow, after: number): Promise<number | null> {
    if (subscription.kind === 'wallpapers') return this.options.store.nextPollSlot(after + POLL_INTERVAL_MS, POLL_SPACING_MS);
    return subscription.time_of_day === null ? null : nextOccurrence(parseTimeOfDay(subscription.time_of_day)!, subscription.time_zone!, after);
  }
}
