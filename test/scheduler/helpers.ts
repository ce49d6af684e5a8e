import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { MessagePayload } from '../../src/interaction/reply.js';
import type { ChannelPoster, PostOutcome } from '../../src/scheduler/channel-poster.js';
import { Scheduler, type PostResult, type SchedulerOptions } from '../../src/scheduler/scheduler.js';
import { nextOccurrence, parseTimeOfDay } from '../../src/schedule/time-of-day.js';
import { openStorage, type Storage } from '../../src/storage/storage.js';
import { SubscriptionsStore, type SubscriptionRow } from '../../src/storage/subscriptions-store.js';
import { afterEach, beforeEach, describe } from 'vitest';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { createTestDatabase, POSTGRES } from '../helpers/postgres-server.js';

export const GUILD = '111111111111111111';
export const CHANNEL = '222222222222222222';
export const LIMITS = { perChannel: 10, perGuild: 50 };

/** A migrated database of either dialect, and how to be rid of it. */
export async function openTestStorage(dialect: 'sqlite' | 'postgres'): Promise<{ storage: Storage; store: SubscriptionsStore; url?: string; close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-scheduler-'));
    const storage = openStorage({ databaseUrl: undefined, dataDir: dir });
    await storage.migrate();
    return { storage, store: new SubscriptionsStore(storage.db), close: async () => (await storage.close(), await rm(dir, { recursive: true, force: true })) };
  }
  const database = await createTestDatabase();
  const storage = openStorage({ databaseUrl: database.url, dataDir: tmpdir() });
  await storage.migrate();
  return { storage, store: new SubscriptionsStore(storage.db), url: database.url, close: async () => (await storage.close(), await database.drop()) };
}

/** A channel poster that remembers what it posted and, like Discord, answers a repeated nonce with the first message. */
export class RecordingPoster implements ChannelPoster {
  readonly posts: { channelId: string; nonce: string; at: number; message: MessagePayload }[] = [];
  readonly refusing = new Map<string, PostOutcome>();
  private readonly byNonce = new Map<string, string>();
  private ids = 0;

  constructor(private readonly now: () => number) {}

  async post(channelId: string, message: MessagePayload, nonce: string): Promise<PostOutcome> {
    const refusal = this.refusing.get(channelId);
    if (refusal) return refusal;
    const existing = this.byNonce.get(nonce);
    if (existing !== undefined) return { ok: true, messageId: existing };
    const id = String(++this.ids);
    this.byNonce.set(nonce, id);
    this.posts.push({ channelId, nonce, at: this.now(), message });
    return { ok: true, messageId: id };
  }
}

/** A clock the test moves. */
export class TestClock {
  constructor(public time: number) {}
  readonly now = () => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

export function schedulerFor(
  store: SubscriptionsStore,
  poster: ChannelPoster,
  clock: TestClock,
  overrides: Partial<SchedulerOptions> = {},
): { scheduler: Scheduler; results: PostResult[] } {
  const results: PostResult[] = [];
  let item = 0;
  const scheduler = new Scheduler({
    store,
    poster,
    content: async () => ({ message: { content: 'a card' }, item: { kind: 'card', id: String(++item) } }),
    now: clock.now,
    processId: 'test',
    logger: pino({ level: 'silent' }),
    metrics: { onPost: (result) => results.push(result) },
    deletePausedAfterRetention: false,
    ...overrides,
  });
  return { scheduler, results };
}

/** Subscribes the test channel (or `channelId`) at `time` in `zone`, first due after `now`. */
export async function subscribe(store: SubscriptionsStore, time: string, zone: string, now: number, channelId = CHANNEL): Promise<SubscriptionRow> {
  const result = await store.add(
    { guildId: GUILD, channelId, kind: 'card-of-the-day', options: '{}', timeOfDay: time, timeZone: zone, nextDueAt: nextOccurrence(parseTimeOfDay(time)!, zone, now), createdBy: '1' },
    LIMITS,
    now,
  );
  if (!('added' in result)) throw new Error(`not added: ${result.refused}`);
  return result.added;
}

/** What a feed's tests run on: a migrated database and the fake YGOPRODeck, fresh for each test. */
export interface FeedFixtures {
  storage: Storage;
  store: SubscriptionsStore;
  fake: FakeYgoprodeck;
}

/**
 * `body`'s tests once per dialect (PostgreSQL's skipped where it is not installed), each on a fresh
 * database and fake YGOPRODeck: `fixtures` holds the current test's.
 */
export function describeFeedOnEachDialect(title: string, body: (fixtures: FeedFixtures, dialect: 'sqlite' | 'postgres') => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe.skipIf(dialect === 'postgres' && !POSTGRES.installed)(`${title} on ${dialect}`, () => {
      const fixtures = {} as FeedFixtures;
      let close: () => Promise<void>;
      beforeEach(async () => {
        let storage: Storage;
        let store: SubscriptionsStore;
        ({ storage, store, close } = await openTestStorage(dialect));
        Object.assign(fixtures, { storage, store, fake: await startFakeYgoprodeck() });
      });
      afterEach(async () => {
        await close();
        await fixtures.fake.close();
      });
      body(fixtures, dialect);
    });
  }
}
