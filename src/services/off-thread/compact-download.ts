import { translationOf } from '../../cards/card-translation.js';
import { CompactRecords } from '../../cards/compact-records.js';
import { parseCardinfoBody } from '../ygoprodeck/ygoprodeck-answers.js';

/** What a `cardinfo.php` download is kept as: English cards (`Card`), or a language's texts (`CardTranslation`). */
export type DownloadKind = 'cards' | 'texts';

/**
 * A `cardinfo.php` body parsed, validated, normalised and compacted: everything the event loop would
 * otherwise spend about a second on per database (see off-thread.ts). The fleet's shared download
 * cache (`downloadOnce`) holds it as a JSON header followed by the body's and line starts' own bytes
 * (src/state/redis/value-codec.ts).
 */
export interface CompactDownload {
  /** The records, one JSON line each: a `CompactRecords`' body (`recordsOf` takes it without parsing a line). */
  body: Buffer;
  /**
   * Each record's line start in `body`, and its length at the end (`CompactRecords.starts`): found
   * where the body is written (the worker), so the event loop never looks for a line end.
   */
  starts: Uint32Array;
  /** Each record's passcode and name, in the records' order: a language's lookups without parsing a line. */
  ids: number[];
  names: string[];
  /** Cards that failed validation and were left out, and the first few reasons. */
  skipped: number;
  problems: string[];
}

/** Reads a whole `cardinfo.php` body into its compact form; rejects as `compactCardinfoBody` throws. */
export type ReadDownload = (body: Buffer, kind: DownloadKind, signal?: AbortSignal) => Promise<CompactDownload>;

/** Reads a `cardinfo.php` body; a body that is not a card list throws the UpstreamError `parseCardinfoBody` throws. */
export function compactCardinfoBody(body: Uint8Array, kind: DownloadKind): CompactDownload {
  const { cards, skipped, problems } = parseCardinfoBody(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  const records = kind === 'cards' ? cards : cards.map(translationOf);
  const lines = CompactRecords.lines(records);
  return {
    body: lines.body,
    starts: lines.starts,
    ids: records.map((record) => record.id),
    names: records.map((record) => record.name),
    skipped,
    problems,
  };
}

/** The download's records, taken as they are; throws when its line starts or passcodes do not fit its body. */
export function recordsOf<T extends object>(download: CompactDownload): CompactRecords<T> {
  const records = CompactRecords.written<T>(download.body, download.starts);
  if (records.length !== download.ids.length) throw new Error(`the download holds ${records.length} records and ${download.ids.length} passcodes`);
  return records;
}
