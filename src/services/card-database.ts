import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { CARD_FORMAT_VERSION, isCard, type Card } from '../cards/card.js';
import { UpstreamError, isUpstreamError } from './upstream-error.js';
import type { DownloadProgress } from './http.js';
import type { DatabaseVersion, YgoprodeckClient } from './ygoprodeck.js';

/**
 * The whole YGOPRODeck card database, kept locally as YGOPRODeck asks: loaded from a snapshot in
 * `DATA_DIR/cards/` at start-up, downloaded once when there is none (or it is corrupt, or written by
 * an older card format), and downloaded again only when `checkDBVer.php` reports a new version.
 *
 * Snapshot format (`cards.snapshot`): one JSON header line (`SnapshotHeader`: versions, counts,
 * length and SHA-256 of the rest), then the normalised cards as a JSON array. Storing normalised
 * cards rather than the upstream body makes the file smaller (15 MB instead of 20 MB) and start-up
 * 3-4 times faster, because a fresh process validating and normalising 13,700 raw cards runs cold
 * code (full dump, busy 2-core machine: 0.26-0.55 s instead of 0.7-2.2 s). The price is one
 * re-download when `CARD_FORMAT_VERSION` changes. The checksum catches truncation and corruption
 * before parsing.
 */

export const CARD_DATABASE_DEFAULTS = {
  /** How often `checkDBVer.php` is asked (one tiny request). */
  pollIntervalMs: 60 * 60_000,
  /** While no card set is loaded at all, try again sooner. */
  retryIntervalMs: 5 * 60_000,
  /** A download with fewer cards is refused as corrupt (the real database has ≈14,000). */
  minCards: 5_000,
  /** A download that loses more than this share of the current cards is refused too. */
  maxShrinkRatio: 0.1,
} as const;

const SNAPSHOT_FORMAT = 'almanac-cards';
const MIB = 1024 * 1024;
const PROGRESS_STEP_BYTES = 5 * MIB;
export const SNAPSHOT_FILE = 'cards.snapshot';
const BACKUP_SUFFIX = '.bak';
const TEMP_FILE = /^cards\.snapshot\..+\.tmp$/;

const snapshotHeaderSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  /** `CARD_FORMAT_VERSION` of the code that wrote it. */
  cardFormat: z.number().int(),
  /** YGOPRODeck's `database_version`. */
  databaseVersion: z.string().min(1),
  lastUpdate: z.string().optional(),
  downloadedAt: z.number().int().nonnegative(),
  cardCount: z.number().int().positive(),
  /** Cards of the download that failed validation and were left out. */
  skippedCards: z.number().int().nonnegative(),
  bytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type SnapshotHeader = z.infer<typeof snapshotHeaderSchema>;

export interface CardDatabaseReload {
  version: string;
  previousVersion: string | null;
  size: number;
  source: 'snapshot' | 'download';
}

/** The last download attempt failed: why, when, and when the next one is due. */
export interface CardDatabaseFailure {
  /** `UpstreamError` kind (e.g. `unavailable`), or `error`. */
  reason: string;
  at: number;
  /** Null while no next attempt is scheduled (closing, or the attempt is being retried right now). */
  nextAttemptAt: number | null;
}

export interface RefreshOutcome {
  /** True when a new card set was downloaded and is now in use. */
  updated: boolean;
  version: string;
}

export interface CardDatabaseOptions {
  client: Pick<YgoprodeckClient, 'databaseVersion' | 'downloadDatabase' | 'cardById' | 'cardByName'>;
  /** `DATA_DIR`; the snapshot lives in its `cards/` folder. */
  dataDir: string;
  pollIntervalMs?: number;
  retryIntervalMs?: number;
  minCards?: number;
  logger?: Logger;
  now?: () => number;
  /** A number in [0, 1), for `random()`; injectable for tests. */
  random?: () => number;
}

interface LoadedSet {
  cards: readonly Card[];
  byId: ReadonlyMap<number, Card>;
  byName: ReadonlyMap<string, Card>;
  version: string;
  downloadedAt: number;
  loadedAt: number;
  /** Cards of the download that failed validation and were left out. */
  skipped: number;
}

export class CardDatabase {
  private readonly options: Required<Omit<CardDatabaseOptions, 'logger'>>;
  private readonly logger: Logger;
  private readonly dir: string;
  private set: LoadedSet | null = null;
  private refreshing: Promise<RefreshOutcome> | null = null;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(reload: CardDatabaseReload) => void>();
  private readonly failureListeners = new Set<(failure: CardDatabaseFailure) => void>();
  private readonly shutdown = new AbortController();
  private started = false;
  private lastCheckAt: number | null = null;
  private lastError: string | null = null;
  private lastLoadMs: number | null = null;
  // Failure reporting: what card commands tell users while no card set could be loaded.
  private lastFailureAt: number | null = null;
  private nextAttemptAt: number | null = null;

  constructor(options: CardDatabaseOptions) {
    for (const name of ['pollIntervalMs', 'retryIntervalMs', 'minCards'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new TypeError(`CardDatabase: option "${name}" must be a positive number, got ${value}`);
      }
    }
    if (typeof options.dataDir !== 'string' || options.dataDir.trim() === '') {
      throw new TypeError('CardDatabase: option "dataDir" must be a non-empty path');
    }
    this.options = {
      client: options.client,
      dataDir: options.dataDir,
      pollIntervalMs: options.pollIntervalMs ?? CARD_DATABASE_DEFAULTS.pollIntervalMs,
      retryIntervalMs: options.retryIntervalMs ?? CARD_DATABASE_DEFAULTS.retryIntervalMs,
      minCards: options.minCards ?? CARD_DATABASE_DEFAULTS.minCards,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
    };
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.dir = snapshotDirectory(options.dataDir);
  }

  /** True once a card set is loaded; until then use `lookupRemote`. */
  get ready(): boolean {
    return this.set !== null;
  }

  /** The loaded `database_version`, or null before the first load. */
  get version(): string | null {
    return this.set?.version ?? null;
  }

  get size(): number {
    return this.set?.cards.length ?? 0;
  }

  /** The last attempt to check or download failed (null after a success, and before the first attempt ends). */
  get lastFailure(): CardDatabaseFailure | null {
    if (this.lastFailureAt === null || this.lastError === null) return null;
    return { reason: this.lastError, at: this.lastFailureAt, nextAttemptAt: this.nextAttemptAt };
  }

  /** When the current card set was loaded (ms since the epoch), or null. */
  get loadedAt(): number | null {
    return this.set?.loadedAt ?? null;
  }

  /**
   * Loads the snapshot from disk when there is a valid one, then checks the upstream version in the
   * background (downloading the database when there is no snapshot) and keeps polling. Resolves
   * once the disk snapshot is loaded or found missing; it never waits on the network.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.loadSnapshotFromDisk();
    void this.poll();
  }

  /**
   * Asks `checkDBVer.php` and downloads the database when its version differs from the loaded one.
   * Concurrent calls share one check (and so one download).
   */
  refresh(): Promise<RefreshOutcome> {
    this.refreshing ??= this.checkAndDownload().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** By passcode, including the ids of alternate artworks. */
  byId(id: number): Card | undefined {
    return this.set?.byId.get(id);
  }

  /** By exact name, ignoring case. */
  byName(name: string): Card | undefined {
    return this.set?.byName.get(name.trim().toLowerCase());
  }

  all(): readonly Card[] {
    return this.set?.cards ?? [];
  }

  /** A uniformly random card whose id is not in `exclude`, or undefined when none is left. */
  random(exclude?: ReadonlySet<number>): Card | undefined {
    const cards = this.all();
    const pick = (from: readonly Card[]) => from[Math.floor(this.options.random() * from.length)];
    // Rejection sampling is enough while few cards are excluded; filter only when it keeps missing.
    for (let attempt = 0; attempt < 16 && cards.length > 0; attempt++) {
      const card = pick(cards);
      if (card && !exclude?.has(card.id)) return card;
    }
    return pick(cards.filter((card) => !exclude?.has(card.id)));
  }

  /** Asks the API (cached) by passcode or exact name: for use while `ready` is false. */
  lookupRemote(query: string | number): Promise<Card> {
    return typeof query === 'number' ? this.options.client.cardById(query) : this.options.client.cardByName(query);
  }

  /**
   * Called whenever the card set changes (first load included) so derived indexes, such as the
   * matcher, can be rebuilt. Returns an unsubscribe function. A listener added after start should
   * also build from `all()` when `ready` is already true.
   */
  onReload(listener: (reload: CardDatabaseReload) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called when an attempt to get a first card set fails (nothing loaded yet). Returns an unsubscribe function. */
  onLoadFailure(listener: (failure: CardDatabaseFailure) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /** Facts for /status. */
  details(): Record<string, string | number> {
    const set = this.set;
    return {
      cardDatabase: set ? 'local' : 'remote lookups only',
      cardDatabaseVersion: set?.version ?? 'none',
      cardDatabaseSize: set?.cards.length ?? 0,
      cardDatabaseSkippedCards: set?.skipped ?? 0,
      cardDatabaseLoadedAt: set ? new Date(set.loadedAt).toISOString() : 'never',
      cardDatabaseDownloadedAt: set ? new Date(set.downloadedAt).toISOString() : 'never',
      cardDatabaseLastCheckAt: this.lastCheckAt === null ? 'never' : new Date(this.lastCheckAt).toISOString(),
      ...(this.lastLoadMs === null ? {} : { cardDatabaseLoadMs: this.lastLoadMs }),
      ...(this.lastError === null ? {} : { cardDatabaseLastError: this.lastError }),
    };
  }

  /** Stops polling and abandons a download in progress; the snapshot on disk stays as it is. */
  async close(): Promise<void> {
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    this.shutdown.abort();
    await this.refreshing?.catch(() => undefined);
  }

  private async poll(): Promise<void> {
    this.nextAttemptAt = null;
    let failed = false;
    try {
      await this.refresh();
    } catch (error) {
      if (this.shutdown.signal.aborted) return;
      failed = true;
      this.logger.warn({ err: error, ready: this.ready }, 'card database refresh failed');
    }
    if (this.shutdown.signal.aborted) return;
    const delay = this.ready ? this.options.pollIntervalMs : this.options.retryIntervalMs;
    this.nextAttemptAt = this.options.now() + delay;
    const failure = failed && !this.ready ? this.lastFailure : null;
    if (failure) {
      for (const listener of this.failureListeners) listener(failure);
      this.logger.warn(
        { nextAttemptAt: new Date(this.nextAttemptAt).toISOString() },
        `card database: no card set yet and the download failed; next attempt in ${Math.round(delay / 60_000)} min (or seed one with npm run cards:import)`,
      );
    }
    this.pollTimer = setTimeout(() => void this.poll(), delay);
    this.pollTimer.unref();
  }

  /**
   * Progress reporting for the ≈20 MB download, so a first start says what it is doing: one line
   * when it starts, one per 5 MiB received (with a percentage when the size is announced).
   */
  private reportDownloadProgress(version: string): DownloadProgress {
    const started = performance.now();
    this.logger.info(
      { version, previousVersion: this.version },
      this.ready ? `card database: downloading version ${version} from YGOPRODeck` : 'card database: no snapshot yet, downloading it from YGOPRODeck (about 20 MB)',
    );
    let reported = 0;
    return (received, total) => {
      if (received - reported < PROGRESS_STEP_BYTES && received !== total) return;
      reported = received;
      const share = total === undefined ? '' : ` (${Math.floor((received / total) * 100)} %)`;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      this.logger.info({ receivedBytes: received, totalBytes: total }, `card database: ${(received / MIB).toFixed(1)} MiB downloaded${share} in ${seconds} s`);
    };
  }

  private async checkAndDownload(): Promise<RefreshOutcome> {
    try {
      const upstream = await this.options.client.databaseVersion();
      const { version } = upstream;
      this.lastCheckAt = this.options.now();
      if (this.set?.version === version) {
        this.lastError = null;
        this.lastFailureAt = null;
        return { updated: false, version };
      }
      const download = await this.options.client.downloadDatabase(this.shutdown.signal, this.reportDownloadProgress(version));
      const required = Math.max(this.options.minCards, Math.floor(this.size * (1 - CARD_DATABASE_DEFAULTS.maxShrinkRatio)));
      if (download.cards.length < required) {
        throw new UpstreamError(
          'ygoprodeck',
          'bad_response',
          `card database download has ${download.cards.length} valid cards, expected at least ${required}: refused as corrupt`,
        );
      }
      if (download.skipped > 0) {
        this.logger.warn({ skipped: download.skipped, problems: download.problems }, 'card database: cards failed validation and were skipped');
      }
      const header = await this.persist(download.cards, download.skipped, upstream);
      this.install(download.cards, header, 'download');
      this.logger.info({ version, cards: download.cards.length }, `card database: version ${version} downloaded and in use (${download.cards.length} cards)`);
      this.lastError = null;
      this.lastFailureAt = null;
      return { updated: true, version };
    } catch (error) {
      this.lastError = isUpstreamError(error) ? error.kind : 'error';
      this.lastFailureAt = this.options.now();
      throw error;
    }
  }

  /** Writes the snapshot of a new card set; returns its header. A failed write is logged, not thrown. */
  private async persist(cards: readonly Card[], skipped: number, upstream: DatabaseVersion): Promise<SnapshotHeader> {
    const { header, body } = buildSnapshot(cards, skipped, upstream, this.options.now());
    try {
      await writeSnapshot(this.dir, header, body);
    } catch (error) {
      // The new set is still used; the old snapshot stays on disk and the next start downloads again.
      this.logger.error({ err: error }, 'card database: could not write the snapshot');
    }
    return header;
  }

  private async loadSnapshotFromDisk(): Promise<void> {
    await removeStaleTempFiles(this.dir);
    const started = performance.now();
    this.logger.info({ dir: this.dir }, `card database: loading the snapshot from ${this.dir}`);
    for (const path of [join(this.dir, SNAPSHOT_FILE), join(this.dir, SNAPSHOT_FILE + BACKUP_SUFFIX)]) {
      try {
        const snapshot = await readSnapshot(path);
        this.install(snapshot.cards, snapshot.header, 'snapshot');
        this.lastLoadMs = Math.round(performance.now() - started);
        this.logger.info({ version: snapshot.header.databaseVersion, cards: this.size, loadMs: this.lastLoadMs }, 'card database loaded');
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        this.logger.warn({ err: error, path }, 'card database snapshot is unusable (corrupt or of an older format); it will be replaced by a fresh download');
      }
    }
  }

  private install(cards: readonly Card[], header: SnapshotHeader, source: CardDatabaseReload['source']): void {
    const byId = new Map<number, Card>();
    const byName = new Map<string, Card>();
    for (const card of cards) {
      byId.set(card.id, card);
      byName.set(card.name.toLowerCase(), card);
    }
    // Alternate-art ids lead to their card, but never shadow another card's own passcode.
    for (const card of cards) {
      for (const imageId of card.imageIds) if (!byId.has(imageId)) byId.set(imageId, card);
    }
    const previousVersion = this.version;
    this.set = {
      cards,
      byId,
      byName,
      version: header.databaseVersion,
      downloadedAt: header.downloadedAt,
      loadedAt: this.options.now(),
      skipped: header.skippedCards,
    };
    const reload: CardDatabaseReload = { version: header.databaseVersion, previousVersion, size: cards.length, source };
    for (const listener of this.listeners) {
      try {
        listener(reload);
      } catch (error) {
        this.logger.error({ err: error }, 'card database reload listener failed');
      }
    }
  }
}

export interface LoadedSnapshot {
  header: SnapshotHeader;
  cards: Card[];
}

/** Reads and verifies one snapshot file; throws (ENOENT, or a description of the problem) otherwise. */
export async function readSnapshot(path: string): Promise<LoadedSnapshot> {
  const file = await readFile(path);
  const newline = file.indexOf(0x0a);
  if (newline < 0) throw new Error('snapshot has no header line');
  let header: SnapshotHeader;
  try {
    header = snapshotHeaderSchema.parse(JSON.parse(file.subarray(0, newline).toString('utf8')));
  } catch (error) {
    throw new Error('snapshot header is invalid', { cause: error });
  }
  if (header.cardFormat !== CARD_FORMAT_VERSION) {
    throw new Error(`snapshot holds cards of format ${header.cardFormat}, this code reads format ${CARD_FORMAT_VERSION}`);
  }
  const body = file.subarray(newline + 1);
  if (body.length !== header.bytes) throw new Error(`snapshot body has ${body.length} bytes, header says ${header.bytes}`);
  if (sha256(body) !== header.sha256) throw new Error('snapshot checksum mismatch');
  const cards: unknown = JSON.parse(body.toString('utf8'));
  if (!Array.isArray(cards) || cards.length !== header.cardCount || !cards.every(isCard)) {
    throw new Error('snapshot does not hold the cards its header announces');
  }
  return { header, cards };
}

/** Where the snapshot of `DATA_DIR` lives. */
export function snapshotDirectory(dataDir: string): string {
  return join(dataDir, 'cards');
}

/** The header and body of a snapshot of `cards` (for `writeSnapshot`). */
export function buildSnapshot(
  cards: readonly Card[],
  skipped: number,
  upstream: DatabaseVersion,
  downloadedAt: number,
): { header: SnapshotHeader; body: Buffer } {
  const body = Buffer.from(JSON.stringify(cards));
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    cardFormat: CARD_FORMAT_VERSION,
    databaseVersion: upstream.version,
    ...(upstream.lastUpdate === undefined ? {} : { lastUpdate: upstream.lastUpdate }),
    downloadedAt,
    cardCount: cards.length,
    skippedCards: skipped,
    bytes: body.length,
    sha256: sha256(body),
  };
  return { header, body };
}

/**
 * Replaces the snapshot so that a crash at any point leaves a loadable one: the new file is written
 * and flushed under a temporary name; the current one becomes `.bak`, the new one takes its name, and
 * `.bak` is removed only once the rename is flushed. Loading falls back to `.bak` when the main file
 * is missing (a crash between the two renames).
 */
export async function writeSnapshot(dir: string, header: SnapshotHeader, body: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  const current = join(dir, SNAPSHOT_FILE);
  const backup = current + BACKUP_SUFFIX;
  const temp = join(dir, `${SNAPSHOT_FILE}.${process.pid}.${randomUUID()}.tmp`);
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

/** Temporary files left by a crash mid-write are never loaded; remove them. */
async function removeStaleTempFiles(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(names.filter((name) => TEMP_FILE.test(name)).map((name) => rm(join(dir, name), { force: true })));
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
