import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { once } from 'node:events';
import { freePort } from './free-port.js';
import { SystemTool } from './system-tool.js';

/**
 * A real `redis-server` (Debian package `redis-server`; no npm package can ship it) on a free port of
 * 127.0.0.1, for the shared-state tests: no persistence, and the memory policy README.md states for
 * production. Tests kill and restart it to drive the Redis fault cases.
 */

export const REDIS = new SystemTool('redis-server', 'redis-server', 'REQUIRE_REDIS', 'Redis tests');

/** `describe` for tests that need a real Redis (see `SystemTool.describe`). */
export function describeWithRedis(name: string, body: () => void): void {
  REDIS.describe(name, body);
}

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`, the value of REDIS_URL. */
  readonly url: string;
  /** Kills the server at once (SIGKILL: a lost Redis, not a clean shutdown); its data is gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory', '64mb', '--maxmemory-policy', 'volatile-lru'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}: ${output.slice(-500)}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

async function killChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined = await spawnRedis(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      await killChild(child);
      child = undefined;
    },
    async restart() {
      await killChild(child);
      child = await spawnRedis(port);
    },
    async stop() {
      await killChild(child);
      child = undefined;
    },
  };
}

/** Empties the server at `url`, so that no pause or cached entry of one test reaches the next. */
export async function emptyRedis(url: string): Promise<void> {
  const admin = new Redis(url, { maxRetriesPerRequest: 1 });
  await admin.flushall().catch(() => undefined);
  admin.disconnect();
}
