import type { Kysely } from 'kysely';
import type { BanlistEntry, BanlistVersion, DeckCopies } from '../cards/banlist.js';
import type { Database } from './schema.js';

/** One format's list at one card database version, with its digest. */
export interface StoredBanlist extends BanlistVersion {
  digest: string;
}

/** A deck kept for the ban-list check. */
export interface StoredDeck {
  cards: DeckCopies;
  shownAt: number;
}

/** The options a ban-list subscription stores: its format, as the subscriptions' update matches it. */
export function banlistOptions(format: string): string {
  return JSON.stringify({ format });
}

/**
 * Ban-list history and the decks shown in channels that follow it, on both dialects. Recording a
 * version is one insert only one process of a fleet wins; the winner, in the same transaction,
 * makes the format's subscriptions due when the list differs from the previous one, so that each
 * channel's post is claimed once by the scheduler like any other occurrence.
 */
export class BanlistStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores `entries` as `format`'s list at `version` unless it is stored already. Returns whether
   * the list changed against the previous version (the subscriptions of that format are then due
   * at `now`); false for a version already seen, and for the first list ever seen.
   */
  async record(format: string, version: string, digest: string, entries: readonly BanlistEntry[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const previous = await trx
        .selectFrom('banlist_versions')
        .select(['version', 'digest'])
        .where('format', '=', format)
        .orderBy('recorded_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      const inserted = await trx
        .insertInto('banlist_versions')
        .values({ format, version, recorded_at: now, digest, entries: JSON.stringify(entries) })
        .onConflict((conflict) => conflict.columns(['format', 'version']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      if (previous === undefined || previous.digest === digest) return false;
      await trx
        .updateTable('subscriptions')
        .set({ next_due_at: now })
        .where('kind', '=', 'banlist')
        .where('options', '=', banlistOptions(format))
        .where('paused_at', 'is', null)
        .execute();
      return true;
    });
  }

  /** The formats whose lists of `version` are recorded already. */
  async formatsRecorded(version: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('banlist_versions').select('format').where('version', '=', version).execute();
    return new Set(rows.map((row) => row.format));
  }

  /** `format`'s latest list, or undefined before one was recorded. */
  async latest(format: string): Promise<StoredBanlist | undefined> {
    const row = await this.db.selectFrom('banlist_versions').selectAll().where('format', '=', format).orderBy('recorded_at', 'desc').limit(1).executeTakeFirst();
    return row === undefined ? undefined : storedOf(row);
  }

  /** The most recent list of `format` before `latest` whose list differs from it. */
  async previousDiffering(latest: StoredBanlist): Promise<StoredBanlist | undefined> {
    const row = await this.db
      .selectFrom('banlist_versions')
      .selectAll()
      .where('format', '=', latest.format)
      .where('digest', '!=', latest.digest)
      .where('recorded_at', '<=', latest.recordedAt)
      .orderBy('recorded_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : storedOf(row);
  }

  /** When `format`'s first list was recorded (since when Almanac keeps them), or undefined. */
  async firstRecordedAt(format: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('banlist_versions').select('recorded_at').where('format', '=', format).orderBy('recorded_at').limit(1).executeTakeFirst();
    return row?.recorded_at;
  }

  /** Whether the channel follows any ban list (only then are its decks kept). */
  async followsBanlist(channelId: string): Promise<boolean> {
    const row = await this.db.selectFrom('subscriptions').select('id').where('channel_id', '=', channelId).where('kind', '=', 'banlist').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Keeps a deck shown in the channel (the same deck again only gets its new time). */
  async recordDeck(guildId: string, channelId: string, cards: DeckCopies, now: number): Promise<void> {
    const key = Object.keys(cards)
      .sort()
      .map((id) => `${id}x${cards[id]}`)
      .join(',');
    await this.db
      .insertInto('channel_decks')
      .values({ guild_id: guildId, channel_id: channelId, deck_key: key, cards: JSON.stringify(cards), shown_at: now })
      .onConflict((conflict) => conflict.columns(['channel_id', 'deck_key']).doUpdateSet({ shown_at: now }))
      .execute();
  }

  /** The channel's decks shown since `since`, the most recent first. */
  async decksSince(channelId: string, since: number): Promise<StoredDeck[]> {
    const rows = await this.db.selectFrom('channel_decks').select(['cards', 'shown_at']).where('channel_id', '=', channelId).where('shown_at', '>=', since).orderBy('shown_at', 'desc').execute();
    return rows.map((row) => ({ cards: JSON.parse(row.cards) as DeckCopies, shownAt: row.shown_at }));
  }
}

function storedOf(row: { format: string; version: string; recorded_at: number; digest: string; entries: string }): StoredBanlist {
  return { format: row.format, version: row.version, recordedAt: row.recorded_at, digest: row.digest, entries: JSON.parse(row.entries) as BanlistEntry[] };
}
