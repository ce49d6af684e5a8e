import { createTestDatabase, POSTGRES, type TestDatabase } from './postgres-server.js';
import { REDIS, startRedisServer, type RedisServer } from './redis-server.js';
import { describeWithTools } from './system-tool.js';

/**
 * What the processes of a fleet share, as README's "Running more than one process" runs them: one
 * Redis (REDIS_URL) and one PostgreSQL database (DATABASE_URL; the start refuses SQLite with
 * REDIS_URL). The database is a new one in the run's cluster (test/helpers/postgres-server.ts).
 */
export interface FleetStores {
  redis: RedisServer;
  database: TestDatabase;
  /** REDIS_URL and DATABASE_URL, for each process's environment. */
  env: { REDIS_URL: string; DATABASE_URL: string };
  stop(): Promise<void>;
}

/** `describe` for fleet tests: they need redis-server and PostgreSQL both. */
export function describeWithFleetStores(name: string, body: () => void): void {
  describeWithTools([REDIS, POSTGRES], name, body);
}

export async function startFleetStores(): Promise<FleetStores> {
  const [redis, database] = await Promise.all([startRedisServer(), createTestDatabase()]);
  return {
    redis,
    database,
    env: { REDIS_URL: redis.url, DATABASE_URL: database.url },
    async stop() {
      await redis.stop();
      await database.drop();
    },
  };
}
