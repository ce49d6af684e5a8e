import type { Kysely } from 'kysely';
import type { CardSet } from '../cards/card-set.js';
import type { Database } from './schema.js';

/** A set as first listed, and when a process of the fleet first saw it. */
export interface SeenCardSet {
  set: CardSet;
  firstSeenAt: number;
}

/** Rows per insert: well under either dialect's limit of bound parameters. */
const INSERT_CHUNK = 200;

/**
 * The card sets `cardsets.php` has listed, on both dialects, for `/subscribe new-sets`. Recording
 * a list stores the sets not seen before; the first list ever recorded is the baseline, never
 * announced. A set is stored by one insert only one process of a fleet wins, and that process, in
 * the same transaction, makes the new-sets subscriptions due, so each channel's post is claimed
 * once by the scheduler like any other occurrence.
 */
export class CardSetStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the sets of `sets` not seen before; returns how many were new to the fleet (0 for the baseline). */
  async record(sets: readonly CardSet[], now: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const known = new Set((await trx.selectFrom('card_sets_seen').select('set_key').execute()).map((row) => row.set_key));
      const baseline = known.size === 0;
      const unseen = sets.filter((set) => !known.has(set.key));
      let added = 0;
      for (let start = 0; start < unseen.length; start += INSERT_CHUNK) {
        const rows = unseen.slice(start, start + INSERT_CHUNK).map((set) => ({ set_key: set.key, card_set: JSON.stringify(set), first_seen_at: now, baseline: baseline ? (1 as const) : (0 as const) }));
        const inserted = await trx
          .insertInto('card_sets_seen')
          .values(rows)
          .onConflict((conflict) => conflict.column('set_key').doNothing())
          .executeTakeFirst();
        added += Number(inserted.numInsertedOrUpdatedRows ?? 0n);
      }
      if (baseline || added === 0) return 0;
      await trx.updateTable('subscriptions').set({ next_due_at: now }).where('kind', '=', 'new-sets').where('paused_at', 'is', null).execute();
      return added;
    });
  }

  /** The sets first seen after `since` (the baseline never), in the order they were seen. */
  async seenSince(since: number): Promise<SeenCardSet[]> {
    const rows = await this.db
      .selectFrom('card_sets_seen')
      .select(['card_set', 'first_seen_at'])
      .where('first_seen_at', '>', since)
      .where('baseline', '=', 0)
      .orderBy('first_seen_at')
      .orderBy('set_key')
      .execute();
    return rows.map((row) => ({ set: JSON.parse(row.card_set) as CardSet, firstSeenAt: row.first_seen_at }));
  }
}
