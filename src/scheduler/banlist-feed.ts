import type { Logger } from 'pino';
import {
  banlistsOf,
  BANLIST_FORMATS,
  changesBetween,
  digestOf,
  genesysListOf,
  LIST_FORMATS,
  type BanlistChange,
  type BanlistEntry,
  type DeckCopies,
  type ListFormat,
} from '../cards/banlist.js';
import type { CardService } from '../services/ygoprodeck/cards.js';
import type { BanlistStore, StoredBanlist, StoredDeck } from '../storage/banlist-store.js';

/** Decks shown in a channel are checked against a new list for this long, then pruned (by the scheduler's housekeeping). */
export const DECK_RETENTION_MS = 90 * 86_400_000;

/** A format's current list, as `/card banlist` shows it. */
export type BanlistNow = { kind: 'none' } | { kind: 'list'; list: StoredBanlist };

/** What changed in a format's list: against the previous list that differed, or since when lists are kept. */
export type BanlistHistory =
  | { kind: 'none' }
  | { kind: 'keeping-since'; since: number; list: StoredBanlist }
  | { kind: 'changes'; before: StoredBanlist; after: StoredBanlist; changes: BanlistChange[] };

type FeedCards = Pick<CardService, 'databaseVersion' | 'onDatabaseReload' | 'banlistedCards' | 'genesysVersion' | 'genesysPool' | 'onGenesysReload'>;

/**
 * Ban-list history (YGOPRODeck keeps none): each card database version put in use records every
 * format's list (Genesys's once that version's points are in use: they download after the
 * cards), and a list that differs from the previous one makes that format's subscriptions
 * due (BanlistStore.record, once across a fleet). Also keeps the decks shown in channels that
 * follow a list, so the post can say which of them the change makes illegal.
 */
export class BanlistFeed {
  private unsubscribe: (() => void)[] = [];
  private recording: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: BanlistStore,
    private readonly cards: FeedCards,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  /** Records the version in use now (if any) and each one put in use later. */
  start(): void {
    this.unsubscribe = [
      this.cards.onDatabaseReload((version) => void this.record(version)),
      this.cards.onGenesysReload((version) => void this.record(version)),
    ];
    const versions = new Set([this.cards.databaseVersion, this.cards.genesysVersion]);
    for (const version of versions) if (version !== null) void this.record(version);
  }

  /** Stops recording, and waits for a recording under way. */
  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    await this.recording;
  }

  /** Records `version`'s lists (one recording at a time, in the order versions arrive); resolves when done. */
  record(version: string): Promise<void> {
    this.recording = this.recording.then(() =>
      this.recordNow(version).catch((error: unknown) => this.logger.error({ err: error, version }, 'ban-list history: recording a card database version failed')),
    );
    return this.recording;
  }

  private async recordNow(version: string): Promise<void> {
    // Only what is in use at that version: the cards' lists, and Genesys's when its points are of it too.
    const inUse = LIST_FORMATS.filter((format) => (format === 'genesys' ? this.cards.genesysVersion : this.cards.databaseVersion) === version);
    // A restart on a version already kept (most starts) reads no card at all.
    const recorded = await this.store.formatsRecorded(version);
    const due = inUse.filter((format) => !recorded.has(format));
    if (due.length === 0) return;
    const lists = this.listsOf(due);
    const now = this.now();
    const changed: ListFormat[] = [];
    for (const format of due) {
      const entries = lists.get(format);
      if (entries !== undefined && (await this.store.record(format, version, digestOf(entries), entries, now))) changed.push(format);
    }
    this.logger.info({ version, changed }, changed.length === 0 ? `ban-list history: version ${version} recorded` : `ban-list history: version ${version} changes ${changed.join(', ')}`);
  }

  /** The lists of `formats` as the cards in use have them; the ban lists read the cards only when one of them is asked. */
  private listsOf(formats: readonly ListFormat[]): Map<ListFormat, BanlistEntry[]> {
    const lists = new Map<ListFormat, BanlistEntry[]>();
    const banlists = formats.some((format) => format !== 'genesys') ? banlistsOf(this.cards.banlistedCards()) : undefined;
    for (const format of BANLIST_FORMATS) if (banlists !== undefined && formats.includes(format)) lists.set(format, banlists[format]);
    const pool = this.cards.genesysPool();
    if (pool !== null && formats.includes('genesys')) lists.set('genesys', genesysListOf(pool));
    return lists;
  }

  /** A format's latest list. */
  async current(format: string): Promise<BanlistNow> {
    const list = await this.store.latest(format);
    return list === undefined ? { kind: 'none' } : { kind: 'list', list };
  }

  /** What changed in a format's latest list against the previous list that differed. */
  async history(format: string): Promise<BanlistHistory> {
    const after = await this.store.latest(format);
    if (after === undefined) return { kind: 'none' };
    const before = await this.store.previousDiffering(after);
    if (before === undefined) return { kind: 'keeping-since', since: (await this.store.firstRecordedAt(format)) ?? after.recordedAt, list: after };
    return { kind: 'changes', before, after, changes: changesBetween(before.entries, after.entries) };
  }

  /** Keeps a deck shown in a server channel, when that channel follows a ban list (nothing is kept elsewhere). */
  async deckShown(guildId: string, channelId: string, cards: DeckCopies): Promise<void> {
    if (Object.keys(cards).length === 0 || !(await this.store.followsBanlist(channelId))) return;
    await this.store.recordDeck(guildId, channelId, cards, this.now());
  }

  /** The channel's decks of the last 90 days. */
  recentDecks(channelId: string, now: number): Promise<StoredDeck[]> {
    return this.store.decksSince(channelId, now - DECK_RETENTION_MS);
  }
}
