import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteAdapter, SqliteDialect, type Migration, type MigrationResult } from 'kysely';
import pg from 'pg';
import type { Logger } from '../runtime/logger.js';
import { StartupError } from '../runtime/startup-error.js';
import type { StorageDialect } from './dialect.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * Where Almanac keeps what must survive a restart and be shared by a fleet (settings,
 * subscriptions, the scheduler's claims, posted history): SQLite in `DATA_DIR/almanac.db` when
 * `DATABASE_URL` is unset, else PostgreSQL. One typed query layer for both (`db`).
 */
export interface Storage {
  readonly dialect: StorageDialect;
  /** The database, typed by its schema (./schema.ts). */
  readonly db: Kysely<Database>;
  /** Where it is, for log lines: the SQLite file, or PostgreSQL's host, port and database (never a password). */
  readonly location: string;
  /** Applies the migrations not yet applied, in order (on PostgreSQL under an advisory lock); their names. */
  migrate(): Promise<string[]>;
  /** Closes the connections (SQLite: the file, after a WAL checkpoint). */
  close(): Promise<void>;
}

/**
 * A database that cannot be used as it is: unreachable, a migration that failed, or a schema newer
 * than this version knows. The message is one line saying which, and the start prints it as it is.
 */
export class StorageError extends StartupError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StorageError';
  }
}

export interface StorageOptions {
  /** `postgres://…` or `postgresql://…`; undefined: SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  logger?: Logger;
  /** The migrations to apply (default: this version's, ./migrations/index.ts); tests add their own. */
  migrations?: Readonly<Record<string, Migration>>;
}

/** SQLite's file under DATA_DIR. */
export const SQLITE_FILE = 'almanac.db';

/** How long a start waits for PostgreSQL to accept a connection, and SQLite for a lock, before saying so. */
const CONNECT_TIMEOUT_MS = 10_000;

/** PostgreSQL's int8: Almanac's millisecond times and ids, all within a JavaScript number. */
const INT8_OID = 20;

/**
 * SQLite runs DDL inside transactions (Kysely's adapter says it does not, to be safe with drivers
 * that commit implicitly; better-sqlite3 does not), so a migration that fails leaves no half of
 * itself behind on either dialect.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class TransactionalSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalSqliteAdapter();
  }
}

/** `postgres://host:5432/almanac`: the URL without user, password or parameters. */
export function describePostgresUrl(url: string): string {
  const parsed = new URL(url);
  return `postgres://${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

function openSqlite(dataDir: string): { db: Kysely<Database>; location: string } {
  const file = resolve(join(dataDir, SQLITE_FILE));
  let database: SqliteDatabase.Database | undefined;
  try {
    mkdirSync(dataDir, { recursive: true });
    database = new SqliteDatabase(file, { timeout: CONNECT_TIMEOUT_MS });
    // WAL: readers never wait for the writer; NORMAL sync is durable at each checkpoint and safe
    // against corruption with WAL. Foreign keys are off by default in SQLite, and the cascades
    // that forget a server need them.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    return { db: new Kysely<Database>({ dialect: new TransactionalSqliteDialect({ database }) }), location: file };
  } catch (error) {
    database?.close();
    throw new StorageError(`Almanac could not open its SQLite database ${file}: ${reasonOf(error)}`, { cause: error });
  }
}

function openPostgres(url: string, logger: Logger | undefined): { db: Kysely<Database>; location: string } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
  });
  // A connection that breaks while idle is dropped by the pool and reported here, instead of an
  // 'error' event that nothing listens to ending the process.
  pool.on('error', (error) => logger?.warn({ err: error }, 'a PostgreSQL connection failed while idle'));
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), location: describePostgresUrl(url) };
}

function dialectName(dialect: StorageDialect): string {
  return dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
}

/** An error's message, on one line (pg reports a refused connection to every address of a host as an AggregateError). */
function reasonOf(error: unknown): string {
  const reason = error instanceof AggregateError && error.errors.length > 0 ? (error.errors[0] as Error).message : (error as Error).message;
  return (reason || (error as Error).name).replace(/\s*\n\s*/g, ' ');
}

function describeFailure(dialect: StorageDialect, location: string, error: unknown): string {
  return `${dialectName(dialect)} database ${location}: ${reasonOf(error)}`;
}

/** The table Kysely records applied migrations in. */
const MIGRATION_TABLE = 'kysely_migration';

/** Names the database has applied that `known` lacks: it was migrated by a newer Almanac. */
async function unknownMigrations(db: Kysely<Database>, known: Readonly<Record<string, Migration>>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.name === MIGRATION_TABLE)) return [];
  const applied = await (db as unknown as Kysely<Record<typeof MIGRATION_TABLE, { name: string }>>).selectFrom(MIGRATION_TABLE).select('name').execute();
  return applied.map((row) => row.name).filter((name) => !Object.hasOwn(known, name)).sort();
}

/** Opens the database `DATABASE_URL` names (SQLite when unset); nothing is read or written before `migrate()`. */
export function openStorage(options: StorageOptions): Storage {
  const migrations = options.migrations ?? MIGRATIONS;
  const dialect: StorageDialect = options.databaseUrl === undefined ? 'sqlite' : 'postgres';
  const { db, location } = options.databaseUrl === undefined ? openSqlite(options.dataDir) : openPostgres(options.databaseUrl, options.logger);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  let closed: Promise<void> | undefined;
  return {
    dialect,
    db,
    location,
    async migrate() {
      let newer: string[];
      try {
        newer = await unknownMigrations(db, migrations);
      } catch (error) {
        throw new StorageError(`Almanac could not ${dialect === 'postgres' ? 'reach' : 'read'} its ${describeFailure(dialect, location, error)}`, { cause: error });
      }
      if (newer.length > 0) throw newerSchema(dialect, location, newer);
      const { error, results = [] } = await migrator.migrateToLatest();
      if (error !== undefined) throw migrationFailure(dialect, location, error, results, migrations);
      return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
    },
    close() {
      closed ??= db.destroy();
      return closed;
    },
  };
}

function newerSchema(dialect: StorageDialect, location: string, names: string[]): StorageError {
  const list = names.join(', ');
  return new StorageError(
    `The ${dialectName(dialect)} database ${location} has a schema newer than this version of Almanac knows ` +
      `(migration${names.length === 1 ? '' : 's'} ${list}): run the version that migrated it, or restore a backup taken before it`,
  );
}

function migrationFailure(
  dialect: StorageDialect,
  location: string,
  error: unknown,
  results: readonly MigrationResult[],
  migrations: Readonly<Record<string, Migration>>,
): StorageError {
  const failed = results.find((result) => result.status === 'Error');
  if (failed) {
    return new StorageError(
      `Migration ${failed.migrationName} of the ${dialectName(dialect)} database ${location} failed and was rolled back ` +
        `(the database is as it was before this start): ${reasonOf(error)}`,
      { cause: error },
    );
  }
  // Kysely checks again under its lock: a newer Almanac may have migrated since the check above.
  const missing = /previously executed migration (\S+) is missing/.exec((error as Error).message ?? '');
  if (missing && !Object.hasOwn(migrations, missing[1]!)) return newerSchema(dialect, location, [missing[1]!]);
  return new StorageError(`Almanac could not migrate its ${describeFailure(dialect, location, error)}`, { cause: error });
}

/**
 * The start's step: opens the database, brings its schema up to date and logs one line saying
 * where it is and what was applied. Throws a StorageError (closing what it opened) when it cannot.
 */
export async function startStorage(options: StorageOptions & { logger: Logger }): Promise<Storage> {
  const storage = openStorage(options);
  try {
    const applied = await storage.migrate();
    options.logger.info(
      { database: storage.location, dialect: storage.dialect, migrations: applied },
      applied.length === 0 ? `database ${storage.location}: schema up to date` : `database ${storage.location}: applied ${applied.join(', ')}`,
    );
    return storage;
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
}
