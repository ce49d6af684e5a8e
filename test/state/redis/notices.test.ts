import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SettingsService } from '../../../src/services/settings/settings-service.js';
import { createRedisState } from '../../../src/state/redis/index.js';
import type { SharedState } from '../../../src/state/shared-state.js';
import { openStorage, type Storage } from '../../../src/storage/storage.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

/**
 * Two processes of a fleet (two shared states on one real Redis, two settings services over one
 * database): a change made through one reaches the other's cache by a notice, not by its expiry
 * (10 minutes), and a process never hears its own.
 */

const log = pino({ level: 'silent' });
const GUILD = '111111111111111111';
const CHANNEL = '222222222222222222';

describeWithRedis('settings notices on Redis', () => {
  let redis: RedisServer;
  let dataDir: string;
  let storage: Storage;
  const states: SharedState[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-notices-'));
    storage = openStorage({ databaseUrl: undefined, dataDir });
    await storage.migrate();
  });

  afterAll(async () => {
    for (const state of states) await state.close();
    await storage?.close();
    await redis?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function fleetProcess(id: string): Promise<SettingsService> {
    const state = await createRedisState({ url: redis.url, processId: id, logger: log });
    states.push(state);
    return new SettingsService({ storage, state, logger: log, now: Date.now });
  }

  it('reaches another process at once, and never echoes to its sender', async () => {
    const [first, second] = [await fleetProcess('a'), await fleetProcess('b')];
    const place = { guildId: GUILD, channelId: CHANNEL, userId: null };
    expect((await second.at(place)).inlineCards.value).toBe(true);
    const received: string[] = [];
    states[1]!.notices('settings').subscribe((text) => received.push(text), () => undefined);
    states[0]!.notices('settings').subscribe(() => received.push('echo'), () => undefined);
    await first.setChannel(GUILD, CHANNEL, { inlineCards: false });
    while ((await second.at(place)).inlineCards.value) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toEqual([JSON.stringify({ guild: GUILD })]);
  });
});
