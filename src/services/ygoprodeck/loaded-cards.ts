import type { BanlistedCard } from '../../cards/banlist.js';
import { isCard, type Card } from '../../cards/card.js';
import { setNameKey } from '../../cards/card-set.js';
import { summarizeCard, type CardSummary } from '../../cards/card-summary.js';
import { CompactRecords } from '../../cards/compact-records.js';
import type { SnapshotHeader } from './card-snapshot.js';
import { inSlices } from '../../upstream/slices.js';

/**
 * One loaded English card set, read by passcode, name and set: its cards compact (parsed on
 * demand), and only what every keystroke needs (summaries and lookups) live.
 */

export interface LoadedCards {
  records: CompactRecords<Card>;
  summaries: readonly CardSummary[];
  /** Passcode (alternate-art ids included) → record index. */
  indexById: ReadonlyMap<number, number>;
  /** Lowercase name → record index. */
  indexByName: ReadonlyMap<string, number>;
  /** `setNameKey` of a set name → the record indexes of the cards printed in it. */
  indexesBySet: ReadonlyMap<string, readonly number[]>;
  /** False when no card lists a format (a dump saved without `misc=yes`): a format filter cannot be answered. */
  knowsFormats: boolean;
  version: string;
  /** The `CARD_FORMAT_VERSION` its cards were normalised with: an older one is downloaded again. */
  cardFormat: number;
  downloadedAt: number;
  loadedAt: number;
  /** Cards of the download that failed validation and were left out. */
  skipped: number;
}

export type CardLookups = Pick<LoadedCards, 'summaries' | 'indexById' | 'indexByName' | 'indexesBySet' | 'knowsFormats'>;

/** The live parts of a card set, built one card at a time (so a load never needs every card as objects at once). */
class CardLookupsBuilder {
  private readonly interned = new Map<string, string>();
  private readonly internedFormats = new Map<string, string[]>();
  private knowsFormats = false;
  private readonly summaries: CardSummary[] = [];
  private readonly indexById = new Map<number, number>();
  private readonly indexByName = new Map<string, number>();
  private readonly indexesBySet = new Map<string, number[]>();
  /** Alternate-art ids and their card's index, in pairs: applied last, as they never shadow a passcode. */
  private readonly alternateArts: number[] = [];

  add(card: Card, index: number): void {
    this.summaries[index] = summarizeCard(card, this.interned, this.internedFormats);
    if (card.formats.length > 0) this.knowsFormats = true;
    this.indexById.set(card.id, index);
    this.indexByName.set(card.name.toLowerCase(), index);
    for (const setName of new Set(card.sets.map((printing) => setNameKey(printing.setName)))) {
      let members = this.indexesBySet.get(setName);
      if (members === undefined) this.indexesBySet.set(setName, (members = []));
      members.push(index);
    }
    for (const imageId of card.imageIds) if (imageId !== card.id) this.alternateArts.push(imageId, index);
  }

  build(): CardLookups {
    for (let at = 0; at < this.alternateArts.length; at += 2) {
      const imageId = this.alternateArts[at]!;
      if (!this.indexById.has(imageId)) this.indexById.set(imageId, this.alternateArts[at + 1]!);
    }
    return {
      summaries: this.summaries,
      indexById: this.indexById,
      indexByName: this.indexByName,
      indexesBySet: this.indexesBySet,
      knowsFormats: this.knowsFormats,
    };
  }
}

export function cardById(set: LoadedCards, id: number): Card | undefined {
  const index = set.indexById.get(id);
  return index === undefined ? undefined : set.records.get(index);
}

export function summaryById(set: LoadedCards, id: number): CardSummary | undefined {
  const index = set.indexById.get(id);
  return index === undefined ? undefined : set.summaries[index];
}

/** By exact name, ignoring case. */
export function cardByName(set: LoadedCards, name: string): Card | undefined {
  const index = set.indexByName.get(name.trim().toLowerCase());
  return index === undefined ? undefined : set.records.get(index);
}

/** The cards printed in the set named `setName`, parsed for the caller and not kept in the LRU. */
export function cardsInSet(set: LoadedCards, setName: string): Card[] {
  const indexes = set.indexesBySet.get(setNameKey(setName)) ?? [];
  return indexes.map((index) => set.records.read(index));
}

/** The cards on any ban list, as a list needs them: from the summaries, so no record is read. */
export function banlistedCards(set: LoadedCards): BanlistedCard[] {
  return set.summaries.filter((summary) => Object.keys(summary.banlist).length > 0).map(({ id, name, banlist }) => ({ id, name, banlist }));
}

/**
 * A uniformly random card (`random()` in [0, 1)) whose id is not in `exclude` and whose summary
 * `accept`s (every card when absent), or undefined when none is left.
 */
export function randomCard(
  set: LoadedCards,
  random: () => number,
  exclude?: ReadonlySet<number>,
  accept?: (summary: CardSummary) => boolean,
): Card | undefined {
  const summaries = set.summaries;
  const pick = (indexes: readonly number[] | null): number | undefined => {
    const length = indexes?.length ?? summaries.length;
    if (length === 0) return undefined;
    const at = Math.floor(random() * length);
    return indexes === null ? at : indexes[at];
  };
  // Rejection sampling is enough while few cards are excluded; filter only when it keeps missing.
  // A filter may keep a handful of cards out of 13,000: then the scan is cheaper than guessing.
  for (let attempt = 0; accept === undefined && attempt < 16; attempt++) {
    const index = pick(null);
    if (index !== undefined && !exclude?.has(summaries[index]!.id)) return set.records.get(index);
  }
  const allowed = summaries.flatMap((summary, index) => (exclude?.has(summary.id) || (accept !== undefined && !accept(summary)) ? [] : [index]));
  const index = pick(allowed);
  return index === undefined ? undefined : set.records.get(index);
}

/**
 * A snapshot's cards, compact, with their lookups. Each card is parsed once here, for its summary
 * and lookups, and dropped at once: a load never holds the whole database as objects.
 */
export function parseCards(body: Buffer): { records: CompactRecords<Card>; lookups: CardLookups } {
  const lookups = new CardLookupsBuilder();
  const records = CompactRecords.parse(body, (record, index): record is Card => {
    if (!isCard(record)) return false;
    lookups.add(record, index);
    return true;
  });
  return { records, lookups: lookups.build() };
}

/**
 * The lookups of a download's cards, compact (`CompactRecords.written`): each card is parsed once,
 * for its summary and lookups, and dropped, in slices with the event loop free between them (all
 * 13,000 cards take a few hundred ms, which in one go held up every interaction).
 */
export async function lookupsOfRecords(records: CompactRecords<Card>): Promise<CardLookups> {
  const lookups = new CardLookupsBuilder();
  await inSlices(records.length, (index) => lookups.add(records.read(index), index));
  return lookups.build();
}

/** `records` as the current card set, with the lookups built from the same cards. */
export function loadedCards(records: CompactRecords<Card>, lookups: CardLookups, header: SnapshotHeader, loadedAt: number): LoadedCards {
  return {
    records,
    ...lookups,
    version: header.databaseVersion,
    cardFormat: header.cardFormat,
    downloadedAt: header.downloadedAt,
    loadedAt,
    skipped: header.skippedCards,
  };
}
