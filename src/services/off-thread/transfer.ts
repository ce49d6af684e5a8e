import type { CardLanguage } from '../../cards/card.js';
import type { LocalizedCardNames } from '../../cards/localized-names.js';
import type { MatchableCard, MatcherTables } from '../../cards/matcher-tables.js';
import type { WordTables } from '../../cards/word-index.js';
import type { UpstreamErrorKind } from '../../interaction/upstream-error.js';
import type { CompactDownload, DownloadKind } from './compact-download.js';

/**
 * What crosses the thread boundary, both ways: the messages, and a matcher build's input and tables
 * in the shape that costs the event loop least: typed arrays (moved, for the tables coming back) and each list of strings as
 * one string. Hundreds of thousands of separate strings would cost ~100 ms to clone and as much
 * again to read back; one long string is a single copy, and slicing it back is a few ms.
 */

/** A list of strings (some absent) as one string and each one's length (-1 for an absent one). */
interface PackedStrings {
  text: string;
  lengths: Int32Array;
}

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

type PackedWords = Omit<WordTables, 'words'> & { words: PackedStrings };

export type PackedTables = Omit<MatcherTables, 'entryCompact' | 'entrySource' | 'localNames' | 'singleWords' | 'joinedWords' | 'soundWords'> & {
  entryCompact: PackedStrings;
  entrySource: PackedStrings;
  localNames: PackedStrings[];
  singleWords: PackedWords;
  joinedWords: PackedWords;
  soundWords: PackedWords;
};

/** One job asked of the worker: a matcher build, or reading a download (see compact-download.ts). */
export type WorkerJob = { job: 'matcher'; input: PackedBuildInput } | { job: 'download'; body: Uint8Array; kind: DownloadKind };
export type WorkerRequest = WorkerJob & { id: number };

/** A job that threw: an UpstreamError keeps its kind (a body that is not a card list is `bad_response`). */
export interface JobFailure {
  message: string;
  kind?: UpstreamErrorKind;
}

/** The worker's first message: its code is loaded and it takes jobs. */
export interface WorkerReady {
  ready: true;
}

export type WorkerAnswer = { id: number } & ({ tables: PackedTables } | { download: CompactDownload } | { failure: JobFailure });

/** A packed message and the buffers to transfer with it (they are then unusable on the sending side). */
export interface Packed<T> {
  message: T;
  transfer: ArrayBuffer[];
}

function packStrings(list: readonly (string | undefined)[], transfer?: ArrayBuffer[]): PackedStrings {
  const lengths = new Int32Array(list.length);
  const present: string[] = [];
  for (let at = 0; at < list.length; at++) {
    const text = list[at];
    lengths[at] = text === undefined ? -1 : text.length;
    if (text !== undefined) present.push(text);
  }
  transfer?.push(lengths.buffer as ArrayBuffer);
  return { text: present.join(''), lengths };
}

function unpackStrings(packed: PackedStrings): (string | undefined)[] {
  const list = new Array<string | undefined>(packed.lengths.length);
  let offset = 0;
  for (let at = 0; at < list.length; at++) {
    const length = packed.lengths[at] as number;
    if (length < 0) continue;
    list[at] = packed.text.slice(offset, offset + length);
    offset += length;
  }
  return list;
}

/** Lists packed without an absent string come back without one. */
const unpackPresent = (packed: PackedStrings) => unpackStrings(packed) as string[];

/**
 * Packed once per card set (and per language's names, below), kept by the caller and sent as many
 * times as builds need them: cloned, never moved, so they stay usable.
 */
export function packCards(cards: readonly MatchableCard[]): PackedCards {
  const column = (value: (card: MatchableCard) => number | undefined) => Float64Array.from(cards, (card) => value(card) ?? Number.NaN);
  return {
    ids: column((card) => card.id),
    names: packStrings(cards.map((card) => card.name)),
    altNames: packStrings(cards.flatMap((card) => card.altNames ?? [])),
    altNameCounts: Int32Array.from(cards, (card) => card.altNames?.length ?? 0),
    konamiIds: column((card) => card.konamiId),
    popularity: column((card) => card.popularity),
  };
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

export function packTables(tables: MatcherTables): Packed<PackedTables> {
  const transfer: ArrayBuffer[] = [];
  const words = ({ words: list, ...rest }: WordTables): PackedWords => {
    transfer.push(rest.start.buffer as ArrayBuffer, rest.postings.buffer as ArrayBuffer, rest.sharedPrefix.buffer as ArrayBuffer);
    return { ...rest, words: packStrings(list, transfer) };
  };
  for (const array of [tables.entryCard, tables.entryInfo, tables.compactOrder, tables.aliasCards, tables.tieRank, tables.cardByTieRank]) {
    transfer.push(array.buffer as ArrayBuffer);
  }
  const message: PackedTables = {
    ...tables,
    entryCompact: packStrings(tables.entryCompact, transfer),
    entrySource: packStrings(tables.entrySource, transfer),
    localNames: tables.localNames.map((names) => packStrings(names, transfer)),
    singleWords: words(tables.singleWords),
    joinedWords: words(tables.joinedWords),
    soundWords: words(tables.soundWords),
  };
  return { message, transfer };
}

export function unpackTables(packed: PackedTables): MatcherTables {
  const words = (tables: PackedWords): WordTables => ({ ...tables, words: unpackPresent(tables.words) });
  return {
    ...packed,
    entryCompact: unpackPresent(packed.entryCompact),
    entrySource: unpackPresent(packed.entrySource),
    localNames: packed.localNames.map(unpackStrings),
    singleWords: words(packed.singleWords),
    joinedWords: words(packed.joinedWords),
    soundWords: words(packed.soundWords),
  };
}
