import type { Kysely, Migration } from 'kysely';

/** The card sets seen in `cardsets.php`, for `/subscribe new-sets` (described in ../schema.ts). */
export const cardSetHistory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('card_sets_seen')
      .addColumn('set_key', 'text', (col) => col.primaryKey())
      .addColumn('card_set', 'text', (col) => col.notNull())
      .addColumn('first_seen_at', 'bigint', (col) => col.notNull())
      .addColumn('baseline', 'integer', (col) => col.notNull())
      .execute();
    // The sets first seen after a subscription was made.
    await db.schema.createIndex('card_sets_seen_recent').on('card_sets_seen').column('first_seen_at').execute();
  },
};
