import { pino, type Logger } from 'pino';
import type { BanlistedCard } from '../../cards/banlist.js';
import { CARD_FORMAT_VERSION, CARD_LANGUAGES, type Card, type CardLanguage } from '../../cards/card.js';
import type { CardSummary } from '../../cards/card-summary.js';
import type { CardTranslation } from '../../cards/card-translation.js';
import type { EffectTexts } from '../../cards/text-search.js';
import type { CardDatabaseFailure } from '../../cards/card-database-failure.js';
import type { CompactRecords } from '../../cards/compact-records.js';
import {
  readSnapshotOrBackup,
  removeStaleTempFiles,
  SNAPSHOT_FILE,
  SNAPSHOT_FORMATS,
  snapshotDirectory,
  type SnapshotHeader,
} from './card-snapshot.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import { persistCards, refuseShortDownload, reportDownloadProgress } from './card-downloads.js';
import { LanguageTexts, type TextsReload } from './card-texts.js';
import { GenesysPoints, type GenesysReload } from './card-genesys.js';
import type { GenesysPool } from '../../cards/genesys.js';
import { banlistedCards, cardById, cardByName, cardsInSet, loadedCards, lookupsOfRecords, parseCards, randomCard, summaryById, type CardLookups, type LoadedCards } from './loaded-cards.js';
import { notifyAll } from '../../upstream/notify.js';
import { isUpstreamError } from '../../interaction/upstream-error.js';
import { withDefaults, type CardDatabaseOptions, type ResolvedCardDatabaseOptions } from './card-database-options.js';
import { recordsOf } from '../off-thread/compact-download.js';
import type { DatabaseVersion } from './ygoprodeck.js';
import { readFromSnapshotFile } from './snapshot-bytes.js';

/**
 * The whole YGOPRODeck card database, kept locally as YGOPRODeck asks, in English and in each
 * language YGOPRODeck translates (`CARD_LANGUAGES`): loaded from snapshots in `DATA_DIR/cards/` at
 * start-up, downloaded once when there is none (or it is corrupt, or written by an older card
 * format), and downloaded again only when `checkDBVer.php` reports a new version: one download per
 * database per version, English first, then each language in turn (never two ≈20 MB bodies parsed
 * at once). A failed or refused download keeps the database loaded before it, and is tried again at
 * the next check.
 *
 * In memory each card is compact (`CompactRecords`: one buffer of JSON lines, parsed on demand, a
 * small LRU of parsed cards); only its `CardSummary` (names, and what search filters on) and the
 * lookups by passcode, name and set stay live. Storing normalised cards rather than the upstream
 * body makes the English snapshot smaller (15 MB instead of 20 MB) and start-up 3-4 times faster
 * than normalising 13,700 raw cards with cold code. The price is one re-download when
 * `CARD_FORMAT_VERSION` changes; a snapshot of a format still readable serves until it is done.
 */

/**
 * The shape of what `downloadOnce` shares (`CompactDownload`), named in its keys: `compact-v2` has
 * each record's line start (`starts`). An entry of the first shape (`compact`, without) is never
 * read, so no process meets a download without starts; a fleet mixing both codes downloads once per shape.
 */
const COMPACT_DOWNLOAD = 'compact-v2';

export interface CardDatabaseReload {
  version: string;
  previousVersion: string | null;
  size: number;
  source: 'snapshot' | 'download';
}

interface RefreshOutcome {
  /** True when a new English card set was downloaded and is now in use. */
  updated: boolean;
  version: string;
}

export class CardDatabase {
  private readonly options: ResolvedCardDatabaseOptions;
  private readonly logger: Logger;
  private readonly dir: string;
  private readonly texts: ReadonlyMap<CardLanguage, LanguageTexts>;
  private set: LoadedCards | null = null;
  private refreshing: Promise<RefreshOutcome> | null = null;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(reload: CardDatabaseReload) => void>();
  private readonly textsListeners = new Set<(reload: TextsReload) => void>();
  private readonly genesys: GenesysPoints;
  private readonly genesysListeners = new Set<(reload: GenesysReload) => void>();
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
    const languages = options.languages ?? CARD_LANGUAGES;
    this.options = withDefaults(options, languages);
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.dir = snapshotDirectory(options.dataDir);
    this.genesys = new GenesysPoints(this.dir, this.logger.child({ part: 'genesys' }), this.options.now);
    this.texts = new Map(
      languages.map((language) => [language, new LanguageTexts(language, this.dir, this.logger.child({ language }), this.options.now)]),
    );
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
    return this.set?.records.length ?? 0;
  }

  /** The last attempt to check or download failed (null after a success, and before the first attempt ends). */
  get lastFailure(): CardDatabaseFailure | null {
    if (this.lastFailureAt === null || this.lastError === null) return null;
    return { reason: this.lastError, at: this.lastFailureAt, nextAttemptAt: this.nextAttemptAt };
  }

  /** When the current card set was downloaded from YGOPRODeck (ms since the epoch), or null. */
  get downloadedAt(): number | null {
    return this.set?.downloadedAt ?? null;
  }

  /** When the current card set was loaded (ms since the epoch), or null. */
  get loadedAt(): number | null {
    return this.set?.loadedAt ?? null;
  }

  /**
   * Loads the snapshots from disk when there are valid ones, then checks the upstream version in
   * the background (downloading what has no snapshot) and keeps polling. Resolves once the disk
   * snapshots are loaded or found missing; it never waits on the network.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await removeStaleTempFiles(this.dir);
    // The languages' texts first: the English load then announces a card set whose names in every
    // language are there, so the matcher is built once at start, not once more per language.
    const loadedTexts: TextsReload[] = [];
    for (const texts of this.texts.values()) {
      const reload = await texts.loadFromDisk();
      if (reload !== null) loadedTexts.push(reload);
    }
    const loadedGenesys = await this.genesys.loadFromDisk();
    await this.loadSnapshotFromDisk();
    for (const reload of loadedTexts) this.announceTexts(reload);
    if (loadedGenesys !== null) this.announceGenesys(loadedGenesys);
    void this.poll();
  }

  /**
   * Asks `checkDBVer.php` and downloads each database whose version differs from it. Concurrent
   * calls share one check (and so one download of each).
   */
  refresh(): Promise<RefreshOutcome> {
    this.refreshing ??= this.checkAndDownload().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** By passcode, including the ids of alternate artworks. */
  byId(id: number): Card | undefined {
    return this.set === null ? undefined : cardById(this.set, id);
  }

  /** The live summary of the card with this passcode (alternate-art ids included); parses nothing. */
  summaryById(id: number): CardSummary | undefined {
    return this.set === null ? undefined : summaryById(this.set, id);
  }

  /** By exact name, ignoring case. */
  byName(name: string): Card | undefined {
    return this.set === null ? undefined : cardByName(this.set, name);
  }

  /** Every card's summary, in database order. */
  summaries(): readonly CardSummary[] {
    return this.set?.summaries ?? [];
  }

  /**
   * The records holding the effect texts (English's, or `language`'s translations) with the passcode
   * of each, for `/card search`'s text filter to read where they already are; null while none is loaded.
   */
  effectTexts(language?: CardLanguage): EffectTexts | null {
    if (language !== undefined) return this.texts.get(language)?.effectTexts() ?? null;
    const set = this.set;
    return set === null ? null : { records: set.records, idAt: (index) => set.summaries[index]!.id };
  }

  /** The cards on any ban list, with what a list needs of them (none while no set is loaded). */
  banlistedCards(): BanlistedCard[] {
    return this.set === null ? [] : banlistedCards(this.set);
  }

  /** The cards printed in the set named `setName`, parsed for the caller and not kept in the LRU. */
  cardsInSet(setName: string): Card[] {
    return this.set === null ? [] : cardsInSet(this.set, setName);
  }

  /** A uniformly random card whose id is not in `exclude` and that `accept`s (any when absent), or undefined when none is left. */
  random(exclude?: ReadonlySet<number>, accept?: (summary: CardSummary) => boolean): Card | undefined {
    return this.set === null ? undefined : randomCard(this.set, this.options.random, exclude, accept);
  }

  /** False while no card set is loaded, or when the loaded one lists no formats at all (a dump saved without `misc=yes`). */
  get knowsFormats(): boolean {
    return this.set?.knowsFormats ?? false;
  }

  /** The Genesys pool's points, or null before they are loaded. */
  genesysPool(): GenesysPool | null {
    return this.genesys.current;
  }

  /** The database version the Genesys points are of, or null before they are loaded. */
  get genesysVersion(): string | null {
    return this.genesys.version;
  }

  /** Called whenever the Genesys points change (first load included). Returns an unsubscribe function. */
  onGenesysReload(listener: (reload: GenesysReload) => void): () => void {
    this.genesysListeners.add(listener);
    return () => this.genesysListeners.delete(listener);
  }

  /** True once `language`'s texts are loaded: from then on, a card without a translation there has none. */
  hasTexts(language: CardLanguage): boolean {
    return this.texts.get(language)?.ready ?? false;
  }

  /** The card's name and texts in `language`, from the local language database; undefined when it has none. */
  translation(id: number, language: CardLanguage): CardTranslation | undefined {
    return this.texts.get(language)?.translation(id);
  }

  /**
   * Every card's name in `language` (passcode → name), for matching names typed in that language;
   * empty until that language's database is loaded (see `onTextsReload`). Cards upstream has not
   * translated are absent.
   */
  localNames(language: CardLanguage): ReadonlyMap<number, string> {
    return this.texts.get(language)?.names ?? new Map();
  }

  /** Asks the API (cached) by passcode or exact name: for use while `ready` is false. A request is spent from `share`. */
  lookupRemote(query: string | number, share?: MemberShareSpender): Promise<Card> {
    return typeof query === 'number' ? this.options.client.cardById(query, share) : this.options.client.cardByName(query, share);
  }

  /**
   * Called whenever the English card set changes (first load included) so derived indexes, such as
   * the matcher, can be rebuilt. Returns an unsubscribe function. A listener added after start
   * should also build from `summaries()` when `ready` is already true.
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

  /** Called whenever a language's texts change (first load included); `localNames` then has the new names. */
  onTextsReload(listener: (reload: TextsReload) => void): () => void {
    this.textsListeners.add(listener);
    return () => this.textsListeners.delete(listener);
  }

  /** Facts for /status. */
  details(): Record<string, string | number> {
    const set = this.set;
    return {
      cardDatabase: set ? 'local' : 'remote lookups only',
      cardDatabaseVersion: set?.version ?? 'none',
      cardDatabaseSize: set?.records.length ?? 0,
      cardDatabaseSkippedCards: set?.skipped ?? 0,
      cardDatabaseLoadedAt: set ? new Date(set.loadedAt).toISOString() : 'never',
      cardDatabaseDownloadedAt: set ? new Date(set.downloadedAt).toISOString() : 'never',
      cardDatabaseLastCheckAt: this.lastCheckAt === null ? 'never' : new Date(this.lastCheckAt).toISOString(),
      ...(this.lastLoadMs === null ? {} : { cardDatabaseLoadMs: this.lastLoadMs }),
      ...(this.lastError === null ? {} : { cardDatabaseLastError: this.lastError }),
      ...this.genesys.details(),
      ...Object.assign({}, ...[...this.texts.values()].map((texts) => texts.details())),
    };
  }

  /** Stops polling and abandons a download in progress; the snapshots on disk stay as they are. */
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

  private async checkAndDownload(): Promise<RefreshOutcome> {
    let upstream: DatabaseVersion;
    let updated = false;
    try {
      upstream = await this.options.client.databaseVersion();
      this.lastCheckAt = this.options.now();
      // A snapshot of an older card format serves until this download replaces it, even at the same version.
      if (this.set?.version !== upstream.version || this.set.cardFormat !== CARD_FORMAT_VERSION) {
        const version = upstream.version;
        // The card format and the download's shape are in the key: a fleet member running older code shares nothing of another shape.
        const download = await this.options.downloadOnce(`cards:en:${version}:${CARD_FORMAT_VERSION}:${COMPACT_DOWNLOAD}`, () =>
          this.options.client.downloadDatabase(this.shutdown.signal, reportDownloadProgress(this.logger, version, { ready: this.ready, previousVersion: this.version })),
        );
        refuseShortDownload('card database', download, this.size, this.options.minCards, this.logger);
        const records = recordsOf<Card>(download);
        const lookups = await lookupsOfRecords(records);
        const persisted = await persistCards(this.dir, { records, body: download.body }, download.skipped, upstream, this.options.now(), this.logger);
        this.install(persisted.records, lookups, persisted.header, 'download');
        this.logger.info({ version, cards: records.length }, `card database: version ${version} downloaded and in use (${records.length} cards)`);
        updated = true;
      }
      this.lastError = null;
      this.lastFailureAt = null;
    } catch (error) {
      this.lastError = isUpstreamError(error) ? error.kind : 'error';
      this.lastFailureAt = this.options.now();
      throw error;
    }
    await this.refreshGenesys(upstream);
    await this.refreshTexts(upstream);
    return { updated, version: upstream.version };
  }

  /** Downloads the Genesys pool when its points are not at `upstream`'s version; a failure keeps the old points. */
  private async refreshGenesys(upstream: DatabaseVersion): Promise<void> {
    if (this.shutdown.signal.aborted || this.genesys.version === upstream.version) return;
    try {
      const download = await this.options.downloadOnce(`cards:genesys:${upstream.version}:${COMPACT_DOWNLOAD}`, () =>
        this.options.client.downloadGenesys(this.shutdown.signal),
      );
      // The pool leaves out Link and Pendulum monsters, skills and tokens: it is held to the same floor, not to the English size.
      refuseShortDownload('Genesys pool', download, this.genesys.size, this.options.minCards, this.logger);
      this.announceGenesys(await this.genesys.replace(download, upstream));
      this.genesys.lastError = null;
    } catch (error) {
      this.genesys.lastError = isUpstreamError(error) ? error.kind : 'error';
      if (this.shutdown.signal.aborted) return;
      this.logger.warn({ err: error, kept: this.genesys.version ?? 'none' }, 'Genesys pool download failed; the previous points are kept');
    }
  }

  /** Downloads, one after the other, each language whose texts are not at `upstream`'s version; a failure keeps that language's old texts. */
  private async refreshTexts(upstream: DatabaseVersion): Promise<void> {
    for (const texts of this.texts.values()) {
      if (this.shutdown.signal.aborted) return;
      if (texts.version === upstream.version) continue;
      try {
        const download = await this.options.downloadOnce(`cards:${texts.language}:${upstream.version}:${COMPACT_DOWNLOAD}`, () =>
          this.options.client.downloadTexts(texts.language, this.shutdown.signal),
        );
        refuseShortDownload(`${texts.language} card texts`, download, texts.size, this.options.minCards, this.logger);
        this.announceTexts(await texts.replace(download, upstream));
        texts.lastError = null;
      } catch (error) {
        texts.lastError = isUpstreamError(error) ? error.kind : 'error';
        if (this.shutdown.signal.aborted) return;
        this.logger.warn({ err: error, language: texts.language, kept: texts.version ?? 'none' }, 'card texts download failed; the previous texts are kept');
      }
    }
  }

  private async loadSnapshotFromDisk(): Promise<void> {
    const started = performance.now();
    this.logger.info({ dir: this.dir }, `card database: loading the snapshot from ${this.dir}`);
    const snapshot = await readSnapshotOrBackup(this.dir, SNAPSHOT_FILE, SNAPSHOT_FORMATS.cards, (error, path) =>
      this.logger.warn({ err: error, path }, 'card database snapshot is unusable (corrupt or of an older format); it will be replaced by a fresh download'),
    );
    if (snapshot === null) return;
    try {
      const { records, lookups } = parseCards(snapshot.body);
      if (records.length !== snapshot.header.cardCount) throw new Error('snapshot does not hold the cards its header announces');
      this.install(readFromSnapshotFile(records, snapshot.path, snapshot.header, this.logger), lookups, snapshot.header, 'snapshot');
      this.lastLoadMs = Math.round(performance.now() - started);
      this.logger.info({ version: snapshot.header.databaseVersion, cards: this.size, loadMs: this.lastLoadMs }, 'card database loaded');
    } catch (error) {
      this.logger.warn({ err: error, path: snapshot.path }, 'card database snapshot is unusable; it will be replaced by a fresh download');
    }
  }

  /** Makes `records` current, with the live parts `lookups` built from the same cards. */
  private install(records: CompactRecords<Card>, lookups: CardLookups, header: SnapshotHeader, source: CardDatabaseReload['source']): void {
    const previousVersion = this.version;
    this.set = loadedCards(records, lookups, header, this.options.now());
    notifyAll(this.listeners, { version: header.databaseVersion, previousVersion, size: records.length, source }, this.logger, 'card database reload listener failed');
  }

  private announceGenesys(reload: GenesysReload): void {
    this.logger.info(reload, 'Genesys points loaded');
    notifyAll(this.genesysListeners, reload, this.logger, 'Genesys points reload listener failed');
  }

  private announceTexts(reload: TextsReload): void {
    this.logger.info(reload, 'card texts loaded');
    notifyAll(this.textsListeners, reload, this.logger, 'card texts reload listener failed');
  }
}
