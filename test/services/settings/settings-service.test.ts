import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDLE_EXPIRY_MS, SettingsService, TOUCH_INTERVAL_MS } from '../../../src/services/settings/settings-service.js';
import { createInProcessState } from '../../../src/state/in-process.js';
import type { NoticeChannel } from '../../../src/state/shared-state.js';
import { SettingsRepository } from '../../../src/storage/settings-repository.js';
import { openStorage, type Storage, type StorageOptions } from '../../../src/storage/storage.js';
import { countQueries } from '../../helpers/storage-queries.js';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../../helpers/postgres-server.js';

/**
 * The settings repository and the cached service on a real SQLite file and a real PostgreSQL: the
 * same tests for both. The clock is injected: the once-a-day record of an interaction and the
 * 180-day expiry pass without waiting.
 */

const DAY = 86_400_000;
const GUILD = '111111111111111111';
const CHANNEL = '222222222222222222';
const THREAD = '222222222222222299';
const USER = '333333333333333333';
const log = pino({ level: 'silent' });

/** Notices between two services "of one fleet", delivered by hand as Redis would. */
function noticeBus() {
  const listeners: ((text: string) => void)[] = [];
  const channel: NoticeChannel = {
    publish: (text) => {
      for (const listener of listeners) listener(text);
      return Promise.resolve();
    },
    subscribe: (listener) => void listeners.push(listener),
  };
  return { notices: () => channel };
}

function settingsTests(options: () => StorageOptions): void {
  let storage: Storage;
  let now: number;
  const service = (state: ConstructorParameters<typeof SettingsService>[0]['state'] = createInProcessState({ processId: 'p' })) =>
    new SettingsService({ storage, state, logger: log, now: () => now });
  /** The statements the database ran. */
  let queries: () => number;

  beforeEach(async () => {
    now = Date.UTC(2026, 10, 1);
    storage = openStorage({ ...options(), logger: log });
    await storage.migrate();
    queries = countQueries(storage);
  });
  afterEach(async () => {
    await storage.close();
  });

  it('round-trips server, channel and user choices, a null clearing one', async () => {
    const repository = new SettingsRepository(storage.db);
    expect(await repository.guild(GUILD)).toBeNull();
    await repository.setChannel(GUILD, CHANNEL, { inlineCards: false, wallpaperPurity: 'sfw' }, now);
    await repository.setGuild(GUILD, { language: 'fr', ipAnswers: 'private' }, now + 1);
    await repository.setGuild(GUILD, { ipAnswers: null }, now + 2);
    await repository.setUser(USER, { language: 'de' }, now);
    const record = await repository.guild(GUILD);
    expect(record?.guild).toEqual({ language: 'fr', inlineCards: null, ipAnswers: null, wallpaperPurity: null });
    expect(record?.lastInteractionAt).toBe(now + 2);
    expect([...(record?.channels ?? [])]).toEqual([[CHANNEL, { language: null, inlineCards: false, wallpaperPurity: 'sfw' }]]);
    expect(await repository.user(USER)).toEqual({ language: 'de', ipAnswers: null });
    expect(await repository.deleteGuild(GUILD)).toBe(true);
    expect(await storage.db.selectFrom('channel_settings').selectAll().execute()).toEqual([]);
    expect(await repository.user(USER)).not.toBeNull();
  });

  it('answers from memory after the first read: no query per interaction', async () => {
    const settings = service();
    await settings.setChannel(GUILD, CHANNEL, { language: 'it' });
    await settings.setUser(USER, { language: 'de' });
    const place = { guildId: GUILD, channelId: THREAD, parentId: CHANNEL, userId: USER };
    expect((await settings.at(place)).publicLanguage).toEqual({ value: 'it', from: 'channel' });
    const before = queries();
    for (let i = 0; i < 100; i++) await settings.at(place);
    await settings.at({ guildId: GUILD, channelId: CHANNEL, userId: USER });
    expect(queries()).toBe(before);
    // A server with no row is remembered as such too.
    await settings.at({ guildId: '999', channelId: '1', userId: USER });
    const afterMiss = queries();
    await settings.at({ guildId: '999', channelId: '1', userId: USER });
    expect(queries()).toBe(afterMiss);
    expect((await settings.effectiveChannelSettings(GUILD, THREAD, CHANNEL)).publicLanguage.value).toBe('it');
  });

  it('gives a channel’s scheduled posts its language and purity ceiling, and nothing where nothing is chosen', async () => {
    const settings = service();
    expect(await settings.postPreferences(GUILD, CHANNEL)).toEqual({});
    await settings.setGuild(GUILD, { language: 'fr', wallpaperPurity: 'sketchy' });
    await settings.setChannel(GUILD, CHANNEL, { language: 'de', wallpaperPurity: 'sfw' });
    expect(await settings.postPreferences(GUILD, CHANNEL)).toEqual({ locale: 'de', purityCeiling: 'sfw' });
    expect(await settings.postPreferences(GUILD, '222222222222222200')).toEqual({ locale: 'fr', purityCeiling: 'sketchy' });
  });

  it('records a server’s interaction at most once a day, and makes no row for a server without one', async () => {
    const settings = service();
    await settings.setGuild(GUILD, { language: 'fr' });
    const created = now;
    now += DAY / 2;
    await settings.at({ guildId: GUILD, channelId: CHANNEL, userId: null });
    const lastInteraction = async () => (await storage.db.selectFrom('guilds').select('last_interaction_at').executeTakeFirstOrThrow()).last_interaction_at;
    expect(await lastInteraction()).toBe(created);
    now = created + TOUCH_INTERVAL_MS + 1;
    await settings.at({ guildId: GUILD, channelId: CHANNEL, userId: null });
    await waitFor(async () => (await lastInteraction()) === now);
    const writes = queries();
    for (let i = 0; i < 10; i++) await settings.at({ guildId: GUILD, channelId: CHANNEL, userId: null });
    expect(queries()).toBe(writes);
    await settings.at({ guildId: '999', channelId: CHANNEL, userId: null });
    expect(await storage.db.selectFrom('guilds').select('guild_id').execute()).toEqual([{ guild_id: GUILD }]);
  });

  it('reaches the fleet: a change made in one process is seen at once by another', async () => {
    const bus = noticeBus();
    const first = service(bus);
    const second = service(bus);
    expect((await second.at({ guildId: GUILD, channelId: CHANNEL, userId: USER })).inlineCards.value).toBe(true);
    await first.setChannel(GUILD, CHANNEL, { inlineCards: false });
    await first.setUser(USER, { ipAnswers: 'private' });
    const seen = await second.at({ guildId: GUILD, channelId: CHANNEL, userId: USER });
    expect(seen.inlineCards).toEqual({ value: false, from: 'channel' });
    expect(seen.ipAnswers).toEqual({ value: 'private', from: 'user' });
  });

  it('forgets the settings of servers idle for 180 days, keeping the row of one with subscriptions', async () => {
    const settings = service();
    const idle = '444444444444444444';
    const subscribed = '555555555555555555';
    for (const guildId of [idle, subscribed, GUILD]) await settings.setChannel(guildId, CHANNEL + guildId.slice(0, 2), { language: 'fr' });
    await storage.db
      .insertInto('subscriptions')
      .values({ guild_id: subscribed, channel_id: CHANNEL, kind: 'card-of-the-day', options: '{}', time_of_day: '09:00', time_zone: 'UTC', next_due_at: null, created_by: USER, created_at: now, last_posted_at: null, last_checked_at: null, paused_at: null, pause_reason: null })
      .execute();
    now += IDLE_EXPIRY_MS - DAY;
    await settings.setGuild(GUILD, {});
    expect(await settings.expireIdleGuilds()).toBe(0);
    now += 2 * DAY;
    expect(await settings.expireIdleGuilds()).toBe(2);
    const guilds = await storage.db.selectFrom('guilds').select(['guild_id', 'language']).orderBy('guild_id').execute();
    expect(guilds).toEqual([
      { guild_id: GUILD, language: null },
      { guild_id: subscribed, language: null },
    ]);
    expect((await storage.db.selectFrom('channel_settings').select('guild_id').execute()).map((row) => row.guild_id)).toEqual([GUILD]);
    expect(await storage.db.selectFrom('subscriptions').select('guild_id').execute()).toEqual([{ guild_id: subscribed }]);
    expect((await settings.at({ guildId: idle, channelId: CHANNEL + '44', userId: null })).publicLanguage.value).toBeNull();
  });
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('settings on SQLite (DATA_DIR/almanac.db)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-settings-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  settingsTests(() => ({ databaseUrl: undefined, dataDir }));
});

describeWithPostgres('settings on PostgreSQL (DATABASE_URL)', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.drop();
  });
  settingsTests(() => ({ databaseUrl: database.url, dataDir: '/nonexistent' }));
});
