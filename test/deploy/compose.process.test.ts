import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/run-script.js';
import { SystemTool } from '../helpers/system-tool.js';

const COMPOSE = new SystemTool('docker-compose', 'docker-compose', 'REQUIRE_COMPOSE', 'docker-compose.yml checks');

COMPOSE.describe('docker-compose.yml', () => {
  it('is valid as docker-compose reads it, with Redis, PostgreSQL and two gateway shards that use both', async () => {
    // Beside a .env made from .env.example, as an operator's first `docker-compose up` has it.
    const dir = await mkdtemp(join(tmpdir(), 'almanac-compose-'));
    try {
      await copyFile(join(PROJECT_ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
      await copyFile(join(PROJECT_ROOT, '.env.example'), join(dir, '.env'));
      // Listing the services reads and checks the whole file, as `config -q` would.
      const services = spawnSync('docker-compose', ['config', '--services'], { cwd: dir, encoding: 'utf8' });
      expect(services.stderr).toBe('');
      expect(services.status).toBe(0);
      expect(services.stdout.trim().split('\n').sort()).toEqual(['almanac-shard-0', 'almanac-shard-1', 'postgres', 'redis']);
      // Each shard's DATABASE_URL names the postgres service, with the password the operator chose.
      const chosen = spawnSync('docker-compose', ['config'], { cwd: dir, encoding: 'utf8', env: { ...process.env, POSTGRES_PASSWORD: 'chosen-password' } }).stdout;
      expect(chosen.match(/DATABASE_URL: \S+/g)).toEqual(Array(2).fill('DATABASE_URL: postgres://almanac:chosen-password@postgres:5432/almanac'));
      expect(chosen).toContain('POSTGRES_PASSWORD: chosen-password');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
