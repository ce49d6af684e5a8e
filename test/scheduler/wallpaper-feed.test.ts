import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPost, type PostContentDeps } from '../../src/scheduler/post-content.js';
import { LATE_POLL_MS, Scheduler, TICK_MS } from '../../src/scheduler/scheduler.js';
import { Subscriptions } from '../../src/scheduler/subscriptions.js';
import { MAX_WALLPAPERS_PER_POST, POLL_INTERVAL_MS } from '../../src/scheduler/wallpaper-feed.js';
import { WallhavenService } from '../../src/services/wallhaven/wallhaven.js';
import type { SubscriptionRow, SubscriptionsStore } from '../../src/storage/subscriptions-store.js';
import { createLocalCacheFactory } from '../../src/upstream/cache.js';
import { createLocalLimiterFactory } from '../../src/upstream/limiter.js';
import type { WallpaperSearch } from '../../src/wallpaper/search.js';
import type { WallpaperPage, WallpaperPurity, WallpaperSummary } from '../../src/wallpaper/wallpaper.js';
import { startFakeWallhaven } from '../fakes/wallhaven.js';
import { createRedisState } from '../../src/state/redis/index.js';
import type { SharedState } from '../../src/state/shared-state.js';
import { describeWithRedis, startRedisServer } from '../helpers/redis-server.js';
import { item } from '../helpers/wallpaper-fixtures.js';
import { GUILD, openTestStorage, RecordingPoster, TestClock } from './helpers.js';

/**
 * `/subscribe wallpapers`: new uploads of a search or a tag, polled at most every 30 minutes per
 * subscription and never more than 10 polls a minute across the fleet; at most 5 a post; the
 * channel's purity; no wallpaper twice in a channel; a Wallhaven 429 pauses every poll.
 */

const START = Date.UTC(2026, 5, 1, 9);
const MINUTE = 60_000;

let store: SubscriptionsStore;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ store, close } = await openTestStorage('sqlite'));
});
afterEach(() => close());

function uploaded(id: string, at: number, purity: WallpaperPurity = 'sfw'): WallpaperSummary {
  return { ...item(id, purity), createdAt: new Date(at) };
}

function fakeWallhaven(answer: () => WallpaperSummary[], searches: WallpaperSearch[] = []): PostContentDeps['wallhaven'] {
  return {
    nsfwAvailable: true,
    search: async (search: WallpaperSearch): Promise<WallpaperPage> => {
      searches.push(search);
      const items = answer();
      return { items, page: 1, lastPage: 1, total: items.length, perPage: 24, seed: null, query: null };
    },
  };
}

async function addFeed(subscriptions: Subscriptions, channelId: string, ageRestricted = false, text = 'nature', guildId = GUILD): Promise<number> {
  const outcome = await subscriptions.addWallpapers({ guildId, channelId, userId: '1', options: { source: 'query', text, ageRestricted } });
  if (!('added' in outcome)) throw new Error('not added');
  return outcome.added.id;
}

/** `count` subscriptions, each in its own server (a server holds at most 50). */
async function addMany(subscriptions: Subscriptions, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${String(i).padStart(3, '0')}`;
    await addFeed(subscriptions, id, false, 'nature', id);
  }
}

function contentDeps(wallhaven: PostContentDeps['wallhaven']): PostContentDeps {
  return { cards: { matchingIds: () => [], byId: () => undefined }, wallhaven, store, preferences: { forChannel: async () => ({}) } };
}

function schedulerOf(clock: TestClock, poster: RecordingPoster, wallhaven: PostContentDeps['wallhaven'], onPoll: (subscription: SubscriptionRow, now: number) => void = () => {}): Scheduler {
  return new Scheduler({
    store,
    poster,
    content: (subscription: SubscriptionRow, now: number) => {
      onPoll(subscription, now);
      return buildPost(subscription, now, contentDeps(wallhaven));
    },
    now: clock.now,
    processId: 'test',
    logger: pino({ level: 'silent' }),
    deletePausedAfterRetention: false,
  });
}

describe('polling', () => {
  it('spreads 200 subscriptions over time: never more than 10 polls a minute, each at most every 30 minutes', async () => {
    const clock = new TestClock(START);
    const subscriptions = new Subscriptions(store, clock.now);
    // Subscribed in a burst: they must still wait their turn.
    await addMany(subscriptions, '3000000000000000', 200);
    const polls: { at: number; channel: string }[] = [];
    const scheduler = schedulerOf(clock, new RecordingPoster(clock.now), fakeWallhaven(() => []), (subscription, now) => polls.push({ at: now, channel: subscription.channel_id }));
    for (let t = 0; t < 90 * MINUTE; t += TICK_MS) {
      await scheduler.tick();
      clock.advance(TICK_MS);
    }
    // Every window of a minute holds at most 10 polls.
    for (const poll of polls) expect(polls.filter((other) => other.at >= poll.at && other.at < poll.at + MINUTE).length).toBeLessThanOrEqual(10);
    const byChannel = new Map<string, number[]>();
    for (const poll of polls) byChannel.set(poll.channel, [...(byChannel.get(poll.channel) ?? []), poll.at]);
    expect(byChannel.size).toBe(200);
    for (const times of byChannel.values()) for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(POLL_INTERVAL_MS);
    // …and every one was checked, which `/subscribe list` shows.
    const listed = await subscriptions.list('3000000000000000199');
    expect(listed[0]!.lastCheckedAt).not.toBeNull();
  });

  it('gives polls bunched by downtime new turns rather than making them all at once', async () => {
    const clock = new TestClock(START);
    const subscriptions = new Subscriptions(store, clock.now);
    await addMany(subscriptions, '4000000000000000', 30);
    const searches: WallpaperSearch[] = [];
    const scheduler = schedulerOf(clock, new RecordingPoster(clock.now), fakeWallhaven(() => [], searches));
    clock.advance(10 * MINUTE); // every process was down
    expect(LATE_POLL_MS).toBeLessThan(10 * MINUTE);
    await scheduler.tick();
    expect(searches.length).toBeLessThanOrEqual(10);
  });
});

describe('what a poll posts', () => {
  it('posts only uploads made after subscribing, at most 5 a post with the rest counted, and none twice', async () => {
    const clock = new TestClock(START);
    const subscriptions = new Subscriptions(store, clock.now);
    await addFeed(subscriptions, '500000000000000001');
    let answer = [uploaded('old1', START - MINUTE)];
    for (let i = 0; i < 7; i++) answer.unshift(uploaded(`new${i}`, START + (i + 1) * MINUTE));
    const poster = new RecordingPoster(clock.now);
    const scheduler = schedulerOf(clock, poster, fakeWallhaven(() => answer));
    clock.advance(10 * MINUTE);
    let addedLater = false;
    for (let t = 0; t < 70 * MINUTE; t += TICK_MS) {
      await scheduler.tick();
      clock.advance(TICK_MS);
      if (poster.posts.length === 1 && !addedLater) {
        addedLater = true;
        answer = [uploaded('later', clock.now()), ...answer];
      }
    }
    expect(poster.posts).toHaveLength(2);
    const first = poster.posts[0]!.message;
    expect(first.embeds).toHaveLength(MAX_WALLPAPERS_PER_POST);
    expect(first.content).toContain('2 more');
    expect(JSON.stringify(first)).not.toContain('old1');
    // The second poll posts the new upload and the two counted ones not yet shown, none of the first five.
    const second = poster.posts[1]!.message;
    const shownFirst = first.embeds!.map((embed) => JSON.stringify(embed));
    expect(second.embeds!.length).toBe(3);
    for (const embed of second.embeds!) expect(shownFirst).not.toContain(JSON.stringify(embed));
  });

  it('never posts a sketchy upload in a channel that is not age-restricted, nor nsfw without it', async () => {
    const clock = new TestClock(START);
    const subscriptions = new Subscriptions(store, clock.now);
    await addFeed(subscriptions, '600000000000000001', false);
    await addFeed(subscriptions, '600000000000000002', true);
    const searches: WallpaperSearch[] = [];
    // Wallhaven is asked for SFW only, but answers more: the post still holds the purity.
    const wallhaven = fakeWallhaven(() => [uploaded('sk1', START + MINUTE, 'sketchy'), uploaded('ns1', START + MINUTE, 'nsfw'), uploaded('sf1', START + MINUTE)], searches);
    clock.advance(5 * MINUTE);
    const rows = await store.forChannel('600000000000000001');
    const post = await buildPost(rows[0]!, clock.now(), contentDeps(wallhaven));
    expect(searches[0]!.purity).toEqual({ sfw: true, sketchy: false, nsfw: false });
    expect([post!.item.id, ...(post!.moreItems ?? []).map((i) => i.id)]).toEqual(['sf1']);
    const restricted = await buildPost((await store.forChannel('600000000000000002'))[0]!, clock.now(), contentDeps(wallhaven));
    expect([restricted!.item.id, ...(restricted!.moreItems ?? []).map((i) => i.id)].sort()).toEqual(['ns1', 'sf1', 'sk1']);
  });
});

describe('a Wallhaven 429', () => {
  it('pauses every poll: the next subscriptions do not reach Wallhaven', async () => {
    const fake = await startFakeWallhaven({ rateLimit: { limit: 1, windowMs: 60 * MINUTE } });
    const wallhaven = new WallhavenService({ baseUrl: fake.url, limiterFactory: createLocalLimiterFactory(), cacheFactory: createLocalCacheFactory(), limits: { minTimeMs: 5 }, requestTimeoutMs: 2_000 });
    try {
      const clock = new TestClock(START);
      const subscriptions = new Subscriptions(store, clock.now);
      for (let i = 0; i < 4; i++) await addFeed(subscriptions, `70000000000000000${i}`, false, `query${i}`);
      const scheduler = schedulerOf(clock, new RecordingPoster(clock.now), wallhaven);
      for (let t = 0; t < 2 * MINUTE; t += TICK_MS) {
        await scheduler.tick();
        clock.advance(TICK_MS);
      }
      // One answered, one 429; the other two were refused by the paused limiter without a request.
      expect(fake.requests.filter((request) => request.url.includes('/search')).length).toBe(2);
      const checked = (await Promise.all([0, 1, 2, 3].map((i) => store.forChannel(`70000000000000000${i}`)))).map((rows) => rows[0]!.next_due_at! - START);
      // A failed poll waits for its next turn, at least 30 minutes on.
      for (const due of checked) expect(due).toBeGreaterThanOrEqual(POLL_INTERVAL_MS);
    } finally {
      await wallhaven.close();
      await fake.close();
    }
  });
});

describeWithRedis('a Wallhaven 429 across a fleet', () => {
  it('pauses the polls of every process sharing Redis: the other process asks Wallhaven nothing', async () => {
    const redis = await startRedisServer();
    const fake = await startFakeWallhaven({ rateLimit: { limit: 1, windowMs: 60 * MINUTE } });
    const states: SharedState[] = [];
    const services: WallhavenService[] = [];
    try {
      // Two processes: each its own shared state on the one Redis, its own Wallhaven client and scheduler.
      const processes = await Promise.all(
        ['one', 'two'].map(async (processId) => {
          const state = await createRedisState({ url: redis.url, processId, logger: pino({ level: 'silent' }) });
          states.push(state);
          const wallhaven = new WallhavenService({ baseUrl: fake.url, limiterFactory: state.limiterFactory, cacheFactory: state.cacheFactory, limits: { minTimeMs: 5 }, requestTimeoutMs: 2_000 });
          services.push(wallhaven);
          return wallhaven;
        }),
      );
      const clock = new TestClock(START);
      const subscriptions = new Subscriptions(store, clock.now);
      for (let i = 0; i < 4; i++) await addFeed(subscriptions, `80000000000000000${i}`, false, `query${i}`);
      const [first, second] = processes.map((wallhaven) => schedulerOf(clock, new RecordingPoster(clock.now), wallhaven));
      // The first process's turns: one search answered, the next refused with a 429.
      clock.advance(7_000);
      await first!.tick();
      expect(fake.requests.filter((request) => request.url.includes('/search')).length).toBe(2);
      // The other process's turns come while the pause holds: its polls never reach Wallhaven.
      clock.advance(12_000);
      expect(await second!.tick()).toBe(2);
      expect(fake.requests.filter((request) => request.url.includes('/search')).length).toBe(2);
    } finally {
      for (const wallhaven of services) await wallhaven.close();
      for (const state of states) await state.close();
      await fake.close();
      await redis.stop();
    }
  });
});
