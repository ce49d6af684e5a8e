import type { Card } from '../../cards/card.js';
import { translationOf, type CardTranslation } from '../../cards/card-translation.js';
import type { GenesysEntry } from '../../cards/genesys.js';
import { CompactRecords } from '../../cards/compact-records.js';
import { parseCardinfoBody, parseGenesysBody } from '../ygoprodeck/ygoprodeck-answers.js';

/**
 * What a `cardinfo.php` download is kept as: English cards (`Card`), a language's texts
 * (`CardTranslation`), or the Genesys pool's points (`GenesysEntry`).
 */
export type DownloadKind = 'cards' | 'texts' | 'genesys';

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
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const { records, skipped, problems } = kind === 'genesys' ? genesysRecords(bytes) : cardRecords(bytes, kind);
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

function genesysRecords(body: Buffer): { records: GenesysEntry[]; skipped: number; problems: string[] } {
  const { entries, skipped, problems } = parseGenesysBody(body);
  return { records: entries, skipped, problems };
}

function cardRecords(body: Buffer, kind: 'cards' | 'texts'): { records: (Card | CardTranslation)[]; skipped: number; problems: string[] } {
  const { cards, skipped, problems } = parseCardinfoBody(body);
  return { records: kind === 'cards' ? cards : cards.map(translationOf), skipped, problems };
}

/** The download's records, taken as they are; throws when its line starts or passcodes do not fit its body. */
export function recordsOf<T extends object>(download: CompactDownload): CompactRecords<T> {
  const records = CompactRecords.written<T>(download.body, download.starts);
  if (records.length !== download.ids.length) throw new Error(`the download holds ${records.length} records and ${download.ids.length} passcodes`);
  return records;
}
