import type { CardLanguage } from '../../cards/card.js';
import type { LocalizedCardNames } from '../../cards/localized-names.js';
import type { MatchableCard, MatcherTables } from '../../cards/matcher-tables.js';
import { packStrings, unpackStrings, type PackedStrings } from '../../cards/packed-strings.js';
import type { UpstreamErrorKind } from '../../interaction/upstream-error.js';
import type { CompactDownload, DownloadKind } from './compact-download.js';
import { inSlices } from '../../upstream/slices.js';

/**
 * What crosses the thread boundary, both ways: the messages, and a matcher build's input and tables
 * in the shape that costs the event loop least: typed arrays only, each list of strings as its code
 * units (PackedStrings), moved for the tables coming back. Hundreds of thousands of separate strings
 * would cost ~100 ms to clone and as much again to read back; even as a few long strings, the
 * tables' 12 MB of text cost 13-38 ms to read out of each message. Moved, they cost nothing, and
 * the matcher reads the tables' lists as they come.
 */

/** The cards a build reads, as columns. */
export interface PackedCards {
  ids: Float64Array;
  names: PackedStrings;
  /** Every card's old names, one after the other; `altNameCounts` says how many are each card's. */
  altNames: PackedStrings;
  altNameCounts: Int32Array;
  /** NaN where a card has none. */
  konamiIds: Float64Array;
  popularity: Float64Array;
}

/** One language's names, by passcode. */
export interface PackedNames {
  language: CardLanguage;
  passcodes: Float64Array;
  names: PackedStrings;
}

/** The cards, abbreviations and each language's names a build reads (see buildMatcherTables). */
export interface PackedBuildInput {
  cards: PackedCards;
  aliases: Readonly<Record<string, string>>;
  languages: PackedNames[];
}

/** One job asked of the worker: a matcher build, or reading a download (see compact-download.ts). */
export type WorkerJob = { job: 'matcher'; input: PackedBuildInput; store?: { dir: string; name: string } } | { job: 'download'; body: Uint8Array; kind: DownloadKind };
export type WorkerRequest = WorkerJob & { id: number };

/** How a build with a store went (see stored-tables.ts): its tables read back, built and written, or built and not written (why). */
export type StoreOutcome = { stored: 'read' } | { stored: 'written' } | { stored: 'failed'; reason: string };

/** A job that threw: an UpstreamError keeps its kind (a body that is not a card list is `bad_response`). */
export interface JobFailure {
  message: string;
  kind?: UpstreamErrorKind;
}

/** The worker's first message: its code is loaded and it takes jobs. */
export interface WorkerReady {
  ready: true;
}

export type WorkerAnswer = { id: number } & ({ tables: MatcherTables; store?: StoreOutcome } | { download: CompactDownload } | { failure: JobFailure });

/** A packed message and the buffers to transfer with it (they are then unusable on the sending side). */
export interface Packed<T> {
  message: T;
  transfer: ArrayBuffer[];
}

/** Lists packed without an absent string come back without one. */
const unpackPresent = (packed: PackedStrings) => unpackStrings(packed) as string[];

/**
 * Packed once per card set (and per language's names, below), kept by the caller and sent as many
 * times as builds need them: cloned, never moved, so they stay usable. On the event loop, in slices
 * (`sliceMs`, see inSlices): English's 13,700 cards took 10-38 ms in one go when they arrived after
 * ready, the code run once and cold.
 */
export async function packCards(cards: readonly MatchableCard[], sliceMs?: number): Promise<PackedCards> {
  const count = cards.length;
  const packed = { ids: new Float64Array(count), altNameCounts: new Int32Array(count), konamiIds: new Float64Array(count), popularity: new Float64Array(count) };
  const names = new Array<string>(count);
  const altNames: string[] = [];
  await inSlices(
    count,
    (at) => {
      const card = cards[at] as MatchableCard;
      packed.ids[at] = card.id;
      names[at] = card.name;
      packed.konamiIds[at] = card.konamiId ?? Number.NaN;
      packed.popularity[at] = card.popularity ?? Number.NaN;
      packed.altNameCounts[at] = card.altNames?.length ?? 0;
      for (const altName of card.altNames ?? []) altNames.push(altName);
    },
    sliceMs,
  );
  return { ...packed, names: packStrings(names), altNames: packStrings(altNames) };
}

export function packNames(language: CardLanguage, byPasscode: ReadonlyMap<number, string>): PackedNames {
  return { language, passcodes: Float64Array.from(byPasscode.keys()), names: packStrings([...byPasscode.values()]) };
}

export function unpackBuildInput({ cards: packed, aliases, languages }: PackedBuildInput): {
  cards: MatchableCard[];
  aliases: Readonly<Record<string, string>>;
  localizedNames: LocalizedCardNames;
} {
  const names = unpackPresent(packed.names);
  const altNames = unpackPresent(packed.altNames);
  let altNameAt = 0;
  const cards = names.map((name, at): MatchableCard => {
    const count = packed.altNameCounts[at] as number;
    const konamiId = packed.konamiIds[at] as number;
    const popularity = packed.popularity[at] as number;
    const card: MatchableCard = { id: packed.ids[at] as number, name };
    if (count > 0) card.altNames = altNames.slice(altNameAt, (altNameAt += count));
    if (!Number.isNaN(konamiId)) card.konamiId = konamiId;
    if (!Number.isNaN(popularity)) card.popularity = popularity;
    return card;
  });
  const byLanguage = new Map(
    languages.map(({ language, passcodes, names: packedNames }) => {
      const localNames = unpackPresent(packedNames);
      return [language, [...passcodes].map((passcode, at) => [passcode, localNames[at] as string] as const)];
    }),
  );
  return { cards, aliases, localizedNames: (language) => byLanguage.get(language) ?? [] };
}

/**
 * A read download, its records' body and line starts to move (not copy) to the event loop: a
 * 10-15 MB clone costs it tens of ms. A body over part of a larger buffer is copied.
 */
export function packDownload(download: CompactDownload): Packed<CompactDownload> {
  const transfer = [download.body, download.starts].filter(({ buffer, byteOffset, byteLength }) => byteOffset === 0 && byteLength === buffer.byteLength);
  return { message: download, transfer: transfer.map(({ buffer }) => buffer as ArrayBuffer) };
}

/** The tables and every typed array in them, to move (not copy) to the event loop. */
export function packTables(tables: MatcherTables): Packed<MatcherTables> {
  const { entryCard, entryInfo, compactOrder, aliasCards, tieRank, cardByTieRank, passcodes, konamiIds } = tables;
  const arrays: ArrayBufferView[] = [entryCard, entryInfo, compactOrder, aliasCards, tieRank, cardByTieRank, passcodes.ids, passcodes.cards, konamiIds.ids, konamiIds.cards];
  for (const list of [tables.entryCompact, tables.entrySource, ...tables.localNames]) arrays.push(list.codes, list.offsets);
  for (const { words, start, postings, sharedPrefix } of [tables.singleWords, tables.joinedWords, tables.soundWords]) {
    arrays.push(words.codes, words.offsets, start, postings, sharedPrefix);
  }
  return { message: tables, transfer: arrays.map((array) => array.buffer as ArrayBuffer) };
}
