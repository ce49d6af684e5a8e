import type { Logger } from 'pino';
import { CARD_LANGUAGES, type CardLanguage } from '../../cards/card.js';
import type { YgoprodeckClient } from './ygoprodeck.js';

/** How `CardDatabase` is set up: its dependencies, its timings and their defaults, checked once. */
const CARD_DATABASE_DEFAULTS = {
  /** How often `checkDBVer.php` is asked (one tiny request). */
  pollIntervalMs: 60 * 60_000,
  /** While no card set is loaded at all, try again sooner. */
  retryIntervalMs: 5 * 60_000,
  /** A download with fewer cards is refused as corrupt (the real database has ≈14,000, each language ≈97 % of them). */
  minCards: 5_000,
} as const;


/**
 * Runs a database download for `key` (`cards:<language>:<version>`) and returns its result (plain
 * data: the validated cards). The default runs it at once: one process. A fleet plugs in its shared
 * state's `downloadOnce` here (src/state): with Redis, one process downloads each database version
 * and the others receive the same result; each process then checks, persists and installs it itself.
 */
export type DownloadOnce = <T>(key: string, download: () => Promise<T>) => Promise<T>;

export interface CardDatabaseOptions {
  client: Pick<YgoprodeckClient, 'databaseVersion' | 'downloadDatabase' | 'downloadTexts' | 'downloadGenesys' | 'cardById' | 'cardByName'>;
  /** `DATA_DIR`; the snapshots live in its `cards/` folder. */
  dataDir: string;
  pollIntervalMs?: number;
  retryIntervalMs?: number;
  minCards?: number;
  /** Languages kept besides English; all of `CARD_LANGUAGES` by default. */
  languages?: readonly CardLanguage[];
  downloadOnce?: DownloadOnce;
  logger?: Logger;
  now?: () => number;
  /** A number in [0, 1), for `random()`; injectable for tests. */
  random?: () => number;
}

const runAtOnce: DownloadOnce = (_key, download) => download();

export type ResolvedCardDatabaseOptions = Required<Omit<CardDatabaseOptions, 'logger' | 'languages'>>;

/** `options` checked (a `TypeError` naming the option otherwise), with the defaults filled in. */
export function withDefaults(options: CardDatabaseOptions, languages: readonly CardLanguage[]): ResolvedCardDatabaseOptions {
  for (const name of ['pollIntervalMs', 'retryIntervalMs', 'minCards'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new TypeError(`CardDatabase: option "${name}" must be a positive number, got ${value}`);
    }
  }
  if (typeof options.dataDir !== 'string' || options.dataDir.trim() === '') {
    throw new TypeError('CardDatabase: option "dataDir" must be a non-empty path');
  }
  if (!Array.isArray(languages) || !languages.every((language) => (CARD_LANGUAGES as readonly string[]).includes(language))) {
    throw new TypeError(`CardDatabase: option "languages" must list languages among ${CARD_LANGUAGES.join(', ')}`);
  }
  return {
    client: options.client,
    dataDir: options.dataDir,
    pollIntervalMs: options.pollIntervalMs ?? CARD_DATABASE_DEFAULTS.pollIntervalMs,
    retryIntervalMs: options.retryIntervalMs ?? CARD_DATABASE_DEFAULTS.retryIntervalMs,
    minCards: options.minCards ?? CARD_DATABASE_DEFAULTS.minCards,
    downloadOnce: options.downloadOnce ?? runAtOnce,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
  };
}
