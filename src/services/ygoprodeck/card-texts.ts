import type { Logger } from 'pino';
import type { CardLanguage } from '../../cards/card.js';
import { isCardTranslation, type CardTranslation } from '../../cards/card-translation.js';
import { CompactRecords } from '../../cards/compact-records.js';
import type { EffectTexts } from '../../cards/text-search.js';
import { readSnapshotOrBackup, SNAPSHOT_FORMATS, snapshotFile, snapshotHeader, writeSnapshot, type SnapshotHeader } from './card-snapshot.js';
import { recordsOf, type CompactDownload } from '../off-thread/compact-download.js';
import type { DatabaseVersion } from './ygoprodeck.js';
import { readFromSnapshotFile } from './snapshot-bytes.js';
import { join } from 'node:path';

/**
 * One language's card names and texts (`cardinfo.php?language=…`), kept like the English database:
 * a snapshot in `DATA_DIR/cards/cards.<language>.snapshot`, compact in memory (`CompactRecords`),
 * names live for matching. Cards upstream has not translated are absent; they show in English.
 * `CardDatabase` decides when to download; this holds what was loaded.
 */

export interface TextsReload {
  language: CardLanguage;
  version: string;
  size: number;
  source: 'snapshot' | 'download';
}

interface LoadedTexts {
  records: CompactRecords<CardTranslation>;
  /** Passcode → record index. */
  indexById: Map<number, number>;
  /** Passcode → translated name: what matching in this language needs on every keystroke. */
  names: Map<number, string>;
  /** Record index → passcode, for a pass over the texts (`/card search`'s text filter). */
  idsByIndex: Uint32Array;
  version: string;
  downloadedAt: number;
  loadedAt: number;
  skipped: number;
}

type Lookups = Pick<LoadedTexts, 'indexById' | 'names'>;

const NO_NAMES: ReadonlyMap<number, string> = new Map();

function newLookups(): Lookups {
  return { indexById: new Map(), names: new Map() };
}

function addLookups(lookups: Lookups, id: number, name: string, index: number): void {
  lookups.indexById.set(id, index);
  lookups.names.set(id, name);
}

export class LanguageTexts {
  readonly language: CardLanguage;
  private readonly dir: string;
  private readonly logger: Logger;
  private readonly now: () => number;
  private loaded: LoadedTexts | null = null;
  /** Why the last download failed (an UpstreamError kind, or `error`), cleared by a success. */
  lastError: string | null = null;

  constructor(language: CardLanguage, dir: string, logger: Logger, now: () => number) {
    this.language = language;
    this.dir = dir;
    this.logger = logger;
    this.now = now;
  }

  /** True once this language's texts are loaded (from a snapshot or a download). */
  get ready(): boolean {
    return this.loaded !== null;
  }

  get version(): string | null {
    return this.loaded?.version ?? null;
  }

  get size(): number {
    return this.loaded?.records.length ?? 0;
  }

  /** Passcode → name in this language; empty until loaded. */
  get names(): ReadonlyMap<number, string> {
    return this.loaded?.names ?? NO_NAMES;
  }

  /** The card's name and texts in this language; undefined when upstream has no translation of it (or nothing is loaded). */
  translation(id: number): CardTranslation | undefined {
    const index = this.loaded?.indexById.get(id);
    return index === undefined ? undefined : this.loaded!.records.get(index);
  }

  /** The translations' records with each one's passcode, read where they are; null until loaded. */
  effectTexts(): EffectTexts | null {
    const loaded = this.loaded;
    return loaded === null ? null : { records: loaded.records, idAt: (index) => loaded.idsByIndex[index]! };
  }

  /** Loads the snapshot (or its `.bak`) when there is a usable one; returns what it loaded, or null. */
  async loadFromDisk(): Promise<TextsReload | null> {
    const snapshot = await readSnapshotOrBackup(this.dir, snapshotFile(this.language), SNAPSHOT_FORMATS.texts, (error, path) =>
      this.logger.warn({ err: error, path, language: this.language }, 'card texts snapshot is unusable (corrupt or of an older format); it will be replaced by a fresh download'),
    );
    if (snapshot === null) return null;
    try {
      const lookups = newLookups();
      const records = CompactRecords.parse(snapshot.body, (record, index): record is CardTranslation => {
        if (!isCardTranslation(record)) return false;
        addLookups(lookups, record.id, record.name, index);
        return true;
      });
      if (records.length !== snapshot.header.cardCount || snapshot.header.language !== this.language) {
        throw new Error('snapshot does not hold the texts its header announces');
      }
      return this.install(readFromSnapshotFile(records, snapshot.path, snapshot.header, this.logger), lookups, snapshot.header, 'snapshot');
    } catch (error) {
      this.logger.warn({ err: error, path: snapshot.path, language: this.language }, 'card texts snapshot is unusable; it will be replaced by a fresh download');
      return null;
    }
  }

  /**
   * Makes a validated download current: persisted first (a failed write is logged, the texts are
   * still used), then installed. The caller has already refused a short or truncated download.
   * Nothing here parses a record: the download was read off the event loop (see
   * src/services/off-thread) and carries each record's passcode and name.
   */
  async replace(download: CompactDownload, upstream: DatabaseVersion): Promise<TextsReload> {
    const records = recordsOf<CardTranslation>(download);
    const lookups = newLookups();
    download.ids.forEach((id, index) => addLookups(lookups, id, download.names[index]!, index));
    const header = await snapshotHeader(
      {
        format: SNAPSHOT_FORMATS.texts,
        databaseVersion: upstream.version,
        language: this.language,
        ...(upstream.lastUpdate === undefined ? {} : { lastUpdate: upstream.lastUpdate }),
        downloadedAt: this.now(),
        cardCount: records.length,
        skippedCards: download.skipped,
      },
      download.body,
    );
    const file = snapshotFile(this.language);
    try {
      await writeSnapshot(this.dir, file, header, download.body);
    } catch (error) {
      this.logger.error({ err: error, language: this.language }, 'card texts: could not write the snapshot');
      return this.install(records, lookups, header, 'download');
    }
    return this.install(readFromSnapshotFile(records, join(this.dir, file), header, this.logger), lookups, header, 'download');
  }

  /** Facts for /status, e.g. `cardTextsFr: "1.00 (13291 cards)"`. */
  details(): Record<string, string> {
    const key = `cardTexts${this.language[0]!.toUpperCase()}${this.language.slice(1)}`;
    const loaded = this.loaded;
    const state = loaded === null ? 'not loaded' : `${loaded.version} (${loaded.records.length} cards)`;
    return { [key]: this.lastError === null ? state : `${state}; last download failed: ${this.lastError}` };
  }

  private install(records: CompactRecords<CardTranslation>, lookups: Lookups, header: SnapshotHeader, source: TextsReload['source']): TextsReload {
    const idsByIndex = new Uint32Array(records.length);
    for (const [id, index] of lookups.indexById) idsByIndex[index] = id;
    this.loaded = {
      records,
      ...lookups,
      idsByIndex,
      version: header.databaseVersion,
      downloadedAt: header.downloadedAt,
      loadedAt: this.now(),
      skipped: header.skippedCards,
    };
    return { language: this.language, version: header.databaseVersion, size: records.length, source };
  }
}
