import type { Kysely, Migration } from 'kysely';

/**
 * Ban-list history and the decks it is checked against (each table is described in ../schema.ts):
 * a format's list per card database version, and the decks shown in channels that follow a
 * format's list, kept 90 days.
 */
export const banlistHistory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('banlist_versions')
      .addColumn('format', 'text', (col) => col.notNull())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('recorded_at', 'bigint', (col) => col.notNull())
      .addColumn('digest', 'text', (col) => col.notNull())
      .addColumn('entries', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('banlist_versions_pk', ['format', 'version'])
      .execute();
    // A format's latest list, and the one before it that differed.
    await db.schema.createIndex('banlist_versions_recent').on('banlist_versions').columns(['format', 'recorded_at']).execute();

    await db.schema
      .createTable('channel_decks')
      .addColumn('guild_id', 'text', (col) => col.notNull().references('guilds.guild_id').onDelete('cascade'))
      .addColumn('channel_id', 'text', (col) => col.notNull())
      .addColumn('deck_key', 'text', (col) => col.notNull())
      .addColumn('cards', 'text', (col) => col.notNull())
      .addColumn('shown_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('channel_decks_pk', ['channel_id', 'deck_key'])
      .execute();
    // A channel's decks of the last 90 days, and the pruning of older ones.
    await db.schema.createIndex('channel_decks_recent').on('channel_decks').columns(['channel_id', 'shown_at']).execute();
    await db.schema.createIndex('channel_decks_guild').on('channel_decks').column('guild_id').execute();
  },
};
