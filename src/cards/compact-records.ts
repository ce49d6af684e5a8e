import { LRUCache } from 'lru-cache';

/**
 * Many records kept as one body of JSON lines (one record per line) with an offset table, parsed
 * on demand, with a small LRU of parsed records. A card database held as plain objects is hundreds
 * of thousands of small objects that every major GC walks; held this way it is one body and one
 * typed array, which the GC never scans. The body is also the snapshot's, so a loaded snapshot can
 * be read from its file a record at a time (`RecordBytes`) instead of held in memory.
 *
 * Records come back shared from the LRU: callers must treat them as read-only.
 */

const NEWLINE = 0x0a;
/** Parsed records kept: a few hundred popular cards cover most lookups. */
const PARSED_RECORDS_KEPT = 256;

/** Where a body's bytes are: a buffer in memory, or a file read a record at a time (src/services). */
export interface RecordBytes {
  readonly byteLength: number;
  /** The bytes from `start` to `end` (exclusive) as UTF-8 text. */
  text(start: number, end: number): string;
  /**
   * The bytes from `start` to `end` (exclusive), for a pass over many records at once: a view of the
   * body in memory; read from a file, a scratch buffer that the next `bytes` call overwrites.
   */
  bytes(start: number, end: number): Buffer;
  byteAt(offset: number): number;
}

/** A body held in memory. */
export function bytesInMemory(body: Buffer): RecordBytes {
  return { byteLength: body.length, text: (start, end) => body.toString('utf8', start, end), bytes: (start, end) => body.subarray(start, end), byteAt: (offset) => body[offset]! };
}

/** Records serialised as `CompactRecords` keeps them: the body and its line starts. */
export interface RecordLines {
  /** JSON lines, each ending with `\n`. */
  body: Buffer;
  starts: Uint32Array;
}

export class CompactRecords<T extends object> {
  readonly bytes: RecordBytes;
  /**
   * Byte offset of each record's line, plus the body's length at the end: what `written` takes back
   * (a worker that wrote the body sends it along, so the event loop never looks for a line end).
   */
  readonly starts: Uint32Array;
  private readonly parsed: LRUCache<number, T>;

  private constructor(bytes: RecordBytes, starts: Uint32Array) {
    this.bytes = bytes;
    this.starts = starts;
    this.parsed = new LRUCache<number, T>({ max: PARSED_RECORDS_KEPT });
  }

  /** Serialises `records`, one JSON line each. */
  static lines(records: readonly object[]): RecordLines {
    let text = '';
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    const body = Buffer.from(text);
    return { body, starts: lineStarts(body) };
  }

  /** `records`, serialised and held in memory. */
  static of<T extends object>(records: readonly T[]): CompactRecords<T> {
    const { body, starts } = CompactRecords.lines(records);
    return new CompactRecords<T>(bytesInMemory(body), starts);
  }

  /**
   * A body `of` wrote (in this process or a worker thread) with its `starts`, both taken as they
   * are: no line is parsed and no line end looked for. Finding English's 13,700 line ends in its
   * 15 MB body held the event loop 2-31 ms in one turn. A sample of the table is checked against
   * the body (see startsFit: microseconds, where every start took 0.3-1.7 ms), so that a table that
   * is plainly not this body's (a bug, or a fleet cache entry gone wrong) is refused before a record
   * is misread.
   */
  static written<T extends object>(body: Buffer, starts: Uint32Array): CompactRecords<T> {
    return CompactRecords.over<T>(bytesInMemory(body), starts);
  }

  /** The same records read from `bytes` (the same body elsewhere, e.g. in its snapshot file); checked as `written` checks. */
  reading(bytes: RecordBytes): CompactRecords<T> {
    return CompactRecords.over<T>(bytes, this.starts);
  }

  private static over<T extends object>(bytes: RecordBytes, starts: Uint32Array): CompactRecords<T> {
    if (!startsFit(bytes, starts)) throw new Error(`the line starts (${starts.length - 1} records) are not those of this ${bytes.byteLength}-byte body`);
    return new CompactRecords<T>(bytes, starts);
  }

  /**
   * Reads a body written by `of` (a verified snapshot's). Each line is parsed once and given to
   * `check`, which returns whether it is a `T`; a line that is not JSON or not a `T` throws.
   */
  static parse<T extends object>(body: Buffer, check: (record: unknown, index: number) => record is T): CompactRecords<T> {
    const offsets: number[] = [];
    for (let start = 0; start < body.length; ) {
      const end = body.indexOf(NEWLINE, start);
      if (end < 0) throw new Error(`record ${offsets.length} has no line end`);
      const record: unknown = JSON.parse(body.toString('utf8', start, end));
      if (!check(record, offsets.length)) throw new Error(`record ${offsets.length} is not of the expected shape`);
      offsets.push(start);
      start = end + 1;
    }
    offsets.push(body.length);
    return new CompactRecords<T>(bytesInMemory(body), Uint32Array.from(offsets));
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** The record at `index` (0 ≤ index < length), parsed now or taken from the LRU. */
  get(index: number): T {
    const cached = this.parsed.get(index);
    if (cached !== undefined) return cached;
    const record = this.read(index);
    this.parsed.set(index, record);
    return record;
  }

  /** The record at `index`, parsed now and not kept: for a pass over many records that should not evict the popular ones. */
  read(index: number): T {
    if (!(Number.isInteger(index) && index >= 0 && index < this.length)) throw new RangeError(`no record ${index} of ${this.length}`);
    // The line's `\n` is left out; JSON.parse would skip it anyway.
    return JSON.parse(this.bytes.text(this.starts[index]!, this.starts[index + 1]! - 1)) as T;
  }
}

/** Where each line of `body` starts, and its length at the end; throws when the last line has no `\n`. */
function lineStarts(body: Buffer): Uint32Array {
  const starts: number[] = [];
  for (let start = 0; start < body.length; ) {
    const end = body.indexOf(NEWLINE, start);
    if (end < 0) throw new Error(`record ${starts.length} has no line end`);
    starts.push(start);
    start = end + 1;
  }
  starts.push(body.length);
  return Uint32Array.from(starts);
}

/** How many starts startsFit checks, spread over the table. */
const STARTS_CHECKED = 64;

/**
 * Whether `starts` can be `body`'s: from 0 to its length, and at STARTS_CHECKED places spread over
 * it (every one in a short table, the first included), rising, with a `\n` just before. A table
 * wrong elsewhere would show as records that do not parse.
 */
function startsFit(body: RecordBytes, starts: Uint32Array): boolean {
  if (starts.length === 0 || starts[0] !== 0 || starts[starts.length - 1] !== body.byteLength) return false;
  const step = Math.max(1, Math.floor(starts.length / STARTS_CHECKED));
  for (let at = 1; at < starts.length; at += step) {
    const start = starts[at]!;
    if (start <= starts[at - 1]! || body.byteAt(start - 1) !== NEWLINE) return false;
  }
  return true;
}
