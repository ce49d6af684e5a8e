import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Logger } from 'pino';
import type { CompactRecords} from '../../cards/compact-records.js';
import { type RecordBytes } from '../../cards/compact-records.js';
import type { SnapshotHeader } from './card-snapshot.js';

/**
 * A snapshot's records read from its file a record at a time, so that the kernel's page cache holds
 * the body rather than the process: five languages' bodies are about 40 MB of RSS held in memory.
 * A read is one `pread` of a line (microseconds from the page cache; the 256 popular records are
 * parsed and kept by `CompactRecords`' LRU anyway).
 *
 * The file stays open: a newer snapshot replaces it by a rename, and the old descriptor keeps the
 * old bytes, so a set still in use by an answer never reads the next set's. Each descriptor is
 * closed once nothing reads it, which only the garbage collector knows: an install cannot tell
 * whether an answer still holds the previous set.
 */
const closeWhenUnreachable = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing held it.
  }
});

/** The longest header line read back; a real one is under 400 bytes. */
const HEADER_BYTES_MAX = 4096;

/**
 * `records` read from the snapshot file at `path`, which must be the one `header` describes (same
 * length and checksum: another process's write in between is refused); `records` themselves (in
 * memory) when the file cannot be used, with a warning.
 */
export function readFromSnapshotFile<T extends object>(records: CompactRecords<T>, path: string, header: SnapshotHeader, logger: Logger): CompactRecords<T> {
  try {
    return records.reading(snapshotBody(path, header));
  } catch (error) {
    logger.warn({ err: error, path }, 'card snapshot: cannot read records from the file; they stay in memory');
    return records;
  }
}

function snapshotBody(path: string, header: SnapshotHeader): RecordBytes {
  const fd = openSync(path, 'r');
  let bodyStart: number;
  try {
    bodyStart = headerLength(fd, header);
    const { size } = fstatSync(fd);
    if (size !== bodyStart + header.bytes) throw new Error(`the file has ${size} bytes, its header and body ${bodyStart + header.bytes}`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let scratch = Buffer.alloc(0);
  const bytes: RecordBytes = {
    byteLength: header.bytes,
    text: (start, end) => read(fd, bodyStart + start, end - start).toString('utf8'),
    bytes: (start, end) => {
      // One buffer reused by a pass over the texts: a megabyte allocated per read would be external memory that hastens full GCs.
      if (scratch.length < end - start) scratch = Buffer.allocUnsafe(end - start);
      return read(fd, bodyStart + start, end - start, scratch);
    },
    byteAt: (offset) => read(fd, bodyStart + offset, 1)[0]!,
  };
  closeWhenUnreachable.register(bytes, fd);
  return bytes;
}

/** The length of the file's header line with its `\n`, once its checksum and length are `header`'s. */
function headerLength(fd: number, header: SnapshotHeader): number {
  const head = Buffer.alloc(HEADER_BYTES_MAX);
  const length = readSync(fd, head, 0, head.length, 0);
  const newline = head.subarray(0, length).indexOf(0x0a);
  if (newline < 0) throw new Error('the file has no header line');
  const written = JSON.parse(head.toString('utf8', 0, newline)) as Partial<SnapshotHeader>;
  if (written.sha256 !== header.sha256 || written.bytes !== header.bytes) throw new Error('the file holds another snapshot than the one loaded');
  return newline + 1;
}

function read(fd: number, position: number, length: number, into = Buffer.allocUnsafe(length)): Buffer {
  const read = readSync(fd, into, 0, length, position);
  if (read !== length) throw new Error(`snapshot file ended at ${position + read}, a record ends at ${position + length}`);
  return into.subarray(0, length);
}
