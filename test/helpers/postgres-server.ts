import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { SystemTool } from './system-tool.js';

/**
 * A real PostgreSQL (Debian package `postgresql`; no npm package can ship it) for the storage
 * tests: one throwaway cluster per test run, started by the global setup (test/global-setup.ts)
 * on a free port of 127.0.0.1, and a fresh database in it for each test that asks
 * (`createTestDatabase`). initdb and the server refuse to run as root: as root (CI) they run as the
 * `postgres` user the package creates, through `runuser`.
 */

const run = promisify(execFile);

/** Debian installs the server's programs off PATH, in /usr/lib/postgresql/<major>/bin: the newest. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root).filter((major) => existsSync(join(root, major, 'bin', 'initdb')));
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

const BIN = binDir();

export const POSTGRES = new SystemTool(BIN === undefined ? 'initdb' : join(BIN, 'initdb'), 'postgresql', 'REQUIRE_POSTGRES', 'PostgreSQL tests');

/** `describe` for tests that need a real PostgreSQL (see `SystemTool.describe`). */
export function describeWithPostgres(name: string, body: () => void): void {
  POSTGRES.describe(name, body);
}

/** Set by the global setup: the URL of the run's cluster (its `postgres` database, as superuser). */
export const POSTGRES_URL_ENV = 'ALMANAC_TEST_POSTGRES_URL';

export interface PostgresCluster {
  /** `postgres://almanac@127.0.0.1:<port>/postgres`: the superuser, no password (trust on loopback). */
  readonly url: string;
  stop(): Promise<void>;
}

/** Whether the server programs must run as `postgres` (they refuse root). */
const AS_ROOT = process.getuid?.() === 0;

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function runServerProgram(program: string, args: string[]): Promise<void> {
  const path = join(BIN!, program);
  // From a folder the postgres user may enter (the project's may be root's alone).
  const options = { cwd: tmpdir() };
  await (AS_ROOT ? run('runuser', ['-u', 'postgres', '--', path, ...args], options) : run(path, args, options));
}

/**
 * initdb in a new temporary folder and a server on a free port, tuned for throwaway data (no
 * fsync), listening on 127.0.0.1 and a socket in that folder only. About 2 s here.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (BIN === undefined) throw new Error(POSTGRES.installHint);
  const dir = await mkdtemp(join(tmpdir(), 'almanac-postgres-'));
  if (AS_ROOT) {
    const { uid, gid } = postgresIds();
    await chown(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const port = await freePort();
  try {
    await runServerProgram('initdb', ['-D', data, '-U', 'almanac', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    await runServerProgram('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', '-o', settings, 'start']);
  } catch (error) {
    const output = await readFile(log, 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start on port ${port}: ${(error as Error).message} ${output.slice(-500)}`);
  }
  return {
    url: `postgres://almanac@127.0.0.1:${port}/postgres`,
    async stop() {
      await runServerProgram('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let databases = 0;

export interface TestDatabase {
  /** DATABASE_URL of a new, empty database. */
  readonly url: string;
  /** Drops it, closing whatever is still connected to it. */
  drop(): Promise<void>;
}

async function asSuperuser(url: string, query: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A new empty database in the run's cluster (or the one at `clusterUrl`), for one test or one fleet. */
export async function createTestDatabase(clusterUrl = process.env[POSTGRES_URL_ENV]): Promise<TestDatabase> {
  if (clusterUrl === undefined) throw new Error(`${POSTGRES_URL_ENV} is unset: the run's global setup (test/global-setup.ts) starts PostgreSQL`);
  const name = `almanac_${process.pid}_${++databases}_${randomBytes(3).toString('hex')}`;
  await asSuperuser(clusterUrl, `create database "${name}"`);
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => asSuperuser(clusterUrl, `drop database if exists "${name}" with (force)`),
  };
}

/**
 * A new empty database in the run's cluster, or outside a test run (`npm run bench`) in a cluster
 * started for it alone and stopped with its `drop()`.
 */
export async function startTestDatabase(): Promise<TestDatabase> {
  if (process.env[POSTGRES_URL_ENV] !== undefined) return createTestDatabase();
  const cluster = await startPostgresCluster();
  try {
    const database = await createTestDatabase(cluster.url);
    return {
      url: database.url,
      async drop() {
        await database.drop();
        await cluster.stop();
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
