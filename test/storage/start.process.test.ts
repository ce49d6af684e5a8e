import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/storage/migrations/index.js';
import { openStorage, SQLITE_FILE } from '../../src/storage/storage.js';
import { CANARY_TOKEN, startTestBot, type TestBot } from '../helpers/bot.js';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/postgres-server.js';
import { logMessages, NO_STACK, runEntryPoint } from '../helpers/run-script.js';

/**
 * The database as the start meets it: `npm start` (the real entry point) stops with one line for a
 * fleet on SQLite, a schema newer than it knows, a migration that fails, or a PostgreSQL it cannot
 * reach, before logging in to Discord; a bot that starts opens and migrates it, and closes it on stop.
 */

/** `npm start`'s environment: Discord on a closed port, so that a start past the database fails differently. */
const START_ENV = { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: 'http://127.0.0.1:9/api' };

let dataDir: string | undefined;
let database: TestDatabase | undefined;
let bots: TestBot[] = [];

afterEach(async () => {
  for (const bot of bots) await bot.stop();
  bots = [];
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
  dataDir = database = undefined;
});

async function freshDataDir(): Promise<string> {
  dataDir = await mkdtemp(join(tmpdir(), 'almanac-storage-start-'));
  return dataDir;
}

/** `npm start` in `env`: it must exit 1 with exactly one fatal line, no stack, and never reach Discord. */
async function failedStart(env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runEntryPoint('src/index.ts', [], { ...START_ENV, ...env });
  expect(result.code).toBe(1);
  expect(result.stdout + result.stderr).not.toMatch(NO_STACK);
  expect(logMessages(result.stdout).some((message) => message.includes('logging in to Discord'))).toBe(false);
  const fatal = logMessages(result.stdout, 60);
  expect(fatal).toHaveLength(1);
  return fatal[0]!;
}

describe('the start and the database', () => {
  it('refuses SQLite with REDIS_URL in one line saying why, before opening anything', async () => {
    const dir = await freshDataDir();
    const result = await runEntryPoint('src/index.ts', [], { ...START_ENV, DATA_DIR: dir, REDIS_URL: 'redis://127.0.0.1:9' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '  - DATABASE_URL: must be a postgres:// URL when REDIS_URL is set: a fleet shares one database, and SQLite (used when it is unset) is a file only this process sees',
    );
    expect(existsSync(join(dir, SQLITE_FILE))).toBe(false);
  });

  it('stops at a schema newer than it knows, naming the migration', async () => {
    const dir = await freshDataDir();
    const newer = openStorage({ databaseUrl: undefined, dataDir: dir, migrations: { ...MIGRATIONS, '9000_test_from_the_future': { up: async () => undefined } } });
    await newer.migrate();
    await newer.close();
    expect(await failedStart({ DATA_DIR: dir })).toBe(
      `The SQLite database ${join(dir, SQLITE_FILE)} has a schema newer than this version of Almanac knows (migration 9000_test_from_the_future): ` +
        'run the version that migrated it, or restore a backup taken before it',
    );
  });

  it('stops at a migration that fails, naming it, and leaves the database as it was', async () => {
    const dir = await freshDataDir();
    // A table in the way of the first migration's, as a hand-made or foreign database has.
    const sqlite = new SqliteDatabase(join(dir, SQLITE_FILE));
    sqlite.exec('create table guilds (something text)');
    sqlite.close();
    const line = await failedStart({ DATA_DIR: dir });
    expect(line).toBe(
      `Migration 0001_first_schema of the SQLite database ${join(dir, SQLITE_FILE)} failed and was rolled back ` +
        '(the database is as it was before this start): table "guilds" already exists',
    );
    const after = new SqliteDatabase(join(dir, SQLITE_FILE), { readonly: true });
    const tables = after.prepare("select name from sqlite_master where type = 'table' and name not like 'kysely_%' order by name").pluck().all();
    after.close();
    expect(tables).toEqual(['guilds']);
  });

  it('opens and migrates SQLite in DATA_DIR on start, and closes it on stop', async () => {
    const dir = await freshDataDir();
    const bot = await startTestBot({ env: { DATA_DIR: dir } });
    bots.push(bot);
    expect(bot.app.services.storage?.dialect).toBe('sqlite');
    expect(bot.logs.entries().map((entry) => entry.msg)).toContain(`database ${join(dir, SQLITE_FILE)}: applied 0001_first_schema, 0002_banlist_history, 0003_card_set_history, 0004_poll_turns`);
    expect(existsSync(join(dir, `${SQLITE_FILE}-wal`))).toBe(true);
    await bot.stop();
    bots = [];
    // The last connection's close checkpoints the write-ahead log into the file and removes it.
    expect(existsSync(join(dir, `${SQLITE_FILE}-wal`))).toBe(false);
  });
});

describeWithPostgres('the start and PostgreSQL', () => {
  it('stops in one line when the server cannot be reached', async () => {
    expect(await failedStart({ DATA_DIR: await freshDataDir(), DATABASE_URL: 'postgres://almanac:pg-canary-password@127.0.0.1:9/almanac' })).toMatch(
      /^Almanac could not reach its PostgreSQL database postgres:\/\/127\.0\.0\.1:9\/almanac: .*ECONNREFUSED/,
    );
  });

  it('migrates once for two processes of a fleet, and closes its connections on stop', async () => {
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url };
    bots.push(await startTestBot({ env }), await startTestBot({ env }));
    const location = `postgres://${new URL(database.url).host}${new URL(database.url).pathname}`;
    expect(bots[0]!.logs.entries().map((entry) => entry.msg)).toContain(`database ${location}: applied 0001_first_schema, 0002_banlist_history, 0003_card_set_history, 0004_poll_turns`);
    expect(bots[1]!.logs.entries().map((entry) => entry.msg)).toContain(`database ${location}: schema up to date`);
    expect(bots[1]!.app.services.storage?.dialect).toBe('postgres');
    for (const bot of bots) await bot.stop();
    bots = [];
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      // A closed connection's server process leaves the list a moment later (seen on a loaded machine);
      // one left open would stay.
      const others = async () =>
        Number((await admin.query<{ count: string }>('select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows[0]!.count);
      await expect.poll(others, { timeout: 10_000, interval: 100 }).toBe(0);
    } finally {
      await admin.end();
    }
  });
});
