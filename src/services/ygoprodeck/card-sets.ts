import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { CARD_SET_FORMAT_VERSION, isCardSet, KEY_VALUE_PREFIX, setNameKey, type CardSet } from '../../cards/card-set.js';
import { CardMatcher, type MatchableCard } from '../../cards/matcher.js';
import type { CardDatabase } from './card-database.js';
import { tablesOffThread, type MatcherTablesBuild } from './card-index-keeper.js';
import { writeDurably } from './card-snapshot.js';
import { UpstreamError, isUpstreamError } from '../../interaction/upstream-error.js';
import { whenReady } from '../../upstream/when-ready.js';
import type { YgoprodeckClient } from './ygoprodeck.js';

/**
 * YGOPRODeck's list of card sets (`cardsets.php`), kept locally like the card database: stored in
 * `DATA_DIR/cards/card-sets.json` next to the card snapshot, and fetched again only when the card
 * database's version changes or the stored list is a day old. Commands, autocomplete included, only
 * ever read it from memory: no command sends a `cardsets.php` request.
 *
 * A list is tagged with the card database version current when it arrived, since a set's contents
 * come from the database's printings. On a first start the list (≈150 KB) is fetched at once, while
 * the database (≈20 MB) is still downloading; it then takes the version the database loads with,
 * as both describe the same moment upstream.
 */

export const CARD_SET_DEFAULTS = {
  /** A stored list older than this is fetched again (at most one `cardsets.php` request a day). */
  maxAgeMs: 24 * 60 * 60_000,
  /** How often the list's age is checked. */
  checkIntervalMs: 60 * 60_000,
  /** While there is no list at all, a failed fetch is tried again this soon. */
  retryIntervalMs: 5 * 60_000,
  /** A list with fewer valid sets is refused as corrupt (the real one has about a thousand). */
  minSets: 500,
} as const;

export const CARD_SETS_FILE = 'card-sets.json';
const FILE_FORMAT = 'almanac-card-sets';
const TEMP_FILE = /^card-sets\.json\..+\.tmp$/;
/** Autocomplete and lookups stop reading a query after this many characters. */
const MAX_QUERY_CHARS = 200;
/**
 * Matcher ids for sets: above every passcode and Konami id (at most 10 digits), so a number typed as
 * a query (a set code such as `2020`) is never taken for a set's id.
 */
const SET_ID_BASE = 1e15;

const storedListSchema = z.object({
  format: z.literal(FILE_FORMAT),
  /** `CARD_SET_FORMAT_VERSION` of the code that wrote it. */
  setFormat: z.number().int(),
  /** The card database version when the list arrived; null when none was loaded yet. */
  databaseVersion: z.string().min(1).nullable(),
  fetchedAt: z.number().int().nonnegative(),
  sets: z.array(z.unknown()),
});

interface LoadedList {
  sets: readonly CardSet[];
  databaseVersion: string | null;
  fetchedAt: number;
  byKey: ReadonlyMap<string, CardSet>;
  byName: ReadonlyMap<string, CardSet>;
  /** Lowercase code → the sets that share it, A–Z. */
  byCode: ReadonlyMap<string, readonly CardSet[]>;
  /** Newest first, by TCG release date (undated sets last): suggestions for an empty query. */
  newest: readonly CardSet[];
  matcher: CardMatcher;
}

/** What a typed set name or code leads to: one set, a few to choose from, or nothing. */
export type CardSetResolution = { kind: 'set'; set: CardSet } | { kind: 'choices'; candidates: CardSet[]; sharedCode?: string } | { kind: 'none' };

export interface CardSetCatalogOptions {
  client: Pick<YgoprodeckClient, 'cardSets'>;
  database: Pick<CardDatabase, 'version' | 'onReload'>;
  /** `DATA_DIR`; the list lives in its `cards/` folder, next to the card snapshot. */
  dataDir: string;
  maxAgeMs?: number;
  checkIntervalMs?: number;
  retryIntervalMs?: number;
  minSets?: number;
  logger?: Logger;
  now?: () => number;
  /**
   * Builds the list's matcher tables off the event loop (src/services/off-thread): about a thousand
   * sets, but 60-180 ms of the event loop built on it, right after a first start logged in. Without
   * it (or when it fails) the matcher is built on the event loop.
   */
  buildMatcherTables?: MatcherTablesBuild;
}

export class CardSetCatalog {
  private readonly client: CardSetCatalogOptions['client'];
  private readonly database: CardSetCatalogOptions['database'];
  private readonly dir: string;
  private readonly maxAgeMs: number;
  private readonly checkIntervalMs: number;
  private readonly retryIntervalMs: number;
  private readonly minSets: number;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly buildTables: MatcherTablesBuild | undefined;
  private list: LoadedList | null = null;
  private loading: Promise<void> | undefined;
  private refreshing: Promise<void> | null = null;
  private checkTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly shutdown = new AbortController();
  private lastError: string | null = null;

  constructor(options: CardSetCatalogOptions) {
    if (typeof options.dataDir !== 'string' || options.dataDir.trim() === '') {
      throw new TypeError('CardSetCatalog: option "dataDir" must be a non-empty path');
    }
    for (const name of ['maxAgeMs', 'checkIntervalMs', 'retryIntervalMs', 'minSets'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new TypeError(`CardSetCatalog: option "${name}" must be a positive number, got ${value}`);
      }
    }
    this.client = options.client;
    this.database = options.database;
    this.dir = join(options.dataDir, 'cards');
    this.maxAgeMs = options.maxAgeMs ?? CARD_SET_DEFAULTS.maxAgeMs;
    this.checkIntervalMs = options.checkIntervalMs ?? CARD_SET_DEFAULTS.checkIntervalMs;
    this.retryIntervalMs = options.retryIntervalMs ?? CARD_SET_DEFAULTS.retryIntervalMs;
    this.minSets = options.minSets ?? CARD_SET_DEFAULTS.minSets;
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.now = options.now ?? Date.now;
    this.buildTables = options.buildMatcherTables;
  }

  /** True once a set list is loaded (from disk or upstream). */
  get ready(): boolean {
    return this.list !== null;
  }

  /**
   * Loads the stored list and fetches one when there is none or it is due; then follows the card
   * database (every reload checks whether the list is due) and checks its age on a timer. Call
   * before the database starts, so its first reload finds the stored list already loaded. Never
   * waits on the network.
   */
  async start(): Promise<void> {
    if (this.loading !== undefined) return this.loading;
    this.loading = this.loadFromDisk();
    await this.loading;
    this.unsubscribe = this.database.onReload(() => void this.check());
    void this.check();
    this.scheduleCheck();
  }

  /** Resolves true as soon as a list is loaded, false after `timeoutMs` without one. Never fetches itself. */
  whenReady(timeoutMs: number): Promise<boolean> {
    return whenReady(() => this.ready, timeoutMs, { ready: (listener) => this.onLoad(listener) });
  }

  /** Called whenever a list is installed (from disk or upstream). Returns an unsubscribe function. */
  onLoad(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Fetches the list when it is due: there is none, it arrived under another card database version,
   * or it is `maxAgeMs` old. Returns whether it fetched. Concurrent calls share one fetch.
   */
  async refreshIfDue(): Promise<boolean> {
    await this.loading;
    const version = this.database.version;
    const list = this.list;
    // A list that arrived before any database was loaded belongs to the first version loaded.
    if (list !== null && list.databaseVersion === null) list.databaseVersion = version;
    if (!this.isDue(version)) return false;
    await this.refresh();
    return true;
  }

  all(): readonly CardSet[] {
    return this.list?.sets ?? [];
  }

  byKey(key: string): CardSet | undefined {
    return this.list?.byKey.get(key);
  }

  /** By exact name, ignoring case and spacing. */
  byName(name: string): CardSet | undefined {
    return this.list?.byName.get(setNameKey(name));
  }

  /** Every set with this code (ignoring case), A–Z; most codes have one, some several (`LOB`). */
  byCode(code: string): readonly CardSet[] {
    return this.list?.byCode.get(code.trim().toLowerCase()) ?? [];
  }

  /**
   * Autocomplete: sets whose name or code matches, best first (typos tolerated, the card matcher's
   * rules); the newest sets for an empty query. Local only.
   */
  suggest(query: string, limit = 25): CardSet[] {
    const list = this.list;
    if (list === null) return [];
    const text = query.slice(0, MAX_QUERY_CHARS);
    if (text.trim() === '') return list.newest.slice(0, Math.max(0, limit));
    return list.matcher.search(text, limit).flatMap((match) => list.sets[match.id - SET_ID_BASE] ?? []);
  }

  /**
   * What `/card set name:<input>` shows: the input is an autocomplete value (a set name, or
   * `set:<key>` for a name too long to be a value) or whatever the user typed — a name, a code or
   * part of either.
   */
  resolve(input: string): CardSetResolution {
    const list = this.list;
    const query = input.trim().slice(0, MAX_QUERY_CHARS);
    if (list === null || query === '') return { kind: 'none' };
    if (query.startsWith(KEY_VALUE_PREFIX)) {
      const set = list.byKey.get(query.slice(KEY_VALUE_PREFIX.length));
      if (set) return { kind: 'set', set };
    }
    const named = this.byName(query);
    if (named) return { kind: 'set', set: named };
    const coded = this.byCode(query);
    if (coded.length === 1) return { kind: 'set', set: coded[0]! };
    if (coded.length > 1) return { kind: 'choices', candidates: coded.slice(0, 25), sharedCode: coded[0]!.code };
    const best = list.matcher.best(query);
    if (best === null) return { kind: 'none' };
    const bestSet = list.sets[best.match.id - SET_ID_BASE];
    if (best.clear && bestSet) return { kind: 'set', set: bestSet };
    return { kind: 'choices', candidates: this.suggest(query, 25) };
  }

  /** Facts for /status. */
  details(): Record<string, string | number> {
    const list = this.list;
    return {
      cardSets: list?.sets.length ?? 0,
      cardSetsFetchedAt: list ? new Date(list.fetchedAt).toISOString() : 'never',
      cardSetsDatabaseVersion: list?.databaseVersion ?? 'none',
      ...(this.lastError === null ? {} : { cardSetsLastError: this.lastError }),
    };
  }

  /** Stops the checks and waits for a fetch in progress; the stored list stays as it is. */
  async close(): Promise<void> {
    clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    this.unsubscribe?.();
    this.shutdown.abort();
    await this.refreshing?.catch(() => undefined);
  }

  private isDue(version: string | null): boolean {
    const list = this.list;
    if (list === null) return true;
    if (version !== null && list.databaseVersion !== null && list.databaseVersion !== version) return true;
    const age = this.now() - list.fetchedAt;
    // A fetch time in the future means the clock was set back: the age is unknown, so fetch.
    return age >= this.maxAgeMs || age < 0;
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.fetchAndInstall().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async fetchAndInstall(): Promise<void> {
    try {
      const result = await this.client.cardSets(this.shutdown.signal);
      if (result.sets.length < this.minSets) {
        throw new UpstreamError(
          'ygoprodeck',
          'bad_response',
          `cardsets.php listed ${result.sets.length} valid sets, expected at least ${this.minSets}: refused as corrupt`,
        );
      }
      if (result.skipped > 0) this.logger.warn({ skipped: result.skipped, problems: result.problems }, 'card sets: entries left out (invalid, or repeating a set name)');
      const fetchedAt = this.now();
      const version = this.database.version;
      await this.persist(result.sets, version, fetchedAt);
      await this.install(result.sets, version, fetchedAt, 'off the event loop');
      this.lastError = null;
      this.logger.info({ sets: result.sets.length, databaseVersion: version }, 'card set list fetched');
    } catch (error) {
      this.lastError = isUpstreamError(error) ? error.kind : 'error';
      throw error;
    }
  }

  /** One check, from a database reload or the timer; a failure keeps the current list (stale-if-error). */
  private async check(): Promise<void> {
    try {
      await this.refreshIfDue();
    } catch (error) {
      if (this.shutdown.signal.aborted) return;
      this.logger.warn({ err: error, ready: this.ready }, 'card set list refresh failed');
    }
  }

  private scheduleCheck(): void {
    if (this.shutdown.signal.aborted) return;
    this.checkTimer = setTimeout(
      () => void this.check().finally(() => this.scheduleCheck()),
      this.ready ? this.checkIntervalMs : this.retryIntervalMs,
    );
    this.checkTimer.unref();
  }

  /** Writes the list atomically (a temporary file renamed over it). A failed write is logged, not thrown. */
  private async persist(sets: readonly CardSet[], databaseVersion: string | null, fetchedAt: number): Promise<void> {
    const body = { format: FILE_FORMAT, setFormat: CARD_SET_FORMAT_VERSION, databaseVersion, fetchedAt, sets };
    const path = join(this.dir, CARD_SETS_FILE);
    const temp = join(this.dir, `${CARD_SETS_FILE}.${process.pid}.${randomUUID()}.tmp`);
    try {
      await mkdir(this.dir, { recursive: true });
      await writeDurably(temp, [Buffer.from(JSON.stringify(body))]);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      // The new list is still used; the next start fetches it again.
      this.logger.error({ err: error }, 'card sets: could not store the set list');
    }
  }

  private async loadFromDisk(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(names.filter((name) => TEMP_FILE.test(name)).map((name) => rm(join(this.dir, name), { force: true })));
    let stored: z.infer<typeof storedListSchema>;
    try {
      stored = storedListSchema.parse(JSON.parse(await readFile(join(this.dir, CARD_SETS_FILE), 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.logger.warn({ err: error }, 'card sets: the stored set list is unreadable; it will be fetched again');
      }
      return;
    }
    if (stored.setFormat !== CARD_SET_FORMAT_VERSION || !stored.sets.every(isCardSet)) {
      this.logger.info({ setFormat: stored.setFormat }, 'card sets: the stored set list is of another format; it will be fetched again');
      return;
    }
    // At start-up, before anything is served: built at once rather than after a worker has started.
    await this.install(stored.sets, stored.databaseVersion, stored.fetchedAt, 'at once');
    this.logger.info({ sets: stored.sets.length, databaseVersion: stored.databaseVersion }, 'card set list loaded');
  }

  /** Makes `sets` the list in one assignment once its matcher is built: until then the previous list answers. */
  private async install(sets: readonly CardSet[], databaseVersion: string | null, fetchedAt: number, build: 'off the event loop' | 'at once'): Promise<void> {
    const byKey = new Map<string, CardSet>();
    const byName = new Map<string, CardSet>();
    const byCode = new Map<string, CardSet[]>();
    for (const set of sets) {
      if (!byKey.has(set.key)) byKey.set(set.key, set);
      byName.set(setNameKey(set.name), set);
      const code = set.code.toLowerCase();
      byCode.set(code, [...(byCode.get(code) ?? []), set]);
    }
    for (const shared of byCode.values()) shared.sort((left, right) => left.name.localeCompare(right.name, 'en'));
    const matchable: MatchableCard[] = sets.map((set, index) => ({
      id: SET_ID_BASE + index,
      name: set.name,
      // The code finds the set too ("LOB"), a little below a name that matches as well.
      altNames: [set.code],
      // Between equally good matches, the bigger set (a main booster before its promotional card).
      popularity: set.cardCount ?? 0,
    }));
    const newest = [...sets].sort((left, right) => (right.tcgDate ?? '').localeCompare(left.tcgDate ?? ''));
    const matcher = build === 'at once' ? new CardMatcher(matchable, {}) : await this.matcherOffThread(matchable);
    if (matcher === null) return;
    this.list = { sets, databaseVersion, fetchedAt, byKey, byName, byCode, newest, matcher };
    for (const listener of [...this.listeners]) listener();
  }

  /** The sets' matcher, built off the event loop when it can be; null once the catalog is closed. */
  private async matcherOffThread(matchable: readonly MatchableCard[]): Promise<CardMatcher | null> {
    if (this.buildTables === undefined) return new CardMatcher(matchable, {});
    const tables = await tablesOffThread(this.buildTables, matchable, {}, new Map(), this.shutdown.signal, this.logger, 'card set matcher');
    if (tables !== undefined) return new CardMatcher(matchable, {}, { tables });
    return this.shutdown.signal.aborted ? null : new CardMatcher(matchable, {});
  }
}
