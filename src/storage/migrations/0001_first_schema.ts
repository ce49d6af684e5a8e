import type { Kysely, Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The first schema: settings per server, channel and user, subscriptions with their schedule, the
 * scheduler's claims and the posted history (each table is described in ../schema.ts). Written
 * for both dialects; only the subscription id is spelled differently (an identity column on
 * PostgreSQL, SQLite's integer primary key).
 */
export const firstSchema: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('guilds')
      .addColumn('guild_id', 'text', (col) => col.primaryKey())
      .addColumn('language', 'text')
      .addColumn('inline_cards', 'integer')
      .addColumn('ip_answers', 'text')
      .addColumn('wallpaper_purity', 'text')
      .addColumn('last_interaction_at', 'bigint', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();
    // The 180-day expiry of servers without interactions (HTTP-only deployments).
    await db.schema.createIndex('guilds_last_interaction').on('guilds').column('last_interaction_at').execute();

    await db.schema
      .createTable('channel_settings')
      .addColumn('channel_id', 'text', (col) => col.primaryKey())
      .addColumn('guild_id', 'text', (col) => col.notNull().references('guilds.guild_id').onDelete('cascade'))
      .addColumn('language', 'text')
      .addColumn('inline_cards', 'integer')
      .addColumn('wallpaper_purity', 'text')
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('channel_settings_guild').on('channel_settings').column('guild_id').execute();

    await db.schema
      .createTable('user_settings')
      .addColumn('user_id', 'text', (col) => col.primaryKey())
      .addColumn('language', 'text')
      .addColumn('ip_answers', 'text')
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();

    const postgres = dialectOf(db) === 'postgres';
    await db.schema
      .createTable('subscriptions')
      .addColumn('id', postgres ? 'bigint' : 'integer', (col) => (postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement()))
      .addColumn('guild_id', 'text', (col) => col.notNull().references('guilds.guild_id').onDelete('cascade'))
      .addColumn('channel_id', 'text', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('options', 'text', (col) => col.notNull().defaultTo('{}'))
      .addColumn('time_of_day', 'text')
      .addColumn('time_zone', 'text')
      .addColumn('next_due_at', 'bigint')
      .addColumn('created_by', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_posted_at', 'bigint')
      .addColumn('last_checked_at', 'bigint')
      .addColumn('consecutive_failures', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('paused_at', 'bigint')
      .addColumn('pause_reason', 'text')
      .execute();
    // The scheduler's scan for what is due; the per-channel (10) and per-server (50) limits.
    await db.schema.createIndex('subscriptions_due').on('subscriptions').column('next_due_at').execute();
    await db.schema.createIndex('subscriptions_channel').on('subscriptions').column('channel_id').execute();
    await db.schema.createIndex('subscriptions_guild').on('subscriptions').column('guild_id').execute();

    await db.schema
      .createTable('post_claims')
      .addColumn('subscription_id', 'bigint', (col) => col.notNull().references('subscriptions.id').onDelete('cascade'))
      .addColumn('due_at', 'bigint', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('claimed_by', 'text', (col) => col.notNull())
      .addColumn('lease_expires_at', 'bigint', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('nonce', 'text', (col) => col.notNull())
      .addColumn('message_id', 'text')
      .addColumn('finished_at', 'bigint')
      .addPrimaryKeyConstraint('post_claims_pk', ['subscription_id', 'due_at'])
      .execute();
    // Claims whose lease ran out (a process died holding them), and the pruning of finished ones.
    await db.schema.createIndex('post_claims_lease').on('post_claims').column('lease_expires_at').execute();

    await db.schema
      .createTable('posted_history')
      .addColumn('guild_id', 'text', (col) => col.notNull().references('guilds.guild_id').onDelete('cascade'))
      .addColumn('channel_id', 'text', (col) => col.notNull())
      .addColumn('item_kind', 'text', (col) => col.notNull())
      .addColumn('item_id', 'text', (col) => col.notNull())
      .addColumn('posted_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('posted_history_pk', ['channel_id', 'item_kind', 'item_id'])
      .execute();
    // A channel's recent posts (the 90-day window, the oldest to reuse) and the pruning of old ones.
    await db.schema.createIndex('posted_history_recent').on('posted_history').columns(['channel_id', 'item_kind', 'posted_at']).execute();
    await db.schema.createIndex('posted_history_guild').on('posted_history').column('guild_id').execute();
  },
};
