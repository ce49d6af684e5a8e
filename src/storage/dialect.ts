import { PostgresAdapter, type Kysely } from 'kysely';

export type StorageDialect = 'sqlite' | 'postgres';

/** Which database a Kysely instance talks to, for the few migration steps the dialects spell differently. */
export function dialectOf(db: Kysely<unknown>): StorageDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
