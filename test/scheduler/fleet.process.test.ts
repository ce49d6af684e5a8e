import { afterEach, beforeEach, expect, it } from 'vitest';
import { nextOccurrence, parseTimeOfDay } from '../../src/schedule/time-of-day.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { describeWithPostgres } from '../helpers/postgres-server.js';
import { startEntryPoint } from '../helpers/run-script.js';
import { GUILD, LIMITS, openTestStorage } from './helpers.js';
import type { Storage } from '../../src/storage/storage.js';
import type { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';

/**
 * Two real processes on one PostgreSQL, each running the scheduler against the fake Discord:
 * every due occurrence is posted exactly once, also when a process is SIGKILLed between Discord
 * accepting a post and marking it done (the other takes the claim over after its lease and posts
 * with the same nonce, which Discord answers with the first message).
 */

const TOKEN = 'fake-bot-token';
const LEASE_MS = 1_500;
const SUBSCRIPTIONS = 40;

interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  handled?: number;
}

/** One scheduler process (scheduler-child.ts), bundled like the entry points when the run made them. */
function runChild(env: Record<string, string>): Promise<ChildExit> {
  const running = startEntryPoint('test/scheduler/scheduler-child.ts', [], env);
  return new Promise((resolve, reject) => {
    running.child.on('error', reject);
    running.child.on('close', (code, signal) => {
      const out = running.stdout();
      resolve({ code, signal, ...(out === '' ? {} : (JSON.parse(out) as { handled: number })) });
    });
  });
}

describeWithPostgres('two scheduler processes on one PostgreSQL', () => {
  let fake: FakeDiscord;
  let store: SubscriptionsStore;
  let storage: Storage;
  let url: string;
  let close: () => Promise<void>;

  beforeEach(async () => {
    fake = await startFakeDiscord({ token: TOKEN });
    const opened = await openTestStorage('postgres');
    ({ store, storage, close } = opened);
    url = opened.url!;
  });
  afterEach(async () => {
    await close();
    await fake.close();
  });

  async function dueSubscriptions(count: number): Promise<number[]> {
    const now = Date.now();
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      const result = await store.add(
        { guildId: GUILD, channelId: `c-${index}`, kind: 'card-of-the-day', options: '{}', timeOfDay: '09:00', timeZone: 'UTC', nextDueAt: now - 60_000, createdBy: '1' },
        LIMITS,
        now,
      );
      if ('added' in result) ids.push(result.added.id);
    }
    return ids;
  }

  async function claimOf(subscriptionId: number) {
    return storage.db.selectFrom('post_claims').select(['state', 'attempts', 'message_id']).where('subscription_id', '=', subscriptionId).executeTakeFirst();
  }

  function childEnv(processId: string, extra: Record<string, string> = {}): Record<string, string> {
    return { DATABASE_URL: url, DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: TOKEN, PROCESS_ID: processId, LEASE_MS: String(LEASE_MS), ...extra };
  }

  it('posts each due occurrence exactly once between them', async () => {
    const ids = await dueSubscriptions(SUBSCRIPTIONS);
    const [first, second] = await Promise.all([runChild(childEnv('a')), runChild(childEnv('b'))]);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.handled! + second.handled!).toBe(SUBSCRIPTIONS);
    const posts = fake.channelPosts();
    expect(posts).toHaveLength(SUBSCRIPTIONS);
    expect(new Set(posts.map((post) => post.message.channel_id)).size).toBe(SUBSCRIPTIONS);
    for (const id of ids) expect((await store.byId(id))!.next_due_at).toBe(nextOccurrence(parseTimeOfDay('09:00')!, 'UTC', Date.now() - 1));
  });

  it('posts once when a process is SIGKILLed between posting and marking: the other retries with the nonce', async () => {
    const ids = await dueSubscriptions(SUBSCRIPTIONS / 4);
    const killed = await runChild(childEnv('a', { KILL_AFTER_POSTING: 'c-0' }));
    expect(killed.signal).toBe('SIGKILL');
    const survivor = await runChild(childEnv('b'));
    expect(survivor.code).toBe(0);
    const posts = fake.channelPosts();
    // Every channel got exactly one message; c-0's second attempt was answered with the first message.
    expect(posts.filter((post) => post.message.channel_id === 'c-0').length).toBe(1);
    expect(new Set(posts.map((post) => post.message.channel_id)).size).toBe(SUBSCRIPTIONS / 4);
    expect(await claimOf(ids[0]!)).toMatchObject({ state: 'posted', attempts: 2, message_id: posts.find((post) => post.message.channel_id === 'c-0')!.message.id });
  });
});
