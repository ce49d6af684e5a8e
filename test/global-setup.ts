import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED_ENTRY_POINTS_ENV, compileEntryPoints } from './helpers/compiled-entry-points.js';
import { RUN_CACHE_ENV } from './helpers/once-in-run.js';
import { POSTGRES, POSTGRES_URL_ENV, startPostgresCluster, type PostgresCluster } from './helpers/postgres-server.js';
import { PROMTOOL } from './helpers/prometheus.js';
import { REDIS } from './helpers/redis-server.js';

/**
 * Once per run, not once per file: says which tests are skipped for a missing program and how to
 * enable them, makes the folder where what tests make once (card snapshots, matcher tables, the
 * normalised dump) is kept for every worker, transpiles the entry points that tests spawn, and
 * starts the PostgreSQL cluster every test database is made in (all three removed after the run). A run started by a test of another run (the bench's floods and fuzz
 * sections in `npm run test:bench`) inherits them from it and leaves them be.
 */
export default async function setup(): Promise<() => Promise<void>> {
  for (const tool of [REDIS, PROMTOOL, POSTGRES]) if (!tool.installed && !tool.required) console.warn(tool.installHint);
  if (process.env[RUN_CACHE_ENV] !== undefined && process.env[COMPILED_ENTRY_POINTS_ENV] !== undefined) return async () => {};
  const cache = await mkdtemp(join(tmpdir(), 'almanac-test-run-'));
  // Workers are forked after global setup and inherit this environment.
  process.env[RUN_CACHE_ENV] = cache;
  // The cluster starts (about 2 s, mostly initdb) while the entry points are bundled.
  const [compiled, postgres] = await Promise.all([
    compileEntryPoints(fileURLToPath(new URL('..', import.meta.url))),
    POSTGRES.installed ? startPostgresCluster() : Promise.resolve<PostgresCluster | undefined>(undefined),
  ]);
  process.env[COMPILED_ENTRY_POINTS_ENV] = compiled.dir;
  if (postgres) process.env[POSTGRES_URL_ENV] = postgres.url;
  return async () => {
    await rm(cache, { recursive: true, force: true });
    await compiled.remove();
    await postgres?.stop();
  };
}
