import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { IDLE_EXPIRY_MS } from '../../src/services/settings/settings-service.js';
import { SettingsRepository } from '../../src/storage/settings-repository.js';
import { openStorage } from '../../src/storage/storage.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';

/**
 * HTTP-only deployments get no GUILD_DELETE: the settings of a server without an interaction for
 * 180 days are deleted by the sweep the HTTP app starts (at start, then every 6 hours), and a
 * server used since keeps them. The app's clock is the test's.
 */

const NOW = Date.UTC(2026, 10, 28, 12);
const DAY = 86_400_000;
const IDLE = '444444444444444444';
const RECENT = '555555555555555555';

let bot: TestHttpBot | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await bot?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

it('deletes the settings of a server idle for 180 days when the HTTP app starts, and keeps a recent one', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'almanac-expiry-'));
  const before = openStorage({ databaseUrl: undefined, dataDir });
  await before.migrate();
  const repository = new SettingsRepository(before.db);
  await repository.setChannel(IDLE, '1', { language: 'fr' }, NOW - IDLE_EXPIRY_MS - DAY);
  await repository.setGuild(RECENT, { ipAnswers: 'private' }, NOW - 10 * DAY);
  await before.close();

  bot = await startTestHttpBot({ env: { DATA_DIR: dataDir }, overrides: { clock: { now: () => new Date(NOW) } } });
  const db = bot.app.services.storage!.db;
  while ((await db.selectFrom('guilds').select('guild_id').where('guild_id', '=', IDLE).executeTakeFirst()) !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await db.selectFrom('guilds').select(['guild_id', 'ip_answers']).execute()).toEqual([{ guild_id: RECENT, ip_answers: 'private' }]);
  expect(await db.selectFrom('channel_settings').selectAll().execute()).toEqual([]);
});
