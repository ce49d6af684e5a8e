import type { Kysely, Migration } from 'kysely';

/** The wallpaper-poll turns the fleet has taken (described in ../schema.ts). */
export const pollTurns: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('poll_turns')
      .addColumn('turn', 'bigint', (col) => col.primaryKey())
      .execute();
  },
};
