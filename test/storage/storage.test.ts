import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/storage/migrations/index.js';
import type { Database } from '../../src/storage/schema.js';
import { openStorage, SQLITE_FILE, StorageError, type Storage, type StorageOptions } from '../../src/storage/storage.js';
import { StartupError } from '../../src/runtime/startup-error.js';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/postgres-server.js';

/**
 * The storage layer against a real SQLite file and a real PostgreSQL (the run's cluster, a new
 * database per test): the same tests for both dialects, since one typed layer serves both.
 */

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 12, 0);
const GUILD = '111111111111111111';
const CHANNEL = '222222222222222222';
const USER = '333333333333333333';

/** A second schema, as a later release would bring it: a column added and filled in. Test-only. */
const SECOND_SCHEMA: Record<string, Migration> = {
  '9000_test_second_schema': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('guilds').addColumn('test_note', 'text').execute();
      await sql`update guilds set test_note = 'migrated'`.execute(db);
    },
  },
};

/** A migration that creates a table, then fails: neither it nor its table may remain. Test-only. */
const FAILING: Record<string, Migration> = {
  '9001_test_fails': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('test_half_done').addColumn('id', 'integer').execute();
      await sql`select * from test_no_such_table`.execute(db);
    },
  },
};

interface Target {
  options(migrations?: Readonly<Record<string, Migration>>): StorageOptions;
}

async function tableNames(storage: Storage): Promise<string[]> {
  return (await storage.db.introspection.getTables({ withInternalKyselyTables: false })).map((table) => table.name).sort();
}

async function appliedMigrations(storage: Storage): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(storage.db);
  return rows.rows.map((row) => row.name);
}

/** One of every row the first schema holds, all of a server's. */
async function fillFirstSchema(db: Kysely<Database>): Promise<number> {
  await db.insertInto('guilds').values({ guild_id: GUILD, language: 'fr', inline_cards: 0, ip_answers: 'private', wallpaper_purity: 'sfw', last_interaction_at: NOW, created_at: NOW, updated_at: NOW }).execute();
  await db.insertInto('channel_settings').values({ channel_id: CHANNEL, guild_id: GUILD, language: 'pt-BR', inline_cards: 1, wallpaper_purity: null, updated_at: NOW }).execute();
  await db.insertInto('user_settings').values({ user_id: USER, language: 'de', ip_answers: 'public', updated_at: NOW }).execute();
  const { id } = await db
    .insertInto('subscriptions')
    .values({
      guild_id: GUILD,
      channel_id: CHANNEL,
      kind: 'card-of-the-day',
      options: JSON.stringify({ type: 'Spell Card' }),
      time_of_day: '09:30',
      time_zone: 'Europe/Paris',
      next_due_at: NOW + DAY,
      created_by: USER,
      created_at: NOW,
      last_posted_at: null,
      last_checked_at: null,
      paused_at: null,
      pause_reason: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('post_claims')
    .values({ subscription_id: id, due_at: NOW, state: 'posted', claimed_by: 'process-a', lease_expires_at: NOW + 120_000, attempts: 1, nonce: `s${id}-${(NOW / 60_000).toString(36)}`, message_id: '444444444444444444', finished_at: NOW + 1_000 })
    .execute();
  await db.insertInto('posted_history').values({ guild_id: GUILD, channel_id: CHANNEL, item_kind: 'card', item_id: '46986414', posted_at: NOW }).execute();
  return id;
}

function storageTests(target: () => Target): void {
  const opened: Storage[] = [];
  const open = (migrations?: Readonly<Record<string, Migration>>) => {
    const storage = openStorage(target().options(migrations));
    opened.push(storage);
    return storage;
  };

  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
  });

  it('migrates an empty database to the first schema, then finds nothing to do', async () => {
    const storage = open();
    expect(await storage.migrate()).toEqual(['0001_first_schema', '0002_banlist_history', '0003_card_set_history', '0004_poll_turns']);
    expect(await tableNames(storage)).toEqual(['banlist_versions', 'card_sets_seen', 'channel_decks', 'channel_settings', 'guilds', 'poll_turns', 'post_claims', 'posted_history', 'subscriptions', 'user_settings']);
    expect(await storage.migrate()).toEqual([]);
    await storage.close();
    expect(await open().migrate()).toEqual([]);
  });

  it('round-trips every table with its types, and forgets a server with one delete', async () => {
    const storage = open();
    await storage.migrate();
    const id = await fillFirstSchema(storage.db);
    expect(typeof id).toBe('number');
    const db = storage.db;
    expect(await db.selectFrom('guilds').selectAll().execute()).toEqual([
      { guild_id: GUILD, language: 'fr', inline_cards: 0, ip_answers: 'private', wallpaper_purity: 'sfw', last_interaction_at: NOW, created_at: NOW, updated_at: NOW },
    ]);
    expect(await db.selectFrom('channel_settings').selectAll().execute()).toEqual([{ channel_id: CHANNEL, guild_id: GUILD, language: 'pt-BR', inline_cards: 1, wallpaper_purity: null, updated_at: NOW }]);
    expect(await db.selectFrom('user_settings').selectAll().execute()).toEqual([{ user_id: USER, language: 'de', ip_answers: 'public', updated_at: NOW }]);
    const subscription = await db.selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({ id, kind: 'card-of-the-day', time_of_day: '09:30', time_zone: 'Europe/Paris', next_due_at: NOW + DAY, consecutive_failures: 0, paused_at: null });
    expect(JSON.parse(subscription.options)).toEqual({ type: 'Spell Card' });
    expect(await db.selectFrom('post_claims').select(['subscription_id', 'due_at', 'state', 'lease_expires_at', 'finished_at']).execute()).toEqual([
      { subscription_id: id, due_at: NOW, state: 'posted', lease_expires_at: NOW + 120_000, finished_at: NOW + 1_000 },
    ]);
    expect(await db.selectFrom('posted_history').selectAll().execute()).toEqual([{ guild_id: GUILD, channel_id: CHANNEL, item_kind: 'card', item_id: '46986414', posted_at: NOW }]);

    // An occurrence is claimed once: the second process's insert of the same one changes nothing.
    const again = await db
      .insertInto('post_claims')
      .values({ subscription_id: id, due_at: NOW, state: 'claimed', claimed_by: 'process-b', lease_expires_at: NOW + 120_000, attempts: 1, nonce: 'other', message_id: null, finished_at: null })
      .onConflict((conflict) => conflict.columns(['subscription_id', 'due_at']).doNothing())
      .executeTakeFirst();
    expect(Number(again.numInsertedOrUpdatedRows ?? 0)).toBe(0);

    // A row of a server that does not exist is refused (foreign keys are on in SQLite too).
    await expect(db.insertInto('channel_settings').values({ channel_id: '5', guild_id: '999', language: null, inline_cards: null, wallpaper_purity: null, updated_at: NOW }).execute()).rejects.toThrow();

    await db.deleteFrom('guilds').where('guild_id', '=', GUILD).execute();
    for (const table of ['channel_settings', 'subscriptions', 'post_claims', 'posted_history'] as const) {
      expect(await db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
    expect(await db.selectFrom('user_settings').selectAll().execute()).toHaveLength(1);
  });

  it('goes from the first schema to a second through a new migration, keeping the rows', async () => {
    const first = open();
    await first.migrate();
    await fillFirstSchema(first.db);
    await first.close();
    const second = open({ ...MIGRATIONS, ...SECOND_SCHEMA });
    expect(await second.migrate()).toEqual(['9000_test_second_schema']);
    const rows = await sql<{ guild_id: string; language: string; test_note: string }>`select guild_id, language, test_note from guilds`.execute(second.db);
    expect(rows.rows).toEqual([{ guild_id: GUILD, language: 'fr', test_note: 'migrated' }]);
    expect(await appliedMigrations(second)).toEqual(['0001_first_schema', '0002_banlist_history', '0003_card_set_history', '0004_poll_turns', '9000_test_second_schema']);
  });

  it('refuses a schema newer than it knows, naming the migration, and leaves it untouched', async () => {
    const newer = open({ ...MIGRATIONS, ...SECOND_SCHEMA });
    await newer.migrate();
    await newer.close();
    const older = open();
    const refusal = await older.migrate().then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(StorageError);
    expect(refusal).toBeInstanceOf(StartupError);
    const message = (refusal as Error).message;
    expect(message).toContain('has a schema newer than this version of Almanac knows (migration 9000_test_second_schema)');
    expect(message).not.toContain('\n');
    expect(await appliedMigrations(older)).toEqual(['0001_first_schema', '0002_banlist_history', '0003_card_set_history', '0004_poll_turns', '9000_test_second_schema']);
  });

  it('stops at a failed migration, naming it, with nothing of it left behind', async () => {
    const storage = open({ ...MIGRATIONS, ...FAILING });
    const failure = await storage.migrate().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageError);
    const message = (failure as Error).message;
    expect(message).toMatch(/^Migration 9001_test_fails of the (SQLite|PostgreSQL) database \S+ failed and was rolled back \(the database is as it was before this start\): .*test_no_such_table/);
    expect(message).not.toContain('\n');
    // Every migration of that start ran in one transaction: the first schema went back too.
    expect(await tableNames(storage)).toEqual([]);
    expect(await open().migrate()).toEqual(['0001_first_schema', '0002_banlist_history', '0003_card_set_history', '0004_poll_turns']);
  });
}

describe('SQLite storage (DATA_DIR/almanac.db)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-storage-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  storageTests(() => ({ options: (migrations) => ({ databaseUrl: undefined, dataDir, migrations }) }));

  it('keeps the file in DATA_DIR (made when missing), in WAL mode', async () => {
    const nested = join(dataDir, 'not', 'yet');
    const storage = openStorage({ databaseUrl: undefined, dataDir: nested });
    try {
      await storage.migrate();
      expect(storage.dialect).toBe('sqlite');
      expect(storage.location).toBe(join(nested, SQLITE_FILE));
      expect(existsSync(join(nested, SQLITE_FILE))).toBe(true);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(storage.db);
      expect(mode.rows).toEqual([{ journal_mode: 'wal' }]);
    } finally {
      await storage.close();
    }
  });

  it('says in one line which file it could not open or read', async () => {
    const file = join(dataDir, 'a-file');
    await writeFile(file, 'not a folder');
    expect(() => openStorage({ databaseUrl: undefined, dataDir: file })).toThrow(/^Almanac could not open its SQLite database .*a-file\/almanac\.db: /);
    await writeFile(join(dataDir, SQLITE_FILE), 'not a database, but long enough to be read as one. '.repeat(100));
    expect(() => openStorage({ databaseUrl: undefined, dataDir })).toThrow(`Almanac could not open its SQLite database ${join(dataDir, SQLITE_FILE)}: file is not a database`);
  });
});

describeWithPostgres('PostgreSQL storage (DATABASE_URL)', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.drop();
  });

  storageTests(() => ({ options: (migrations) => ({ databaseUrl: database.url, dataDir: '/nonexistent', migrations }) }));

  it('migrates once when processes start together (an advisory lock), and names the database without credentials', async () => {
    const url = new URL(database.url);
    url.password = 'not-needed-on-loopback';
    const processes = Array.from({ length: 3 }, () => openStorage({ databaseUrl: url.href, dataDir: '/nonexistent' }));
    try {
      const applied = await Promise.all(processes.map((storage) => storage.migrate()));
      expect(applied.flat()).toEqual(['0001_first_schema', '0002_banlist_history', '0003_card_set_history', '0004_poll_turns']);
      expect(processes[0]!.location).toBe(`postgres://${url.host}${url.pathname}`);
      expect(processes[0]!.location).not.toContain('not-needed');
    } finally {
      await Promise.all(processes.map((storage) => storage.close()));
    }
  });

  it('says in one line that it could not reach the server', async () => {
    const url = new URL(database.url);
    url.port = '9';
    const storage = openStorage({ databaseUrl: url.href, dataDir: '/nonexistent' });
    try {
      await expect(storage.migrate()).rejects.toThrow(/^Almanac could not reach its PostgreSQL database postgres:\/\/127\.0\.0\.1:9\/almanac_\w+: .*ECONNREFUSED/);
    } finally {
      await storage.close();
    }
  });
});
