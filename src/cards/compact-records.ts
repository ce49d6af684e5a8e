import { LRUCache } from 'lru-cache';

/**
 * Many records kept as one buffer of JSON lines (one record per line) with an offset table, parsed
 * on demand, with a small LRU of parsed records. A card database held as plain objects is hundreds
 * of thousands of small objects that every major GC walks; held this way it is one off-heap buffer
 * and one typed array, which the GC never scans. The buffer is also the snapshot's body, so loading
 * a snapshot keeps the file's bytes as they are.
 *
 * Records come back shared from the LRU: callers must treat them as read-only.
 */

const NEWLINE = 0x0a;
/** Parsed records kept: a few hundred popular cards cover most lookups. */
const PARSED_RECORDS_KEPT = 256;

export class CompactRecords<T extends object> {
  /** JSON lines, each ending with `\n`. */
  readonly body: Buffer;
  /** Byte offset of each record's line, plus the body's length at the end. */
  private readonly starts: Uint32Array;
  private readonly parsed: LRUCache<number, T>;

  private constructor(body: Buffer, starts: Uint32Array) {
    this.body = body;
    this.starts = starts;
    this.parsed = new LRUCache<number, T>({ max: PARSED_RECORDS_KEPT });
  }

  /** Serialises `records`, one JSON line each. */
  static of<T extends object>(records: readonly T[]): CompactRecords<T> {
    let text = '';
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    return CompactRecords.written<T>(Buffer.from(text));
  }

  /**
   * A body `of` wrote (in this process or a worker thread), taken as it is: only its line ends are
   * looked for, no line is parsed (a few ms, where parsing takes most of a second).
   */
  static written<T extends object>(body: Buffer): CompactRecords<T> {
    const starts: number[] = [];
    for (let start = 0; start < body.length; ) {
      const end = body.indexOf(NEWLINE, start);
      if (end < 0) throw new Error(`record ${starts.length} has no line end`);
      starts.push(start);
      start = end + 1;
    }
    starts.push(body.length);
    return new CompactRecords<T>(body, Uint32Array.from(starts));
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
    return new CompactRecords<T>(body, Uint32Array.from(offsets));
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
    return JSON.parse(this.body.toString('utf8', this.starts[index]!, this.starts[index + 1]! - 1)) as T;
  }
}
