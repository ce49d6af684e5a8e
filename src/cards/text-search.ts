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

/**
 * The passcodes of the cards whose texts `accept` (given the passcode and the texts as `needle`
 * writes them), in record order. `wanted` leaves cards out without reading their texts (other
 * filters, or cards read in another language).
 */
export function cardsWithText(texts: EffectTexts, accept: (id: number, text: string) => boolean, wanted?: (id: number) => boolean): number[] {
  const found: number[] = [];
  const { records, idAt } = texts;
  const { starts } = records;
  for (let first = 0; first < records.length; ) {
    const chunkStart = starts[first]!;
    let last = first + 1;
    while (last < records.length && starts[last + 1]! - chunkStart <= CHUNK_BYTES) last++;
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
    first = last;
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
    if (at === 0 || !isWordByte(text.charCodeAt(at - 1)) || (text.charCodeAt(at - 2) === BACKSLASH && text[at - 1] === 'n')) return true;
  }
  return false;
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
