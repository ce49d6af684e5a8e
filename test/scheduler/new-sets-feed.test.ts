import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { CardArt } from '../../src/cards/card.js';
import { CardSetListReader, type CardSet, type RawCardSet } from '../../src/cards/card-set.js';
import { fr } from '../../src/i18n/fr.js';
import { buildPost } from '../../src/scheduler/post-content.js';
import { isRecentRelease, NewSetsFeed } from '../../src/scheduler/new-sets-feed.js';
import { Subscriptions } from '../../src/scheduler/subscriptions.js';
import { CardSetStore } from '../../src/storage/card-set-store.js';
import type { Storage } from '../../src/storage/storage.js';
import type { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';
import { fakeJpeg, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { describeFeedOnEachDialect, GUILD, RecordingPoster, schedulerFor, TestClock } from './helpers.js';

/**
 * `/subscribe new-sets` against a real database and the fake YGOPRODeck's `cardsets.php`: the first
 * list ever seen is recorded, not posted; a later list's new sets (released in the last 30 days or
 * undated) are posted once per subscribed channel with their image, across two processes and a
 * restart; a set released long ago and one first seen before the subscription are not.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 8, 0);

/** The set list as a process sees it: what the fake serves now, read over HTTP, and its load listeners. */
class ServedSets {
  private sets: CardSet[] = [];
  private readonly listeners = new Set<() => void>();
  /** Set images asked for (each stands for a download the image store would make once). */
  readonly arts: string[] = [];

  constructor(private readonly fake: FakeYgoprodeck) {}

  async download(): Promise<void> {
    const raw = (await (await fetch(`${this.fake.url}/api/v7/cardsets.php`)).json()) as unknown[];
    const reader = new CardSetListReader();
    raw.forEach((entry, index) => reader.add(entry, index));
    this.sets = reader.result().sets;
    for (const listener of this.listeners) listener();
  }

  cardSets(): readonly CardSet[] {
    return this.sets;
  }

  onCardSetsLoad(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async art(set: CardSet): Promise<CardArt | null> {
    if (set.imageStem === undefined) return null;
    this.arts.push(set.imageStem);
    const response = await fetch(`${this.fake.url}/images/sets/${set.imageStem}.jpg`);
    return response.ok ? { format: 'jpg', data: Buffer.from(await response.arrayBuffer()) } : null;
  }
}

/** One process: its set list, its feed and its scheduler, on the shared database. */
function processOn(storage: Storage, store: SubscriptionsStore, fake: FakeYgoprodeck, clock: TestClock, poster: RecordingPoster, processId: string) {
  const sets = new ServedSets(fake);
  const setStore = new CardSetStore(storage.db);
  const feed = new NewSetsFeed(setStore, sets, clock.now, pino({ level: 'silent' }));
  const { scheduler, results } = schedulerFor(store, poster, clock, {
    processId,
    content: (subscription, at) =>
      buildPost(subscription, at, {
        cards: { matchingIds: () => [], byId: () => undefined },
        wallhaven: { search: async () => ({ items: [], lastPage: 1 }) as never, nsfwAvailable: false },
        store,
        preferences: { forChannel: async (_guild, channelId) => (channelId === 'c-fr' ? { locale: 'fr' } : {}) },
        newSets: { sets: setStore, art: (set) => sets.art(set) },
      }),
  });
  feed.start();
  return { sets, feed, scheduler, results };
}

const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** Three sets the second list adds: released last week, undated, and released years ago (listed late). */
function newSets(): RawCardSet[] {
  return [
    { set_name: 'Phantom Test Booster', set_code: 'PHTB', num_of_cards: 100, tcg_date: isoDay(NOW - 7 * DAY), set_image: 'https://images.ygoprodeck.com/images/sets/PHTB.jpg' },
    { set_name: 'Undated Test Pack', set_code: 'UDTP', num_of_cards: 5 },
    { set_name: 'Ancient Test Reprint', set_code: 'ANTR', num_of_cards: 60, tcg_date: '2004-05-01', set_image: 'https://images.ygoprodeck.com/images/sets/ANTR.jpg' },
  ];
}

const titles = (post: { message: { embeds?: { title?: string }[] } }) => (post.message.embeds ?? []).map((embed) => embed.title);

describeFeedOnEachDialect('new sets', (fx) => {
  it('posts each new recent set once per channel with its image, across two processes and a restart', async () => {
    const clock = new TestClock(NOW);
    const poster = new RecordingPoster(clock.now);
    const one = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'one');
    const two = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'two');
    // The first list ever seen is the baseline: the sets already out are never announced.
    await Promise.all([one.sets.download(), two.sets.download()]);
    await Promise.all([one.feed.record(), two.feed.record()]);
    const subscriptions = new Subscriptions(fx.store, clock.now);
    for (const channelId of ['c-en', 'c-fr']) expect('added' in (await subscriptions.addNewSets({ guildId: GUILD, channelId, userId: '1' }))).toBe(true);
    clock.advance(MINUTE);
    await Promise.all([one.scheduler.tick(), two.scheduler.tick()]);
    expect(poster.posts).toEqual([]);

    fx.fake.cardSets = [...fx.fake.cardSets, ...newSets()];
    clock.advance(MINUTE);
    await Promise.all([one.sets.download(), two.sets.download()]);
    await Promise.all([one.feed.record(), two.feed.record()]);
    clock.advance(MINUTE);
    await Promise.all([one.scheduler.tick(), two.scheduler.tick()]);
    await Promise.all([one.scheduler.tick(), two.scheduler.tick()]);

    expect(poster.posts.map((post) => post.channelId).sort()).toEqual(['c-en', 'c-fr']);
    const english = poster.posts.find((post) => post.channelId === 'c-en')!;
    expect(english.message.content).toBe('**2 new card sets**');
    expect(titles(english)).toEqual(['Phantom Test Booster', 'Undated Test Pack']);
    expect(english.message.embeds![0]!.image).toEqual({ url: 'attachment://set-PHTB.jpg' });
    expect(english.message.files).toEqual([{ name: 'set-PHTB.jpg', data: fakeJpeg('sets/PHTB'), description: 'Phantom Test Booster' }]);
    expect(english.message.embeds![1]!.fields).toContainEqual({ name: 'TCG release', value: 'No TCG release date yet', inline: true });
    const french = poster.posts.find((post) => post.channelId === 'c-fr')!;
    expect(french.message.content).toBe(`**${fr.subscribe.newSets(2)}**`);
    expect(french.message.embeds![0]!.fields!.map((field) => field.name)).toEqual([fr.subscribe.setCode, fr.subscribe.tcgRelease, fr.subscribe.setCards]);
    // The set released years ago and listed only now is never asked for.
    expect([...one.sets.arts, ...two.sets.arts]).not.toContain('ANTR');

    // A restart: a new process loads the same list (from disk); nothing more is posted.
    await Promise.all([one.feed.stop(), two.feed.stop()]);
    const restarted = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'three');
    await restarted.sets.download();
    await restarted.feed.record();
    clock.advance(10 * MINUTE);
    await restarted.scheduler.tick();
    await restarted.feed.stop();
    expect(poster.posts).toHaveLength(2);
  });

  it('does not announce to a channel the sets listed before it subscribed, nor anything for an unchanged list', async () => {
    const clock = new TestClock(NOW);
    const poster = new RecordingPoster(clock.now);
    const { sets, feed, scheduler, results } = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'one');
    await sets.download();
    await feed.record();
    fx.fake.cardSets = [...fx.fake.cardSets, ...newSets()];
    clock.advance(MINUTE);
    await sets.download();
    await feed.record();
    // Subscribed after the sets arrived: they are not news to this channel.
    clock.advance(MINUTE);
    await new Subscriptions(fx.store, clock.now).addNewSets({ guildId: GUILD, channelId: 'c-late', userId: '1' });
    clock.advance(MINUTE);
    await sets.download();
    await feed.record();
    await scheduler.tick();
    expect(poster.posts).toEqual([]);
    expect(results).toEqual([]);
    // The next new set is posted there, alone.
    fx.fake.cardSets = [...fx.fake.cardSets, { set_name: 'Later Test Deck', set_code: 'LTDK', tcg_date: isoDay(NOW), set_image: 'https://images.ygoprodeck.com/images/sets/LTDK.jpg' }];
    clock.advance(DAY);
    await sets.download();
    await feed.record();
    await scheduler.tick();
    expect(poster.posts.map(titles)).toEqual([['Later Test Deck']]);
    await feed.stop();
  });
});

describe('isRecentRelease', () => {
  it('announces sets released in the last 30 days, in the future, or undated', () => {
    expect(isRecentRelease({ tcgDate: isoDay(NOW - 29 * DAY) }, NOW)).toBe(true);
    expect(isRecentRelease({ tcgDate: isoDay(NOW + 40 * DAY) }, NOW)).toBe(true);
    expect(isRecentRelease({}, NOW)).toBe(true);
    expect(isRecentRelease({ tcgDate: isoDay(NOW - 31 * DAY) }, NOW)).toBe(false);
  });
});
