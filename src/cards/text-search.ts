import type { CompactRecords } from './compact-records.js';

/**
 * `/card search`'s effect-text filter, over the records as they are already held (a body in memory,
 * or the snapshot file read a megabyte at a time): no second copy of the texts is built, and no
 * record is parsed. Each record's `description` object is found in its JSON line and only that part
 * is decoded and compared, so that set names, rarities or type lines never match.
 */

/** How much of a body one read takes: a few MB of the page cache per search, never the body at once. */
const CHUNK_BYTES = 1 << 20;
/** Both the card's and a translation's texts are `description: { text, pendulumEffect?, monsterEffect? }`. */
const DESCRIPTION_KEY = Buffer.from('"description":{');
const TEXT_KEY = Buffer.from('"text":"');
const QUOTE = 0x22;
const BRACE_CLOSE = 0x7d;
const BACKSLASH = 0x5c;
const FIELD_NAMES = /","[a-z]+":"/g;

/** The records holding effect texts, and the passcode of each. */
export interface EffectTexts {
  records: Pick<CompactRecords<object>, 'bytes' | 'starts' | 'length'>;
  idAt(index: number): number;
}

/** The records in runs of about a megabyte (`[first, last)`), the most one read takes. */
function* chunksOf(records: EffectTexts['records']): Generator<[first: number, last: number]> {
  const { starts } = records;
  for (let first = 0; first < records.length; ) {
    let last = first + 1;
    while (last < records.length && starts[last + 1]! - starts[first]! <= CHUNK_BYTES) last++;
    yield [first, last];
    first = last;
  }
}

/**
 * The passcodes of the cards whose texts `accept` (given the passcode and the texts as `needle`
 * writes them), in record order. `wanted` leaves cards out without reading their texts (other
 * filters, or cards read in another language).
 */
export function cardsWithText(texts: EffectTexts, accept: (id: number, text: string) => boolean, wanted?: (id: number) => boolean): number[] {
  const found: number[] = [];
  const { records, idAt } = texts;
  const { starts } = records;
  for (const [first, last] of chunksOf(records)) {
    // A chunk none of whose cards is wanted is not read: a filter that keeps few reads little.
    let reading = first;
    while (reading < last && wanted !== undefined && !wanted(idAt(reading))) reading++;
    if (reading < last) {
      const offset = starts[reading]!;
      const chunk = records.bytes.bytes(offset, starts[last]!);
      for (let index = reading; index < last; index++) {
        const id = idAt(index);
        if (wanted !== undefined && !wanted(id)) continue;
        const text = descriptionOf(chunk, starts[index]! - offset, starts[index + 1]! - offset);
        if (text !== null && accept(id, text)) found.push(id);
      }
    }
  }
  return found;
}

/**
 * A term as texts are compared: lower case, its UTF-8 bytes read as Latin-1 (decoding a text so is
 * several times faster than as UTF-8, and both sides are read alike). Accented capitals do not fold.
 */
export function needle(term: string): string {
  return Buffer.from(term.toLowerCase(), 'utf8').toString('latin1').toLowerCase();
}

/** Whether `text` holds `term` (a `needle`) at the start of a word: `destroy` finds "destroyed", `ash` not "flash". */
export function holdsWord(text: string, term: string): boolean {
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
    // The texts are still JSON-escaped: the `n` of a `\n` is no word, and a word may follow one.
    if (isEscaped(text, at)) continue;
    if (at === 0 || !isWordByte(text.charCodeAt(at - 1)) || isEscaped(text, at - 1)) return true;
  }
  return false;
}

/** Whether the character at `at` is the one a backslash escapes (an odd run of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (at - backslashes - 1 >= 0 && text.charCodeAt(at - backslashes - 1) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/** A letter or digit, or a byte of a non-ASCII character. */
function isWordByte(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code >= 0x80;
}

/** The line's description texts as `needle` writes terms (still JSON-escaped: `\n` between paragraphs), or null when it has none. */
function descriptionOf(chunk: Buffer, start: number, end: number): string | null {
  const key = chunk.indexOf(DESCRIPTION_KEY, start);
  if (key < 0 || key >= end) return null;
  let from = key + DESCRIPTION_KEY.length;
  if (chunk.subarray(from, from + TEXT_KEY.length).equals(TEXT_KEY)) from += TEXT_KEY.length;
  // The object holds strings only: it ends at the first `"}` whose quote is not escaped.
  let close = from;
  for (;;) {
    close = chunk.indexOf(BRACE_CLOSE, close);
    if (close < 0 || close >= end) return null;
    if (chunk[close - 1] === QUOTE && chunk[close - 2] !== BACKSLASH) break;
    close++;
  }
  const text = chunk.toString('latin1', from, close - 1).toLowerCase();
  // A Pendulum card's two effects: their field names are no words of its texts (an unescaped `"` is structure).
  return text.includes('":"') ? text.replace(FIELD_NAMES, '\\n') : text;
}

/**
 * The words the texts hold, each with the records holding a word that begins so: built once per
 * set of texts (a database version, a language) after the first search that reads them, a chunk at
 * a time between turns of the event loop (0.3 s in all for the English texts; searches read the
 * texts meanwhile). A term of letters and digits alone is then answered from the index without
 * decoding a text (the slowest search, a word in nearly every text, took 70 ms by reading them); a
 * term with other characters, or a phrase, narrows the cards to read to those holding each of its
 * words. About 3 MB of RSS for the English texts, settled.
 */
export class WordIndex {
  private constructor(
    private readonly texts: EffectTexts,
    /** Every distinct word, sorted, and the records holding each (record indices, ascending). */
    private readonly words: string[],
    private readonly postings: (Uint16Array | Int32Array)[],
  ) {}

  /** Builds the index of `texts`, yielding to the event loop after each chunk of records. */
  static async build(texts: EffectTexts, pause: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<WordIndex> {
    const byWord = new Map<string, number[]>();
    for (const chunk of descriptionChunks(texts)) {
      for (const [index, text] of chunk()) {
        for (const word of wordsOf(text)) {
          const holders = byWord.get(word);
          if (holders === undefined) byWord.set(word, [index]);
          else if (holders[holders.length - 1] !== index) holders.push(index);
        }
      }
      await pause();
    }
    const words = [...byWord.keys()].sort();
    const wide = texts.records.length > 0xffff;
    return new WordIndex(texts, words, words.map((word) => (wide ? Int32Array.from(byWord.get(word)!) : Uint16Array.from(byWord.get(word)!))));
  }

  /** The records' count, for the masks below. */
  get size(): number {
    return this.texts.records.length;
  }

  /**
   * A mask of the records (1 = may hold them) holding every word of every one of `terms` (each a
   * `needle`) at the start of a word: exactly those holding the term when there is one and it is one
   * word, a superset otherwise (a word of a phrase may begin anywhere in a word, as far as the index
   * can tell). No term, or none with a word: every record.
   */
  holders(...terms: string[]): Uint8Array {
    const mask = new Uint8Array(this.size).fill(1);
    for (const term of terms) {
      for (const word of wordsOf(term)) {
        const own = new Uint8Array(this.size);
        for (let index = this.firstWithPrefix(word); index < this.words.length && this.words[index]!.startsWith(word); index++) {
          for (const record of this.postings[index]!) own[record] = 1;
        }
        for (let record = 0; record < mask.length; record++) mask[record]! &= own[record]!;
      }
    }
    return mask;
  }

  /** Whether `term` is one word, which the index answers exactly. */
  static isOneWord(term: string): boolean {
    return term !== '' && [...term].every((character) => isWordByte(character.charCodeAt(0)));
  }

  idAt(record: number): number {
    return this.texts.idAt(record);
  }

  private firstWithPrefix(prefix: string): number {
    let low = 0;
    let high = this.words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.words[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const indexes = new WeakMap<object, { built: Promise<WordIndex>; index?: WordIndex }>();

/**
 * The word index of `texts` once built, kept as long as the texts are; undefined until then (the
 * first call starts the build, and the search reads the texts meanwhile).
 */
export function wordIndexOf(texts: EffectTexts): WordIndex | undefined {
  return indexing(texts).index;
}

/** Resolves with the word index of `texts` once built (starting the build if none is under way). */
export function wordIndexBuilt(texts: EffectTexts): Promise<WordIndex> {
  return indexing(texts).built;
}

function indexing(texts: EffectTexts): { built: Promise<WordIndex>; index?: WordIndex } {
  let entry = indexes.get(texts.records);
  if (entry === undefined) {
    const started: { built: Promise<WordIndex>; index?: WordIndex } = { built: WordIndex.build(texts) };
    started.built.then(
      (index) => (started.index = index),
      () => indexes.delete(texts.records),
    );
    indexes.set(texts.records, started);
    entry = started;
  }
  return entry;
}

/** The words of a text as `descriptionOf` gives it: runs of word bytes; a JSON escape (`\n`) separates. */
function* wordsOf(text: string): Generator<string> {
  let start = -1;
  for (let at = 0; at <= text.length; at++) {
    const code = at < text.length ? text.charCodeAt(at) : 0;
    if (code === BACKSLASH) {
      if (start >= 0) yield text.slice(start, at);
      start = -1;
      at++; // the escaped character
      continue;
    }
    if (isWordByte(code)) {
      if (start < 0) start = at;
    } else if (start >= 0) {
      yield text.slice(start, at);
      start = -1;
    }
  }
}

/** The records' description texts, a chunk (about a megabyte) at a time, in record order. */
function* descriptionChunks(texts: EffectTexts): Generator<() => Generator<[index: number, text: string]>> {
  const { records } = texts;
  const { starts } = records;
  for (const [first, last] of chunksOf(records)) {
    yield function* () {
      const chunk = records.bytes.bytes(starts[first]!, starts[last]!);
      for (let index = first; index < last; index++) {
        const text = descriptionOf(chunk, starts[index]! - starts[first]!, starts[index + 1]! - starts[first]!);
        if (text !== null) yield [index, text];
      }
    };
  }
}
