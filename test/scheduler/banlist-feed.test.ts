import pino from 'pino';
import { expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import type { RawCard } from '../../src/cards/normalise-card.js';
import { deckCopiesOf } from '../../src/cards/banlist.js';
import { normaliseCards } from '../../src/cards/normalise-card.js';
import { GenesysPool } from '../../src/cards/genesys.js';
import { parseGenesysBody } from '../../src/services/ygoprodeck/ygoprodeck-answers.js';
import type { MessagePayload } from '../../src/interaction/reply.js';
import { BanlistFeed } from '../../src/scheduler/banlist-feed.js';
import { buildPost } from '../../src/scheduler/post-content.js';
import { NO_PREFERENCES } from '../../src/scheduler/channel-preferences.js';
import { Subscriptions } from '../../src/scheduler/subscriptions.js';
import { BanlistStore } from '../../src/storage/banlist-store.js';
import type { Storage } from '../../src/storage/storage.js';
import type { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';
import type { FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { describeFeedOnEachDialect, GUILD, RecordingPoster, schedulerFor, TestClock } from './helpers.js';

/**
 * Ban-list history and `/subscribe banlist` against a real database and the fake YGOPRODeck
 * serving two database versions whose lists differ (a card Limited → Forbidden in TCG only, a
 * card off the TCG list): one post per subscribed channel and format, once across two
 * processes (two feeds and schedulers on one database) and a restart; a deck shown earlier in
 * the channel flagged with the card that does it; nothing for the unchanged formats.
 */

const MINUTE = 60_000;

/** The card database as a process sees it: what the fake serves now, read over HTTP, and its reload listeners. */
class ServedCards {
  databaseVersion: string | null = null;
  genesysVersion: string | null = null;
  private cards: Card[] = [];
  private pool: GenesysPool | null = null;
  private readonly listeners = new Set<(version: string) => void>();
  private readonly genesysListeners = new Set<(version: string) => void>();

  constructor(private readonly fake: FakeYgoprodeck) {}

  /** Downloads the version the fake serves and puts it in use, as CardDatabase does. */
  async download(): Promise<void> {
    const [{ database_version: version }] = (await (await fetch(`${this.fake.url}/api/v7/checkDBVer.php`)).json()) as [{ database_version: string }];
    const body = (await (await fetch(`${this.fake.url}/api/v7/cardinfo.php`)).json()) as { data: unknown[] };
    this.cards = normaliseCards(body.data).cards;
    this.databaseVersion = version;
    for (const listener of this.listeners) listener(version);
    // Then the Genesys pool, as CardDatabase downloads it after the cards.
    const pool = Buffer.from(await (await fetch(`${this.fake.url}/api/v7/cardinfo.php?format=genesys&misc=yes`)).arrayBuffer());
    this.pool = new GenesysPool(parseGenesysBody(pool).entries);
    this.genesysVersion = version;
    for (const listener of this.genesysListeners) listener(version);
  }

  genesysPool(): GenesysPool | null {
    return this.pool;
  }

  onGenesysReload(listener: (version: string) => void): () => void {
    this.genesysListeners.add(listener);
    return () => this.genesysListeners.delete(listener);
  }

  onDatabaseReload(listener: (version: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many times the feed read the cards (once per version it had not recorded). */
  reads = 0;

  banlistedCards(): Card[] {
    this.reads++;
    return this.cards;
  }

  byId(id: number): Card | undefined {
    return this.cards.find((card) => card.id === id);
  }
}

/** One process: its view of the card database, its ban-list feed and its scheduler, on the shared database. */
function processOn(storage: Storage, store: SubscriptionsStore, fake: FakeYgoprodeck, clock: TestClock, poster: RecordingPoster, processId: string) {
  const cards = new ServedCards(fake);
  const feed = new BanlistFeed(new BanlistStore(storage.db), cards, clock.now, pino({ level: 'silent' }));
  const { scheduler } = schedulerFor(store, poster, clock, {
    processId,
    content: (subscription, at) =>
      buildPost(subscription, at, { cards: { matchingIds: () => [], byId: () => undefined }, wallhaven: { search: async () => ({ items: [], lastPage: 1 }) as never, nsfwAvailable: false }, store, preferences: NO_PREFERENCES, banlists: feed }),
  });
  feed.start();
  return { cards, feed, scheduler };
}

/** The first version served: a card Limited in TCG and OCG, a card Forbidden in TCG, and a card at 20 Genesys points. */
function firstVersion(fake: FakeYgoprodeck): { limited: RawCard; leaving: RawCard; pointed: RawCard } {
  const leaving = fake.cards.find((card) => card.banlist_info?.ban_tcg === 'Forbidden')!;
  const unlisted = fake.cards.find((card) => card.banlist_info === undefined && card.type.includes('Monster'))!;
  const pointed = fake.cards.find((card) => card.frameType === 'spell' && fake.genesysPoints[card.name] === undefined)!;
  fake.serveBanlistChange('1.00', { [unlisted.id]: { tcg: 'Limited', ocg: 'Limited' } });
  fake.genesysPoints = { [pointed.name]: 20 };
  return { limited: fake.cards.find((card) => card.id === unlisted.id)!, leaving, pointed };
}

/** The post's words: its embeds' titles, descriptions and fields. */
const text = (message: MessagePayload): string =>
  (message.embeds ?? []).flatMap((embed) => [embed.title, embed.description, ...(embed.fields ?? []).flatMap((field) => [field.name, field.value])]).join('\n');

describeFeedOnEachDialect('ban-list history', (fx) => {
  it('posts each change once per channel and format across two processes and a restart, flagging a deck shown there', async () => {
    const clock = new TestClock(Date.UTC(2026, 5, 1, 8, 0));
    const poster = new RecordingPoster(clock.now);
    const { limited, leaving, pointed } = firstVersion(fx.fake);
    const one = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'one');
    const two = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'two');
    await Promise.all([one.cards.download(), two.cards.download()]);
    await Promise.all([one.feed.record('1.00'), two.feed.record('1.00')]);

    const subscriptions = new Subscriptions(fx.store, clock.now);
    for (const [channelId, format] of [['c-tcg', 'tcg'], ['c-tcg-2', 'tcg'], ['c-ocg', 'ocg'], ['c-genesys', 'genesys']] as const) {
      expect('added' in (await subscriptions.addBanlist({ guildId: GUILD, channelId, userId: '1', format }))).toBe(true);
    }
    // A deck with the Limited card once, shown in the first channel, and one elsewhere (no ban-list subscription: not kept).
    const deck = deckCopiesOf([limited.id, limited.id === 1 ? 2 : 1], (id) => one.cards.byId(id)?.id);
    await one.feed.deckShown(GUILD, 'c-tcg', deck);
    await one.feed.deckShown(GUILD, 'c-none', deck);
    // Three copies of the pointed card: 60 Genesys points now, 150 after the change.
    await one.feed.deckShown(GUILD, 'c-genesys', deckCopiesOf([pointed.id, pointed.id, pointed.id], (id) => one.cards.byId(id)?.id));
    // The first list seen after subscribing is recorded, not posted.
    await one.scheduler.tick();
    expect(poster.posts).toEqual([]);

    fx.fake.serveBanlistChange('1.01', { [limited.id]: { tcg: 'Forbidden' }, [leaving.id]: { tcg: null } });
    fx.fake.serveGenesysChange('1.01', { [pointed.name]: 50 });
    clock.advance(MINUTE);
    await Promise.all([one.cards.download(), two.cards.download()]);
    await Promise.all([one.feed.record('1.01'), two.feed.record('1.01')]);
    clock.advance(MINUTE);
    await Promise.all([one.scheduler.tick(), two.scheduler.tick()]);
    await Promise.all([one.scheduler.tick(), two.scheduler.tick()]);

    expect(poster.posts.map((post) => post.channelId).sort()).toEqual(['c-genesys', 'c-tcg', 'c-tcg-2']);
    const genesysPost = text(poster.posts.find((entry) => entry.channelId === 'c-genesys')!.message);
    expect(genesysPost).toContain('The Genesys ban list changed');
    expect(genesysPost).toContain(`Points changed\n- ${pointed.name}: 20 → 50 points`);
    expect(genesysPost).toContain(`150 / 100 points: 3× ${pointed.name} (now 50 points)`);
    const post = text(poster.posts.find((entry) => entry.channelId === 'c-tcg')!.message);
    expect(post).toContain('The TCG ban list changed');
    expect(post).toContain('Newly Forbidden');
    expect(post).toContain(`${limited.name} (was Limited)`);
    expect(post).toContain('No longer limited');
    expect(post).toContain(`${leaving.name} (was Forbidden)`);
    expect(post).toContain(`1× ${limited.name} (now Forbidden)`);
    expect(text(poster.posts.find((entry) => entry.channelId === 'c-tcg-2')!.message)).not.toContain('Decks shown here');

    // A restart: new processes load the same version again (a snapshot); nothing more is posted.
    await Promise.all([one.feed.stop(), two.feed.stop()]);
    const restarted = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'three');
    await restarted.cards.download();
    await restarted.feed.record('1.01');
    clock.advance(10 * MINUTE);
    await restarted.scheduler.tick();
    await restarted.feed.stop();
    expect(poster.posts).toHaveLength(3);
    // A version recorded already is not read again: a restart reads no card.
    expect(restarted.cards.reads).toBe(0);
  });

  it('tries a ban-list post again 10 minutes after Discord failed it, and posts it once', async () => {
    const clock = new TestClock(Date.UTC(2026, 5, 1, 8, 0));
    const poster = new RecordingPoster(clock.now);
    const { limited } = firstVersion(fx.fake);
    const { cards, feed, scheduler } = processOn(fx.storage, fx.store, fx.fake, clock, poster, 'one');
    await cards.download();
    await feed.record('1.00');
    await new Subscriptions(fx.store, clock.now).addBanlist({ guildId: GUILD, channelId: 'c-tcg', userId: '1', format: 'tcg' });
    fx.fake.serveBanlistChange('1.01', { [limited.id]: { tcg: 'Forbidden' } });
    await cards.download();
    await feed.record('1.01');
    poster.refusing.set('c-tcg', { ok: false, status: 503, error: 'HTTP 503' });
    await scheduler.tick();
    expect(poster.posts).toEqual([]);
    poster.refusing.delete('c-tcg');
    clock.advance(5 * MINUTE);
    await scheduler.tick();
    expect(poster.posts).toEqual([]);
    clock.advance(5 * MINUTE);
    await scheduler.tick();
    await scheduler.tick();
    expect(poster.posts.map((post) => post.channelId)).toEqual(['c-tcg']);
    await feed.stop();
  });

  it('shows the current list and, until a second list is seen, since when it keeps them; then the changes with their versions', async () => {
    const clock = new TestClock(Date.UTC(2026, 5, 1, 8, 0));
    const { limited } = firstVersion(fx.fake);
    const { cards, feed } = processOn(fx.storage, fx.store, fx.fake, clock, new RecordingPoster(clock.now), 'one');
    expect(await feed.current('tcg')).toEqual({ kind: 'none' });
    await cards.download();
    await feed.record('1.00');
    const current = await feed.current('tcg');
    expect(current.kind === 'list' && current.list.entries.length).toBeGreaterThan(0);
    expect(await feed.history('tcg')).toMatchObject({ kind: 'keeping-since', since: clock.time });
    fx.fake.serveBanlistChange('1.01', { [limited.id]: { tcg: 'Forbidden' } });
    clock.advance(MINUTE);
    await cards.download();
    await feed.record('1.01');
    // A third version with the same list: the changes are still against 1.00, the last list that differed.
    fx.fake.serveBanlistChange('1.02', {});
    clock.advance(MINUTE);
    await cards.download();
    await feed.record('1.02');
    const history = await feed.history('tcg');
    expect(history.kind === 'changes' && [history.before.version, history.after.version, history.changes.map((change) => [change.name, change.from, change.to])]).toEqual([
      '1.00',
      '1.02',
      [[limited.name, 'Limited', 'Forbidden']],
    ]);
    expect(await feed.history('ocg')).toMatchObject({ kind: 'keeping-since' });
    await feed.stop();
  });

  it('keeps Genesys points per version: the pointed cards dearest first, and a change as "points a → b", a card leaving at 0', async () => {
    const clock = new TestClock(Date.UTC(2026, 5, 1, 8, 0));
    const { pointed } = firstVersion(fx.fake);
    // Named so that, by name, the spell comes first ("A" Cell Breeding Device, then Maliss C GWC-06).
    const other = fx.fake.cards.find((card) => card.frameType === 'trap' && card.name.localeCompare(pointed.name, 'en') > 0)!;
    fx.fake.genesysPoints = { [pointed.name]: 20, [other.name]: 33 };
    const { cards, feed } = processOn(fx.storage, fx.store, fx.fake, clock, new RecordingPoster(clock.now), 'one');
    await cards.download();
    await feed.record('1.00');
    const current = await feed.current('genesys');
    expect(current.kind === 'list' && current.list.entries).toEqual([
      { id: other.id, name: other.name, points: 33 },
      { id: pointed.id, name: pointed.name, points: 20 },
    ]);
    fx.fake.serveGenesysChange('1.01', { [pointed.name]: 50, [other.name]: 0 });
    clock.advance(MINUTE);
    await cards.download();
    await feed.record('1.01');
    const history = await feed.history('genesys');
    expect(history.kind === 'changes' && history.changes.map((change) => [change.name, change.points])).toEqual([
      [pointed.name, { from: 20, to: 50 }],
      [other.name, { from: 33, to: 0 }],
    ]);
    await feed.stop();
  });
});
