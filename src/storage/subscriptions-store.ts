import type { Kysely, Selectable } from 'kysely';
import type { Database, PostedItemKind, SubscriptionKind, SubscriptionsTable } from './schema.js';

/** Turns tried before giving up: each lost one means another caller took it that very moment. */
const MAX_TURN_ATTEMPTS = 100;

/** A subscription as stored. */
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** What `/subscribe` stores for a new subscription. */
export interface NewSubscription {
  guildId: string;
  channelId: string;
  kind: SubscriptionKind;
  /** JSON of the kind's options. */
  options: string;
  /** Daily subscriptions' time and zone; null for a feed. */
  timeOfDay: string | null;
  timeZone: string | null;
  nextDueAt: number | null;
  createdBy: string;
}

/** At most this many subscriptions a channel and a server (the feeds of later issues count too). */
export interface SubscriptionLimits {
  perChannel: number;
  perGuild: number;
}

export type AddResult = { added: SubscriptionRow } | { refused: 'channel-full' | 'guild-full' };

/** How an occurrence's claim ends, and what becomes of its subscription. */
export interface Finish {
  state: 'posted' | 'skipped';
  messageId?: string;
  /** The subscription's next occurrence (only moved if it is still at this claim's); null for a feed, until its source changes. */
  nextDueAt: number | null;
  /** A post made: the time, and the refusal count cleared. */
  postedAt?: number;
  /** Discord refused the channel: the count goes up by one; with `pauseReason` the subscription pauses. */
  refused?: { pauseReason?: string };
}

/** One process's claim on an occurrence, as it stands. */
export interface ClaimRow {
  state: 'claimed' | 'posted' | 'skipped';
  lease_expires_at: number;
  attempts: number;
}

/**
 * Subscriptions, the scheduler's claims and the posted history, on both dialects (./storage.ts).
 * Every write that must happen once across a fleet is one statement a single process can win: the
 * claim is an insert on the primary key, a retaken claim an update conditioned on the lease it saw,
 * and a subscription only moves on from the occurrence it is still at.
 */
export class SubscriptionsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores a subscription unless its channel or server is full. The count and the insert share a
   * transaction (on PostgreSQL, under a lock on the server's row) so two moderators at once cannot
   * pass the limit together.
   */
  async add(subscription: NewSubscription, limits: SubscriptionLimits, now: number): Promise<AddResult> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('guilds')
        .values({ guild_id: subscription.guildId, language: null, inline_cards: null, ip_answers: null, wallpaper_purity: null, last_interaction_at: now, created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.column('guild_id').doUpdateSet({ last_interaction_at: now }))
        .execute();
      const counts = await trx
        .selectFrom('subscriptions')
        .where('guild_id', '=', subscription.guildId)
        .select((eb) => [eb.fn.countAll<number>().as('guild'), eb.fn.sum<number>(eb.case().when('channel_id', '=', subscription.channelId).then(1).else(0).end()).as('channel')])
        .executeTakeFirstOrThrow();
      if (Number(counts.channel ?? 0) >= limits.perChannel) return { refused: 'channel-full' } as const;
      if (Number(counts.guild) >= limits.perGuild) return { refused: 'guild-full' } as const;
      const added = await trx
        .insertInto('subscriptions')
        .values({
          guild_id: subscription.guildId,
          channel_id: subscription.channelId,
          kind: subscription.kind,
          options: subscription.options,
          time_of_day: subscription.timeOfDay,
          time_zone: subscription.timeZone,
          next_due_at: subscription.nextDueAt,
          created_by: subscription.createdBy,
          created_at: now,
          last_posted_at: null,
          last_checked_at: null,
          paused_at: null,
          pause_reason: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { added };
    });
  }

  /** A channel's subscriptions, oldest first. */
  forChannel(channelId: string): Promise<SubscriptionRow[]> {
    return this.db.selectFrom('subscriptions').selectAll().where('channel_id', '=', channelId).orderBy('id').execute();
  }

  /** Removes one of the channel's subscriptions (with its claims); false when the channel has no such one. */
  async remove(channelId: string, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('subscriptions').where('id', '=', id).where('channel_id', '=', channelId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  byId(id: number): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Subscriptions due at `now` and not paused, the most overdue first. */
  due(now: number, limit: number): Promise<SubscriptionRow[]> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('next_due_at', '<=', now)
      .where('paused_at', 'is', null)
      .orderBy('next_due_at')
      .limit(limit)
      .execute();
  }

  /** Claims an occurrence for `processId`: true when this call won it (an insert on the primary key only one process can make). */
  async claim(subscriptionId: number, dueAt: number, processId: string, leaseExpiresAt: number, nonce: string): Promise<boolean> {
    const result = await this.db
      .insertInto('post_claims')
      .values({ subscription_id: subscriptionId, due_at: dueAt, state: 'claimed', claimed_by: processId, lease_expires_at: leaseExpiresAt, attempts: 1, nonce, message_id: null, finished_at: null })
      .onConflict((conflict) => conflict.columns(['subscription_id', 'due_at']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  claimOf(subscriptionId: number, dueAt: number): Promise<ClaimRow | undefined> {
    return this.db
      .selectFrom('post_claims')
      .select(['state', 'lease_expires_at', 'attempts'])
      .where('subscription_id', '=', subscriptionId)
      .where('due_at', '=', dueAt)
      .executeTakeFirst();
  }

  /** Takes over a claim whose lease ran out, if it is still as `seen` (another process may be quicker). */
  async retake(subscriptionId: number, dueAt: number, seen: ClaimRow, processId: string, leaseExpiresAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('post_claims')
      .set({ claimed_by: processId, lease_expires_at: leaseExpiresAt, attempts: seen.attempts + 1 })
      .where('subscription_id', '=', subscriptionId)
      .where('due_at', '=', dueAt)
      .where('state', '=', 'claimed')
      .where('lease_expires_at', '=', seen.lease_expires_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends an occurrence: its claim finished, its subscription moved on (if still at it), in one transaction. */
  async finish(subscription: SubscriptionRow, dueAt: number, finish: Finish, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('post_claims')
        .set({ state: finish.state, message_id: finish.messageId ?? null, finished_at: now })
        .where('subscription_id', '=', subscription.id)
        .where('due_at', '=', dueAt)
        .execute();
      const failures = finish.refused ? subscription.consecutive_failures + 1 : finish.postedAt === undefined ? subscription.consecutive_failures : 0;
      await trx
        .updateTable('subscriptions')
        .set({
          next_due_at: finish.nextDueAt,
          consecutive_failures: failures,
          ...(finish.postedAt === undefined ? {} : { last_posted_at: finish.postedAt }),
          ...(finish.refused?.pauseReason === undefined ? {} : { paused_at: now, pause_reason: finish.refused.pauseReason }),
        })
        .where('id', '=', subscription.id)
        .where('next_due_at', '=', dueAt)
        .execute();
    });
  }

  /**
   * Takes a wallpaper poll's turn and returns when it starts: the first turn at or after
   * `earliest`, or the one after the latest taken, whichever is later, so the fleet's polls stay
   * `spacingMs` apart however many subscriptions there are (they wait their turn). A turn is taken
   * by an insert only one caller wins: two processes, or two posts of one process, asking at once
   * get different turns.
   */
  async nextPollSlot(earliest: number, spacingMs: number): Promise<number> {
    const first = Math.ceil(earliest / spacingMs);
    for (let attempt = 0; attempt < MAX_TURN_ATTEMPTS; attempt++) {
      const latest = await this.db.selectFrom('poll_turns').select((eb) => eb.fn.max<number | null>('turn').as('latest')).executeTakeFirst();
      const turn = latest?.latest === null || latest?.latest === undefined ? first : Math.max(first, Number(latest.latest) + 1);
      const taken = await this.db
        .insertInto('poll_turns')
        .values({ turn })
        .onConflict((conflict) => conflict.column('turn').doNothing())
        .executeTakeFirst();
      if (Number(taken.numInsertedOrUpdatedRows ?? 0n) === 1) return turn * spacingMs;
    }
    throw new Error(`no free wallpaper poll turn after ${MAX_TURN_ATTEMPTS} attempts`);
  }

  /** A feed's source was checked (`/subscribe list` shows when). */
  async markChecked(id: number, now: number): Promise<void> {
    await this.db.updateTable('subscriptions').set({ last_checked_at: now }).where('id', '=', id).execute();
  }

  /** Ids of what was posted in the channel (`since`: only from then on), the most recent first. */
  async postedIds(channelId: string, kind: PostedItemKind, since = 0): Promise<string[]> {
    const rows = await this.db
      .selectFrom('posted_history')
      .select('item_id')
      .where('channel_id', '=', channelId)
      .where('item_kind', '=', kind)
      .where('posted_at', '>=', since)
      .orderBy('posted_at', 'desc')
      .execute();
    return rows.map((row) => row.item_id);
  }

  /** Records a post (a reused item gets its new time). */
  async recordPosted(guildId: string, channelId: string, kind: PostedItemKind, itemId: string, now: number): Promise<void> {
    await this.db
      .insertInto('posted_history')
      .values({ guild_id: guildId, channel_id: channelId, item_kind: kind, item_id: itemId, posted_at: now })
      .onConflict((conflict) => conflict.columns(['channel_id', 'item_kind', 'item_id']).doUpdateSet({ posted_at: now }))
      .execute();
  }

  /**
   * Housekeeping: finished claims older than `claimsBefore`, poll turns before the turn `pollTurnsBefore`, wallpaper history older than
   * `wallpapersBefore`, decks kept for the ban-list check shown before `decksBefore`, and (when given) subscriptions paused before `pausedBefore`. Counts what went.
   */
  async prune(cutoffs: { claimsBefore: number; pollTurnsBefore: number; wallpapersBefore: number; decksBefore: number; pausedBefore?: number }): Promise<{ claims: number; history: number; paused: number }> {
    const claims = await this.db.deleteFrom('post_claims').where('state', '!=', 'claimed').where('finished_at', '<', cutoffs.claimsBefore).executeTakeFirst();
    await this.db.deleteFrom('poll_turns').where('turn', '<', cutoffs.pollTurnsBefore).execute();
    const history = await this.db.deleteFrom('posted_history').where('item_kind', '=', 'wallpaper').where('posted_at', '<', cutoffs.wallpapersBefore).executeTakeFirst();
    await this.db.deleteFrom('channel_decks').where('shown_at', '<', cutoffs.decksBefore).execute();
    const paused =
      cutoffs.pausedBefore === undefined ? undefined : await this.db.deleteFrom('subscriptions').where('paused_at', '<', cutoffs.pausedBefore).executeTakeFirst();
    return { claims: Number(claims.numDeletedRows), history: Number(history.numDeletedRows), paused: Number(paused?.numDeletedRows ?? 0n) };
  }
}
