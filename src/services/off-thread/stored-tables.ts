/**
 * Matcher tables kept on disk from one start to the next. Building them over every card in five
 * languages takes the worker about two seconds, which every start with snapshots used to wait for
 * before it was ready; the same cards give the same tables, so a restart reads them back instead
 * (tens of ms). A file is named by a digest of everything a build reads and of the build's format
 * (MATCHER_TABLES_FORMAT), so tables are only ever read back for the very input that built them.
 * Runs in the worker thread (synchronous file calls are its whole job there).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { MATCHER_TABLES_FORMAT, type MatcherTables } from '../../cards/matcher-tables.js';
import type { PackedStrings } from '../../cards/packed-strings.js';
import type { WordTables } from '../../cards/word-index.js';
import type { IdIndex } from '../../cards/id-index.js';
import type { PackedBuildInput } from './transfer.js';

/** The folder of DATA_DIR that holds them. */
export const STORED_TABLES_DIR = 'matcher';

/**
 * Files kept per matcher (the card matcher, the set list's): the one in use and the one before it.
 * A start with snapshots builds once; a first start builds once per language as each arrives, and
 * only the last of those is worth keeping.
 */
export const STORED_TABLES_KEPT = 2;
const MATCHER_NAME = /^[a-z]+$/;

/** Where the tables of one matcher built from one input are kept. */
export interface StoredTablesFile {
  dir: string;
  /** The matcher's (lowercase letters): each keeps its own files. */
  name: string;
  path: string;
}

/** The file that holds (or will hold) the tables of matcher `name` built from `input`, in `dir`. */
export function storedTablesFile(dir: string, name: string, input: PackedBuildInput): StoredTablesFile {
  if (!MATCHER_NAME.test(name)) throw new TypeError(`stored tables: "${name}" is not a matcher's name`);
  const hash = createHash('sha256').update(`almanac matcher tables ${MATCHER_TABLES_FORMAT}\n${JSON.stringify(input.aliases)}\n`);
  const { cards } = input;
  for (const view of [cards.ids, cards.names.codes, cards.names.offsets, cards.altNames.codes, cards.altNames.offsets, cards.altNameCounts, cards.konamiIds, cards.popularity]) {
    hash.update(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    hash.update('|');
  }
  for (const { language, passcodes, names } of input.languages) {
    hash.update(`\n${language}\n`);
    for (const view of [passcodes, names.codes, names.offsets]) hash.update(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)).update('|');
  }
  return { dir, name, path: join(dir, `${name}-${hash.digest('hex')}.tables`) };
}

/**
 * The tables in `file`, each array in a buffer of its own (so they can be moved to the event loop),
 * or undefined when there is no such file or it does not hold tables. A file read is touched, so
 * pruning keeps it.
 */
export function readStoredTables(file: StoredTablesFile): MatcherTables | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file.path);
  } catch {
    return undefined;
  }
  let tables: MatcherTables | undefined;
  try {
    tables = ownedTables(deserialize(bytes));
  } catch {
    tables = undefined;
  }
  if (tables !== undefined) {
    try {
      const now = new Date();
      utimesSync(file.path, now, now);
    } catch {
      // Read-only, say: the file is still good; it is pruned sooner.
    }
  }
  return tables;
}

/**
 * Writes `tables` to `file` whole or not at all (a temporary file renamed over it), then removes all
 * but the STORED_TABLES_KEPT most recently used files of its matcher. Throws when it cannot be written.
 */
export function writeStoredTables(file: StoredTablesFile, tables: MatcherTables): void {
  mkdirSync(file.dir, { recursive: true });
  const temporary = `${file.path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, serialize(tables));
    renameSync(temporary, file.path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
    throw error;
  }
  pruneStoredTables(file.dir, file.name);
}

/** Removes all but the STORED_TABLES_KEPT most recently used files of matcher `name`. */
function pruneStoredTables(dir: string, name: string): void {
  const pattern = new RegExp(`^${name}-[0-9a-f]{64}\\.tables$`);
  const files = readdirSync(dir)
    .filter((file) => pattern.test(file))
    .map((file) => {
      const path = join(dir, file);
      try {
        return { path, usedAt: statSync(path).mtimeMs };
      } catch {
        return { path, usedAt: 0 };
      }
    })
    .sort((left, right) => right.usedAt - left.usedAt);
  for (const { path } of files.slice(STORED_TABLES_KEPT)) {
    try {
      unlinkSync(path);
    } catch {
      // Gone already (another process pruned it).
    }
  }
}

type ArrayType<T> = new (buffer: ArrayBuffer) => T;

/** A copy of `value` when it is a `type`; throws otherwise. The copy owns its buffer. */
function owned<T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(value: unknown, type: ArrayType<T>): T {
  if (!(value instanceof type)) throw new TypeError('not matcher tables');
  return value.slice() as T;
}

function field(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) throw new TypeError('not matcher tables');
  return (value as Record<string, unknown>)[name];
}

function ownedStrings(value: unknown): PackedStrings {
  return { codes: owned(field(value, 'codes'), Uint16Array), offsets: owned(field(value, 'offsets'), Int32Array) };
}

function ownedIds(value: unknown): IdIndex {
  return { ids: owned(field(value, 'ids'), Float64Array), cards: owned(field(value, 'cards'), Int32Array) };
}

function ownedWords(value: unknown): WordTables {
  const longestWord = field(value, 'longestWord');
  if (typeof longestWord !== 'number') throw new TypeError('not matcher tables');
  return {
    words: ownedStrings(field(value, 'words')),
    start: owned(field(value, 'start'), Int32Array),
    postings: owned(field(value, 'postings'), Int32Array),
    sharedPrefix: owned(field(value, 'sharedPrefix'), Uint8Array),
    longestWord,
  };
}

/**
 * What was read, checked field by field, as tables whose arrays each own their buffer: the
 * deserializer leaves them all as views over the one buffer read from the file, which could not
 * be moved to another thread array by array.
 */
function ownedTables(value: unknown): MatcherTables {
  const aliasKeys = field(value, 'aliasKeys');
  const localNames = field(value, 'localNames');
  if (!Array.isArray(aliasKeys) || !aliasKeys.every((key) => typeof key === 'string') || !Array.isArray(localNames)) throw new TypeError('not matcher tables');
  return {
    entryCard: owned(field(value, 'entryCard'), Int32Array),
    entryInfo: owned(field(value, 'entryInfo'), Uint8Array),
    entryCompact: ownedStrings(field(value, 'entryCompact')),
    entrySource: ownedStrings(field(value, 'entrySource')),
    compactOrder: owned(field(value, 'compactOrder'), Int32Array),
    aliasKeys: aliasKeys as string[],
    aliasCards: owned(field(value, 'aliasCards'), Int32Array),
    localNames: localNames.map(ownedStrings),
    passcodes: ownedIds(field(value, 'passcodes')),
    konamiIds: ownedIds(field(value, 'konamiIds')),
    singleWords: ownedWords(field(value, 'singleWords')),
    joinedWords: ownedWords(field(value, 'joinedWords')),
    soundWords: ownedWords(field(value, 'soundWords')),
    tieRank: owned(field(value, 'tieRank'), Int32Array),
    cardByTieRank: owned(field(value, 'cardByTieRank'), Int32Array),
  };
}
