import type { Logger } from 'pino';
import { GenesysPool, isGenesysEntry, type GenesysEntry } from '../../cards/genesys.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readSnapshotOrBackup, SNAPSHOT_FORMATS, snapshotFile, snapshotHeader, writeSnapshot } from './card-snapshot.js';
import type { CompactDownload } from '../off-thread/compact-download.js';
import type { DatabaseVersion } from './ygoprodeck.js';

/**
 * The Genesys pool's points (`cardinfo.php?format=genesys&misc=yes`), kept like a language's texts:
 * a snapshot in `DATA_DIR/cards/cards.genesys.snapshot` (one `GenesysEntry` JSON line per card),
 * downloaded once per database version. In memory only the `GenesysPool` stays (a few bytes a
 * card): nothing else reads the records, so neither the body nor any parsed line is kept.
 * `CardDatabase` decides when to download; this holds what was loaded.
 */

export interface GenesysReload {
  version: string;
  size: number;
  source: 'snapshot' | 'download';
}

const FILE = snapshotFile('genesys');
const NEWLINE = 0x0a;

export class GenesysPoints {
  private pool: GenesysPool | null = null;
  private loadedVersion: string | null = null;
  /** Why the last download failed (an UpstreamError kind, or `error`), cleared by a success. */
  lastError: string | null = null;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** The database version the points are of, or null before any is loaded. */
  get version(): string | null {
    return this.loadedVersion;
  }

  get size(): number {
    return this.pool?.size ?? 0;
  }

  /** The pool, or null before it is loaded. */
  get current(): GenesysPool | null {
    return this.pool;
  }

  /** Loads the snapshot (or its `.bak`) when there is a usable one; returns what it loaded, or null. */
  async loadFromDisk(): Promise<GenesysReload | null> {
    const snapshot = await readSnapshotOrBackup(this.dir, FILE, SNAPSHOT_FORMATS.genesys, (error, path) =>
      this.logger.warn({ err: error, path }, 'Genesys points snapshot is unusable (corrupt or of an older format); it will be replaced by a fresh download'),
    );
    if (snapshot === null) return null;
    try {
      const entries = await entriesOf(snapshot.body);
      if (entries.length !== snapshot.header.cardCount) throw new Error('snapshot does not hold the cards its header announces');
      return this.install(entries, snapshot.header.databaseVersion, 'snapshot');
    } catch (error) {
      this.logger.warn({ err: error, path: snapshot.path }, 'Genesys points snapshot is unusable; it will be replaced by a fresh download');
      return null;
    }
  }

  /**
   * Makes a validated download current: persisted first (a failed write is logged, the points are
   * still used), then installed. The caller has already refused a short or truncated download.
   */
  async replace(download: CompactDownload, upstream: DatabaseVersion): Promise<GenesysReload> {
    const entries = await entriesOf(download.body);
    const header = await snapshotHeader(
      {
        format: SNAPSHOT_FORMATS.genesys,
        databaseVersion: upstream.version,
        ...(upstream.lastUpdate === undefined ? {} : { lastUpdate: upstream.lastUpdate }),
        downloadedAt: this.now(),
        cardCount: entries.length,
        skippedCards: download.skipped,
      },
      download.body,
    );
    try {
      await writeSnapshot(this.dir, FILE, header, download.body);
    } catch (error) {
      this.logger.error({ err: error }, 'Genesys points: could not write the snapshot');
    }
    return this.install(entries, upstream.version, 'download');
  }

  /** Facts for /status, e.g. `genesysPoints: "1.00 (11987 cards)"`. */
  details(): Record<string, string> {
    const state = this.pool === null ? 'not loaded' : `${this.loadedVersion} (${this.pool.size} cards)`;
    return { genesysPoints: this.lastError === null ? state : `${state}; last download failed: ${this.lastError}` };
  }

  private install(entries: GenesysEntry[], version: string, source: GenesysReload['source']): GenesysReload {
    this.pool = new GenesysPool(entries);
    this.loadedVersion = version;
    return { version, size: this.pool.size, source };
  }
}

/** Lines parsed between two turns of the event loop: about 3 ms of a pool's 13,000 (≈40 ms in one go). */
const LINES_PER_SLICE = 1_000;

/** Every entry of a body of JSON lines, the event loop free between slices; throws on a line that is not one. */
async function entriesOf(body: Buffer): Promise<GenesysEntry[]> {
  const entries: GenesysEntry[] = [];
  for (let start = 0; start < body.length; ) {
    if (entries.length > 0 && entries.length % LINES_PER_SLICE === 0) await nextTurn();
    const end = body.indexOf(NEWLINE, start);
    if (end < 0) throw new Error(`record ${entries.length} has no line end`);
    const record: unknown = JSON.parse(body.toString('utf8', start, end));
    if (!isGenesysEntry(record)) throw new Error(`record ${entries.length} is not a Genesys entry`);
    entries.push(record);
    start = end + 1;
  }
  return entries;
}
