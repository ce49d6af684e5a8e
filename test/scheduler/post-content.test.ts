import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { buildPost, WALLPAPER_NO_REPEAT_MS, type PostContentDeps } from '../../src/scheduler/post-content.js';
import type { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';
import type { WallpaperSearch } from '../../src/wallpaper/search.js';
import type { WallpaperPage } from '../../src/wallpaper/wallpaper.js';
import { item } from '../helpers/wallpaper-fixtures.js';
import { dumpCard } from '../helpers/command-contexts.js';
import { GUILD, LIMITS, openTestStorage, subscribe } from './helpers.js';

/**
 * What a daily post shows: card of the day repeats no card in its channel until the filters' pool is
 * exhausted; wallpaper of the day is the best of the 1-day toplist not posted there in 90 days,
 * within the channel's purity and the settings' ceiling, in the channel's language.
 */

const NOW = Date.UTC(2026, 5, 1, 9);
const DAY = 86_400_000;
const POOL = [89631139, 46986414, 55144522];

let store: SubscriptionsStore;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ store, close } = await openTestStorage('sqlite'));
});
afterEach(() => close());

function deps(searches: WallpaperSearch[] = [], toplist: string[] = ['top1', 'top2']): PostContentDeps {
  const cards = new Map<number, Card>(POOL.map((id) => [id, dumpCard(id)]));
  return {
    cards: { matchingIds: () => POOL, byId: (id: number) => cards.get(id) },
    wallhaven: {
      nsfwAvailable: true,
      search: async (search: WallpaperSearch): Promise<WallpaperPage> => {
        searches.push(search);
        return { items: search.page === 1 ? toplist.map((id) => item(id)) : [], page: search.page, lastPage: 1, total: toplist.length, perPage: 24, seed: null, query: null };
      },
    },
    store,
    preferences: { forChannel: async () => ({}) },
    random: () => 0,
  };
}

describe('card of the day', () => {
  it('posts every card of the pool once before any comes back, then the one posted longest ago', async () => {
    const subscription = await subscribe(store, '09:00', 'UTC', NOW);
    const posted: string[] = [];
    for (let day = 0; day < 4; day++) {
      const post = (await buildPost(subscription, NOW + day * DAY, deps()))!;
      await store.recordPosted(GUILD, subscription.channel_id, 'card', post.item.id, NOW + day * DAY);
      posted.push(post.item.id);
      expect(post.message.content).toBe('**Card of the day**');
    }
    expect(new Set(posted.slice(0, 3))).toEqual(new Set(POOL.map(String)));
    expect(posted[3]).toBe(posted[0]);
  });
});

async function wallpaperSubscription(channelId: string, ageRestricted: boolean) {
  const options = JSON.stringify({ ageRestricted });
  const result = await store.add({ guildId: GUILD, channelId, kind: 'wallpaper-of-the-day', options, timeOfDay: '09:00', timeZone: 'UTC', nextDueAt: NOW, createdBy: '1' }, LIMITS, NOW);
  if (!('added' in result)) throw new Error('not added');
  return result.added;
}

describe('wallpaper of the day', () => {
  it('asks for the 1-day toplist within the channel’s purity, and skips what the channel got in 90 days', async () => {
    const row = { added: await wallpaperSubscription('c-wall', false) };
    const searches: WallpaperSearch[] = [];
    await store.recordPosted(GUILD, 'c-wall', 'wallpaper', 'top1', NOW - 10 * DAY);
    const post = (await buildPost(row.added, NOW, deps(searches)))!;
    expect(post.item).toEqual({ kind: 'wallpaper', id: 'top2' });
    expect(searches[0]).toMatchObject({ sorting: 'toplist', topRange: '1d', purity: { sfw: true, sketchy: false, nsfw: false } });
    expect(post.message.embeds![0]!.description).toBe('Wallpaper of the day: the best of Wallhaven’s last day');
    // Posted 91 days ago: it may come again.
    await store.recordPosted(GUILD, 'c-wall', 'wallpaper', 'top1', NOW - WALLPAPER_NO_REPEAT_MS - DAY);
    expect((await buildPost(row.added, NOW, deps()))!.item.id).toBe('top1');
  });

  it('goes up to what an age-restricted channel allows, narrowed by the settings’ ceiling, in the channel’s language', async () => {
    const row = { added: await wallpaperSubscription('c-nsfw', true) };
    const open: WallpaperSearch[] = [];
    await buildPost(row.added, NOW, deps(open));
    expect(open[0]!.purity).toEqual({ sfw: true, sketchy: true, nsfw: true });
    const narrowed: WallpaperSearch[] = [];
    const post = await buildPost(row.added, NOW, { ...deps(narrowed), preferences: { forChannel: async () => ({ purityCeiling: 'sketchy', locale: 'de' }) } });
    expect(narrowed[0]!.purity).toEqual({ sfw: true, sketchy: true, nsfw: false });
    expect(post!.message.embeds![0]!.description).toBe('Hintergrundbild des Tages: das beste von Wallhaven des letzten Tages');
  });
});
