import { createHash, randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CARD_FORMAT_VERSION, READABLE_CARD_FORMATS } from '../../cards/card.js';

/**
 * Card database snapshots in `DATA_DIR/cards/`: `cards.snapshot` for the English database and
 * `cards.<language>.snapshot` for each language's texts, `cards.genesys.snapshot` for the Genesys
 * pool's points. A snapshot is one JSON header line
 * (`SnapshotHeader`: versions, counts, length and SHA-256 of the rest), then the records, one JSON
 * line each (`CompactRecords`' body, kept in memory as read). The checksum catches truncation and
 * corruption before anything is parsed; a new snapshot replaces the old one atomically.
 */

export const SNAPSHOT_FORMATS = {
  /** Normalised English cards (`Card`). */
  cards: 'almanac-cards',
  /** One language's names and texts (`CardTranslation`). */
  texts: 'almanac-card-texts',
  /** The Genesys pool: each card's passcode, name and points (`GenesysEntry`). */
  genesys: 'almanac-genesys',
} as const;
export type SnapshotFormat = (typeof SNAPSHOT_FORMATS)[keyof typeof SNAPSHOT_FORMATS];

export const SNAPSHOT_FILE = 'cards.snapshot';
const BACKUP_SUFFIX = '.bak';
const TEMP_FILE = /^cards\.(?:[a-z]{2}\.|genesys\.)?snapshot\..+\.tmp$/;

/** Where the snapshots of `DATA_DIR` live. */
export function snapshotDirectory(dataDir: string): string {
  return join(dataDir, 'cards');
}

/** `cards.snapshot`, `cards.fr.snapshot` for a language's texts, `cards.genesys.snapshot` for the Genesys pool. */
export function snapshotFile(part?: string): string {
  return part === undefined ? SNAPSHOT_FILE : `cards.${part}.snapshot`;
}

const snapshotHeaderSchema = z.object({
  format: z.enum([SNAPSHOT_FORMATS.cards, SNAPSHOT_FORMATS.texts, SNAPSHOT_FORMATS.genesys]),
  /** `CARD_FORMAT_VERSION` of the code that wrote it. */
  cardFormat: z.number().int(),
  /** YGOPRODeck's `database_version`. */
  databaseVersion: z.string().min(1),
  /** The language of a texts snapshot. */
  language: z.string().optional(),
  lastUpdate: z.string().optional(),
  downloadedAt: z.number().int().nonnegative(),
  cardCount: z.number().int().positive(),
  /** Cards of the download that failed validation and were left out. */
  skippedCards: z.number().int().nonnegative(),
  bytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type SnapshotHeader = z.infer<typeof snapshotHeaderSchema>;

/** The header describing `body`, with its length and checksum. */
export async function snapshotHeader(fields: Omit<SnapshotHeader, 'cardFormat' | 'bytes' | 'sha256'>, body: Buffer): Promise<SnapshotHeader> {
  return { ...fields, cardFormat: CARD_FORMAT_VERSION, bytes: body.length, sha256: await sha256(body) };
}

export interface LoadedSnapshot {
  header: SnapshotHeader;
  /** The records, verified against the header's length and checksum, not parsed yet. */
  body: Buffer;
}

/** Reads and verifies one snapshot file; throws (ENOENT, or a description of the problem) otherwise. */
export async function readSnapshot(path: string, format: SnapshotFormat): Promise<LoadedSnapshot> {
  const file = await readFile(path);
  const newline = file.indexOf(0x0a);
  if (newline < 0) throw new Error('snapshot has no header line');
  let header: SnapshotHeader;
  try {
    header = snapshotHeaderSchema.parse(JSON.parse(file.subarray(0, newline).toString('utf8')));
  } catch (error) {
    throw new Error('snapshot header is invalid', { cause: error });
  }
  if (header.format !== format) throw new Error(`snapshot is of format ${header.format}, expected ${format}`);
  if (!READABLE_CARD_FORMATS.includes(header.cardFormat)) {
    throw new Error(`snapshot holds cards of format ${header.cardFormat}, this code reads formats ${READABLE_CARD_FORMATS.join(', ')}`);
  }
  const body = file.subarray(newline + 1);
  if (body.length !== header.bytes) throw new Error(`snapshot body has ${body.length} bytes, header says ${header.bytes}`);
  if ((await sha256(body)) !== header.sha256) throw new Error('snapshot checksum mismatch');
  return { header, body };
}

/** Reads the snapshot `file` of `dir`, or its `.bak` when the main one is missing or unusable; null when neither is usable. */
export async function readSnapshotOrBackup(
  dir: string,
  file: string,
  format: SnapshotFormat,
  onUnusable: (error: unknown, path: string) => void,
): Promise<LoadedSnapshot & { path: string } | null> {
  for (const path of [join(dir, file), join(dir, file + BACKUP_SUFFIX)]) {
    try {
      return { ...(await readSnapshot(path, format)), path };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onUnusable(error, path);
    }
  }
  return null;
}

/**
 * Replaces the snapshot `file` so that a crash at any point leaves a loadable one: the new file is
 * written and flushed under a temporary name; the current one becomes `.bak`, the new one takes its
 * name, and `.bak` is removed only once the rename is flushed. Loading falls back to `.bak` when the
 * main file is missing (a crash between the two renames).
 */
export async function writeSnapshot(dir: string, file: string, header: SnapshotHeader, body: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  const current = join(dir, file);
  const backup = current + BACKUP_SUFFIX;
  const temp = join(dir, `${file}.${process.pid}.${randomUUID()}.tmp`);
  await writeDurably(temp, [Buffer.from(`${JSON.stringify(header)}\n`), body]);
  let backedUp = false;
  try {
    backedUp = await renameIfExists(current, backup);
    await rename(temp, current);
  } catch (error) {
    await rm(temp, { force: true });
    if (backedUp) await rename(backup, current).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dir);
  await rm(backup, { force: true });
}

/** Writes a new file and flushes it to disk before returning; a partial file is removed on failure. */
export async function writeDurably(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    for (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
}

/** Temporary snapshot files left by a crash mid-write are never loaded; remove them. */
export async function removeStaleTempFiles(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(names.filter((name) => TEMP_FILE.test(name)).map((name) => rm(join(dir, name), { force: true })));
}

/** Makes renames in `dir` durable; some platforms cannot open a directory, and lose nothing by skipping. */
async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // EISDIR/EPERM on platforms without directory fsync.
  } finally {
    await handle?.close();
  }
}

/** Renames `from` when it exists; returns whether it did. */
async function renameIfExists(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Bytes hashed between two turns of the event loop: under a millisecond. */
const HASH_SLICE_BYTES = 1024 * 1024;

/**
 * Hashed a slice at a time, the event loop free between slices: a 15 MB body in one go holds it
 * about 10 ms, and WebCrypto's digest (on libuv's thread pool) first copies the body on the event
 * loop, which held it 7-16 ms per download.
 */
async function sha256(data: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let start = 0; start < data.byteLength; start += HASH_SLICE_BYTES) {
    if (start > 0) await nextTurn();
    hash.update(data.subarray(start, start + HASH_SLICE_BYTES));
  }
  return hash.digest('hex');
}
