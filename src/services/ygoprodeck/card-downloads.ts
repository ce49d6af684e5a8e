import type { Logger } from 'pino';
import type { Card } from '../../cards/card.js';
import type { CompactRecords } from '../../cards/compact-records.js';
import { UpstreamError } from '../../interaction/upstream-error.js';
import { SNAPSHOT_FILE, SNAPSHOT_FORMATS, snapshotHeader, writeSnapshot, type SnapshotHeader } from './card-snapshot.js';
import type { DownloadProgress } from '../../upstream/http.js';
import type { CompactDownload } from '../off-thread/compact-download.js';
import type { DatabaseVersion } from './ygoprodeck.js';
import { readFromSnapshotFile } from './snapshot-bytes.js';
import { join } from 'node:path';

/** What a card database download must pass before it replaces anything, and how it is kept and reported. */

/** A download that loses more than this share of the current cards is refused. */
const MAX_SHRINK_RATIO = 0.1;
const MIB = 1024 * 1024;
const PROGRESS_STEP_BYTES = 5 * MIB;

/** A truncated or shrunken download (upstream once served 304 cards) must never replace good data. */
export function refuseShortDownload(what: string, download: Pick<CompactDownload, 'ids' | 'skipped' | 'problems'>, currentSize: number, minCards: number, logger: Logger): void {
  const required = Math.max(minCards, Math.floor(currentSize * (1 - MAX_SHRINK_RATIO)));
  if (download.ids.length < required) {
    throw new UpstreamError(
      'ygoprodeck',
      'bad_response',
      `${what} download has ${download.ids.length} valid cards, expected at least ${required}: refused as corrupt`,
    );
  }
  if (download.skipped > 0) {
    logger.warn({ what, skipped: download.skipped, problems: download.problems }, 'cards failed validation and were skipped');
  }
}

/**
 * Writes the snapshot of a new card set; returns its header and the records to keep: read from the
 * new file, or still in memory when the write failed (logged, not thrown).
 */
export async function persistCards(
  dir: string,
  { records, body }: { records: CompactRecords<Card>; body: Buffer },
  skipped: number,
  upstream: DatabaseVersion,
  downloadedAt: number,
  logger: Logger,
): Promise<{ header: SnapshotHeader; records: CompactRecords<Card> }> {
  const header = await snapshotHeader(
    {
      format: SNAPSHOT_FORMATS.cards,
      databaseVersion: upstream.version,
      ...(upstream.lastUpdate === undefined ? {} : { lastUpdate: upstream.lastUpdate }),
      downloadedAt,
      cardCount: records.length,
      skippedCards: skipped,
    },
    body,
  );
  try {
    await writeSnapshot(dir, SNAPSHOT_FILE, header, body);
  } catch (error) {
    // The new set is still used; the old snapshot stays on disk and the next start downloads again.
    logger.error({ err: error }, 'card database: could not write the snapshot');
    return { header, records };
  }
  return { header, records: readFromSnapshotFile(records, join(dir, SNAPSHOT_FILE), header, logger) };
}

/**
 * Progress reporting for the ≈20 MB download, so a first start says what it is doing: one line
 * when it starts, one per 5 MiB received (with a percentage when the size is announced).
 */
export function reportDownloadProgress(logger: Logger, version: string, current: { ready: boolean; previousVersion: string | null }): DownloadProgress {
  const started = performance.now();
  logger.info(
    { version, previousVersion: current.previousVersion },
    current.ready ? `card database: downloading version ${version} from YGOPRODeck` : 'card database: no snapshot yet, downloading it from YGOPRODeck (about 20 MB)',
  );
  let reported = 0;
  return (received, total) => {
    if (received - reported < PROGRESS_STEP_BYTES && received !== total) return;
    reported = received;
    const share = total === undefined ? '' : ` (${Math.floor((received / total) * 100)} %)`;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    logger.info({ receivedBytes: received, totalBytes: total }, `card database: ${(received / MIB).toFixed(1)} MiB downloaded${share} in ${seconds} s`);
  };
}
