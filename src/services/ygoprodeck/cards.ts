import { pino, type Logger } from 'pino';
import { DEFAULT_ALIASES } from '../../cards/aliases.js';
import type { BanlistedCard } from '../../cards/banlist.js';
import type { Card, CardArt, CardLanguage, LocalizedCard, PresentedCard } from '../../cards/card.js';
import { setNameKey, type CardSet } from '../../cards/card-set.js';
import type { CardResolution, CardSearchResult } from '../../cards/card-resolution.js';
import type { CardSummary } from '../../cards/card-summary.js';
import { outsideGenesys, type GenesysPool } from '../../cards/genesys.js';
import { parsePasscode } from '../../cards/passcode.js';
import type { CardDatabaseFailure } from '../../cards/card-database-failure.js';
import { printingsInOrder, setListingOf, type PrintingView, type SetListing } from '../../cards/printings.js';
import { matchesFilters, type CardSearchFilters } from '../../cards/search-filters.js';
import type { CardSearchTerms } from '../../cards/search-query.js';
import { isUpstreamError } from '../../interaction/upstream-error.js';
import type { SharedState } from '../../state/shared-state.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import type { CardDatabase } from './card-database.js';
import type { CardImageStore } from './card-images.js';
import { CardExtras } from './card-extras.js';
import { CardIndexKeeper, type MatcherTablesBuild } from './card-index-keeper.js';
import { RandomCardPicks } from './card-random.js';
import { rankedSearch } from './card-search.js';
import type { CardSetCatalog, CardSetResolution } from './card-sets.js';
import type { UpstreamHealth } from '../../runtime/status-report.js';
import { whenReady } from '../../upstream/when-ready.js';
import type { YgoprodeckClient } from './ygoprodeck.js';

/**
 * Everything `/card` needs, behind one object: the local card database, the name matcher over it
 * (rebuilt whenever the database reloads), the card art store, the translated texts and the card
 * set list. Matching, search, random picks, translations, set lookups and set contents are local
 * and never wait on YGOPRODeck; only images not yet stored go upstream, plus exact lookups while the
 * database has never loaded and translations while that language's database has never loaded.
 */

const CARD_SERVICE_DEFAULTS = {
  /** `/card random` does not repeat any of a channel's last this-many picks. */
  recentPerChannel: 10,
  /** At most this many candidates in a "Did you mean" menu (a Discord select holds 25). */
  maxCandidates: 25,
  /**
   * How long a card command waits for a card database or set list still loading (a first start
   * downloads ≈20 MB) before saying so; the interaction is deferred meanwhile.
   */
  loadWaitMs: 10_000,
} as const;

/** Autocomplete, search and "Did you mean" stop reading a query after this many characters. */
const MAX_QUERY_CHARS = 200;

export interface CardServiceOptions {
  database: Pick<
    CardDatabase,
    | 'ready'
    | 'version'
    | 'size'
    | 'summaries'
    | 'banlistedCards'
    | 'genesysPool'
    | 'genesysVersion'
    | 'onGenesysReload'
    | 'byId'
    | 'summaryById'
    | 'byName'
    | 'cardsInSet'
    | 'random'
    | 'knowsFormats'
    | 'hasTexts'
    | 'translation'
    | 'localNames'
    | 'effectTexts'
    | 'lookupRemote'
    | 'onReload'
    | 'onTextsReload'
    | 'details'
    | 'downloadedAt'
    | 'start'
    | 'close'
    | 'lastFailure'
    | 'onLoadFailure'
  >;
  images: Pick<CardImageStore, 'get' | 'getSetImage' | 'details'>;
  client: Pick<YgoprodeckClient, 'localized' | 'health' | 'close'>;
  /**
   * The card set list (`/card set`, the printings' release dates); `createCardService` always gives
   * one. A service built without it (for card lookups alone) knows no sets.
   */
  sets?: Pick<CardSetCatalog, 'ready' | 'whenReady' | 'suggest' | 'resolve' | 'byKey' | 'byName' | 'byCode' | 'all' | 'onLoad' | 'details' | 'start' | 'close'>;
  /** Abbreviation → card name; the matcher's defaults ("mst", "ash"…) when absent. */
  aliases?: Readonly<Record<string, string>>;
  recentPerChannel?: number;
  /** How long `whenReady`, `whenSetsReady` and `resolvePatiently` wait for a load by default (10 s; tests of the wait shorten it). */
  loadWaitMs?: number;
  /** Where the channels' recent picks live (shared by the fleet with Redis); in process when absent. */
  channelHistory?: SharedState['channelHistory'];
  /**
   * Builds the matcher off the event loop (`createCardService` gives the worker-thread build), the
   * previous matcher serving meanwhile; without it each rebuild runs on the event loop, at once.
   */
  buildMatcherTables?: MatcherTablesBuild;
  /** Starts what `buildMatcherTables` runs on (a worker thread) at `start`, before anything is served. */
  startOffThread?: () => void;
  logger?: Logger;
}

export class CardService {
  private readonly database: CardServiceOptions['database'];
  private readonly images: CardServiceOptions['images'];
  private readonly client: CardServiceOptions['client'];
  private readonly sets: CardServiceOptions['sets'];
  private readonly aliases: Readonly<Record<string, string>>;
  private readonly logger: Logger;
  private readonly randomPicks: RandomCardPicks;
  /** The matcher and archetypes, rebuilt whenever the database or a language's names change. */
  private readonly indexes: CardIndexKeeper;
  private readonly extras: CardExtras;
  private readonly loadWaitMs: number;
  private readonly startOffThread: (() => void) | undefined;

  constructor(options: CardServiceOptions) {
    this.startOffThread = options.startOffThread;
    this.loadWaitMs = options.loadWaitMs ?? CARD_SERVICE_DEFAULTS.loadWaitMs;
    this.database = options.database;
    this.images = options.images;
    this.client = options.client;
    this.sets = options.sets;
    this.aliases = options.aliases ?? DEFAULT_ALIASES;
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.extras = new CardExtras({ database: this.database, client: this.client, images: this.images, logger: this.logger });
    this.randomPicks = new RandomCardPicks(this.database, {
      recentPerChannel: options.recentPerChannel ?? CARD_SERVICE_DEFAULTS.recentPerChannel,
      ...(options.channelHistory ? { channelHistory: options.channelHistory } : {}),
    });
    this.indexes = new CardIndexKeeper(this.database, this.aliases, this.logger, options.buildMatcherTables);
  }

  /** True once the card database is loaded and matched; until then only exact names and passcodes are found (upstream). */
  get ready(): boolean {
    return this.indexes.current !== null;
  }

  private get index() {
    return this.indexes.current;
  }

  get size(): number {
    return this.database.size;
  }

  /** While no card set is loaded: the failed download, so commands can say so instead of waiting. */
  get loadFailure(): CardDatabaseFailure | null {
    return this.ready ? null : this.database.lastFailure;
  }

  /**
   * Loads the stored set list and the card snapshot from disk, and matches the snapshot's cards
   * (never waits on the network), and starts keeping both fresh. The set list starts first so that
   * the database's first reload finds it.
   */
  async start(): Promise<void> {
    this.startOffThread?.();
    await this.sets?.start();
    await this.database.start();
    await this.indexes.settled();
  }

  /**
   * Resolves true as soon as the database is loaded, false after `timeoutMs` (a command's wait by
   * default) without it or as soon as the download fails (`loadFailure` then says why). Never starts
   * a download itself: the database's own schedule does that.
   */
  whenReady(timeoutMs = this.loadWaitMs): Promise<boolean> {
    return whenReady(() => this.ready, timeoutMs, {
      ready: (listener) => this.indexes.onSwap(listener),
      failed: (listener) => this.database.onLoadFailure(listener),
    });
  }

  /**
   * True once the database is loaded, waiting for one still loading through `pace` (a command defers
   * while it waits); false at once after a failed download (the next attempt is minutes away), or
   * when the wait ends without it: `loadFailure` then says why.
   */
  async waitForDatabase(pace: (loaded: Promise<boolean>) => Promise<boolean>): Promise<boolean> {
    if (this.ready) return true;
    if (this.loadFailure) return false;
    return pace(this.whenReady());
  }

  /** True once `language`'s database is loaded and its names matched: from then on its texts are shown without a request. */
  languageReady(language: CardLanguage): boolean {
    return this.database.hasTexts(language) && this.indexes.holds(language);
  }

  /**
   * Autocomplete suggestions: local only, never waits, parses no card; [] while the database is not
   * loaded. With a language, names in that language match as well as English ones.
   */
  suggest(query: string, limit: number = CARD_SERVICE_DEFAULTS.maxCandidates, language?: CardLanguage): CardSummary[] {
    return this.matches(query, limit, language);
  }

  /** The cards' names in `language` (by passcode), for those whose name there differs from the English one. */
  localNames(cards: readonly CardSummary[], language: CardLanguage | undefined): Map<number, string> {
    const names = new Map<number, string>();
    const matcher = this.index?.matcher;
    if (language === undefined || matcher === undefined) return names;
    for (const card of cards) {
      const name = matcher.localName(card.id, language);
      if (name !== undefined) names.set(card.id, name);
    }
    return names;
  }

  /** The loaded card database's version, or null before one is loaded. */
  get databaseVersion(): string | null {
    return this.database.version;
  }

  /** Called with the version whenever a card set is put in use (the snapshot at start, each download). */
  onDatabaseReload(listener: (version: string) => void): () => void {
    return this.database.onReload((reload) => listener(reload.version));
  }

  /** The cards on any ban list of the loaded set (ban-list history records them), read with the event loop free between slices. */
  banlistedCards(): BanlistedCard[] {
    return this.database.banlistedCards();
  }

  /**
   * The card's Genesys points when it is in the pool (0 included); undefined for a card outside it,
   * Link and Pendulum monsters among them, and while the pool is not loaded.
   */
  genesysPoints(card: Pick<Card, 'id' | 'frameType'>): number | undefined {
    return outsideGenesys(card) ? undefined : this.database.genesysPool()?.pointsOf(card.id);
  }

  /** The Genesys pool, or null before it is loaded (deck verdicts are then "unknown"). */
  genesysPool(): GenesysPool | null {
    return this.database.genesysPool();
  }

  /** The database version the Genesys points are of, or null before they are loaded. */
  get genesysVersion(): string | null {
    return this.database.genesysVersion;
  }

  /** Called with the version whenever Genesys points are put in use (the snapshot at start, each download). */
  onGenesysReload(listener: (version: string) => void): () => void {
    return this.database.onGenesysReload((reload) => listener(reload.version));
  }

  /** By passcode (alternate-art ids included), from the local database. */
  byId(id: number): Card | undefined {
    return this.database.byId(id);
  }

  /**
   * What `/card show name:<input>` opens. The input is an autocomplete choice (a passcode) or
   * whatever the user typed. Before the database has loaded, exact names and passcodes are asked
   * upstream (cached) and anything else finds nothing. With a language, names in that language
   * are matched too. An upstream lookup (or its refresh) is spent from `share`.
   */
  async resolve(input: string, language?: CardLanguage, share?: MemberShareSpender): Promise<CardResolution> {
    const query = input.trim().slice(0, MAX_QUERY_CHARS);
    if (query === '') return { kind: 'none' };
    const passcode = parsePasscode(query);
    if (!this.ready) return this.resolveRemotely(query, passcode, share);
    if (passcode !== undefined) {
      const card = this.database.byId(passcode);
      if (card) return { kind: 'card', card, by: 'id' };
    }
    const named = this.database.byName(query);
    if (named) return { kind: 'card', card: named, by: 'name' };
    const index = this.index!;
    const best = index.matcher.best(query, language);
    if (best === null) return { kind: 'none' };
    if (best.clear) {
      const card = this.database.byId(best.match.id);
      if (card) return { kind: 'card', card, by: 'match' };
    }
    const candidates = this.matches(query, CARD_SERVICE_DEFAULTS.maxCandidates, language);
    return candidates.length === 0 ? { kind: 'none' } : { kind: 'choices', candidates };
  }

  /**
   * `/card search`: name matches (in `language` too when given) best first, then the cards whose
   * effect texts hold the words (in `language` when translated there), most viewed first, narrowed
   * by the filters; without words, every card the filters keep, most viewed first. A plain string
   * is loose words. Local only.
   */
  search(query: string | CardSearchTerms, filters: CardSearchFilters = {}, limit = 25, language?: CardLanguage): CardSearchResult {
    if (this.index === null) return { cards: [], total: 0 };
    const terms = typeof query === 'string' ? { words: query.slice(0, MAX_QUERY_CHARS), phrases: [], text: [] } : query;
    // Every match is ranked, not just the first page, so filters never leave a page short.
    const matched = rankedSearch(
      {
        summaries: () => this.database.summaries(),
        summaryById: (id) => this.database.summaryById(id),
        nameMatches: (words, inLanguage) => this.matches(words, this.database.size, inLanguage),
        localNames: (inLanguage) => this.database.localNames(inLanguage),
        effectTexts: (inLanguage) => this.database.effectTexts(inLanguage),
      },
      terms,
      filters,
      language,
    );
    const cards = matched.slice(0, Math.max(0, limit)).flatMap((summary) => this.database.byId(summary.id) ?? []);
    return { cards, total: matched.length };
  }

  /** The passcodes of every card the filters keep (card of the day draws from them); empty while the database loads. Local only. */
  matchingIds(filters: CardSearchFilters): number[] {
    return this.ready ? this.database.summaries().flatMap((card) => (matchesFilters(card, filters) ? [card.id] : [])) : [];
  }

  /** The archetype named `name` (any case), as the database spells it; undefined when there is none. */
  archetype(name: string): string | undefined {
    return this.index?.archetypeByKey.get(name.trim().toLowerCase());
  }

  /** Archetype names for autocomplete: those starting with the query first, then those containing it. */
  archetypes(query: string, limit = 25): string[] {
    const all = this.index?.archetypes ?? [];
    const needle = query.trim().toLowerCase().slice(0, MAX_QUERY_CHARS);
    if (needle === '') return all.slice(0, limit);
    const starting = all.filter((name) => name.toLowerCase().startsWith(needle));
    const containing = all.filter((name) => !name.toLowerCase().startsWith(needle) && name.toLowerCase().includes(needle));
    return [...starting, ...containing].slice(0, limit);
  }

  /** See `RandomCardPicks.pick`; undefined while the database is not loaded. */
  async random(channelId: string, filters: CardSearchFilters = {}): Promise<Card | undefined> {
    return this.ready ? this.randomPicks.pick(channelId, filters) : undefined;
  }

  /** False when the loaded database lists no formats at all (a dump imported without them): a format filter cannot be answered. */
  get knowsFormats(): boolean {
    return this.database.knowsFormats;
  }

  /** See `CardExtras.localize`. */
  localize(card: Card, language: CardLanguage, share?: MemberShareSpender): Promise<LocalizedCard | undefined> {
    return this.extras.localize(card, language, share);
  }

  /** See `CardExtras.art`. */
  art(of: Card | CardSet, share?: MemberShareSpender): Promise<CardArt | null> {
    return this.extras.art(of, share);
  }

  /** One of the card's artworks (`index` into its `imageIds`), stored like its main art; see `CardExtras.art`. */
  artwork(card: Card, index: number, share?: MemberShareSpender): Promise<CardArt | null> {
    return this.extras.art(card, share, card.imageIds[index]);
  }

  /** A card artwork's small version (`cards_small`, for deck pictures), stored like all card art; a download is spent from `share`. */
  smallArt(imageId: number, share?: MemberShareSpender): Promise<Buffer> {
    return this.images.get(imageId, 'small', share);
  }

  /** When the loaded card database, and so every price in it, was downloaded (ms since the epoch); null before it is loaded. */
  get pricesAsOf(): number | null {
    return this.database.downloadedAt;
  }

  /** See `CardExtras.present`. */
  present(card: Card, language: CardLanguage | undefined, options: { share?: MemberShareSpender; withArt: boolean; log: Logger }): Promise<PresentedCard> {
    return this.extras.present(card, language, options);
  }

  /**
   * `resolve`, patient with a first start: when the input finds nothing before the database has
   * ever loaded (only exact names are found upstream until then), waits a command's wait for the
   * download, which brings fuzzy matching, and resolves again. A failed download is not waited for:
   * the next attempt is minutes away. `pace` wraps each wait (a command defers when one is slow).
   */
  async resolvePatiently(
    input: string,
    language: CardLanguage | undefined,
    options: { share?: MemberShareSpender; pace: <T>(work: Promise<T>) => Promise<T> },
  ): Promise<CardResolution> {
    const resolution = await options.pace(this.resolve(input, language, options.share));
    if (resolution.kind !== 'none' || this.ready || this.loadFailure || !(await options.pace(this.whenReady()))) return resolution;
    return this.resolve(input, language);
  }

  /** True once the card set list is loaded. */
  get setsReady(): boolean {
    return this.sets?.ready ?? false;
  }

  /** Resolves true as soon as the set list is loaded, false after `timeoutMs` (a command's wait by default) without it (never fetches itself). */
  async whenSetsReady(timeoutMs = this.loadWaitMs): Promise<boolean> {
    return this.sets === undefined ? false : this.sets.whenReady(timeoutMs);
  }

  /** Every set of the list in memory (none before it loads). */
  cardSets(): readonly CardSet[] {
    return this.sets?.all() ?? [];
  }

  /** Called whenever a set list is installed (from disk or upstream). Returns an unsubscribe function. */
  onCardSetsLoad(listener: () => void): () => void {
    return this.sets?.onLoad(listener) ?? (() => undefined);
  }

  /** Set autocomplete: names and codes, typos tolerated, the newest sets for an empty query. Local only. */
  suggestSets(query: string, limit = 25): CardSet[] {
    return this.sets?.suggest(query, limit) ?? [];
  }

  /** What `/card set name:<input>` shows (see `CardSetCatalog.resolve`). Local only. */
  resolveSet(input: string): CardSetResolution {
    return this.sets?.resolve(input) ?? { kind: 'none' };
  }

  setByKey(key: string): CardSet | undefined {
    return this.sets?.byKey(key);
  }

  /** Every set with this code; most codes belong to one set, some to several (`LOB`). */
  setsWithCode(code: string): readonly CardSet[] {
    return this.sets?.byCode(code) ?? [];
  }

  /**
   * The set's cards in the local card database, in set-number order: a set's contents are its
   * printings, matched by set name (set codes are shared between sets, names are not).
   */
  setListing(set: CardSet): readonly SetListing[] {
    const index = this.index;
    if (index === null) return [];
    const key = setNameKey(set.name);
    let listing = index.setListings.get(key);
    if (listing === undefined) index.setListings.set(key, (listing = setListingOf(key, this.database.cardsInSet(set.name), (id) => this.database.summaryById(id))));
    return listing;
  }

  /** The card's printings, oldest TCG release first (sets without a known date last), then by set number. */
  printings(card: Card): PrintingView[] {
    return printingsInOrder(card, (setName) => this.sets?.byName(setName)?.tcgDate);
  }

  /** YGOPRODeck's health for /status, with the card database's, set list's and image store's facts. */
  health(): UpstreamHealth {
    return this.client.health({ ...this.database.details(), ...this.sets?.details(), ...this.images.details() });
  }

  async close(): Promise<void> {
    this.indexes.close();
    await this.sets?.close();
    await this.database.close();
    await this.client.close();
  }

  private matches(query: string, limit: number, language: CardLanguage | undefined): CardSummary[] {
    const index = this.index;
    if (index === null) return [];
    const cards: CardSummary[] = [];
    for (const match of index.matcher.search(query.slice(0, MAX_QUERY_CHARS), limit, language)) {
      const card = this.database.summaryById(match.id);
      if (card) cards.push(card);
    }
    return cards;
  }

  private async resolveRemotely(query: string, passcode: number | undefined, share: MemberShareSpender | undefined): Promise<CardResolution> {
    try {
      const card = await this.database.lookupRemote(passcode ?? query, share);
      return { kind: 'card', card, by: passcode === undefined ? 'name' : 'id' };
    } catch (error) {
      // A name that is not exact (or a number that is no passcode) finds nothing until the database is here.
      if (isUpstreamError(error, 'not_found') || isUpstreamError(error, 'invalid_input')) return { kind: 'none' };
      throw error;
    }
  }
}
