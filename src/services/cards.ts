import { pino, type Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import { DEFAULT_ALIASES } from '../cards/aliases.js';
import type { Card, CardLanguage, CardPrinting, LocalizedCard } from '../cards/card.js';
import { setNameKey, type CardSet } from '../cards/card-set.js';
import type { CardSummary } from '../cards/card-summary.js';
import { localizeCard } from '../cards/card-translation.js';
import { CardMatcher, type MatchableCard } from '../cards/matcher.js';
import type { Metrics } from '../metrics.js';
import { createLocalChannelHistory } from '../state/in-process.js';
import type { ChannelHistory, SharedBlobs, SharedState } from '../state/shared-state.js';
import type { CacheFactory, RequestCharge } from './cache.js';
import { CardDatabase, type CardDatabaseFailure, type CardDatabaseOptions, type DownloadOnce } from './card-database.js';
import { CardImageStore, imageType } from './card-images.js';
import { CardSetCatalog, type CardSetResolution } from './card-sets.js';
import type { UpstreamHealth } from './health.js';
import type { LimiterFactory } from './limiter.js';
import { isUpstreamError, UpstreamError } from '../interaction/upstream-error.js';
import { YgoprodeckClient, type YgoprodeckLimits } from './ygoprodeck.js';

/**
 * Everything `/card` needs, behind one object: the local card database, the name matcher over it
 * (rebuilt whenever the database reloads), the card art store, the translated texts and the card
 * set list. Matching, search, random picks, translations, set lookups and set contents are local
 * and never wait on YGOPRODeck; only images not yet stored go upstream, plus exact lookups while the
 * database has never loaded and translations while that language's database has never loaded.
 */

/** The `/card search` type filter: one card frame family each. */
export const CARD_TYPE_FILTERS = {
  monster: 'Monster',
  normal: 'Normal Monster',
  effect: 'Effect Monster',
  ritual: 'Ritual Monster',
  fusion: 'Fusion Monster',
  synchro: 'Synchro Monster',
  xyz: 'Xyz Monster',
  link: 'Link Monster',
  pendulum: 'Pendulum Monster',
  tuner: 'Tuner Monster',
  spell: 'Spell',
  trap: 'Trap',
  token: 'Token',
  skill: 'Skill',
} as const;
export type CardTypeFilter = keyof typeof CARD_TYPE_FILTERS;

/** The word of a monster's type line ("Fiend / Xyz / Effect") each monster filter looks for. */
const TYPE_LINE_WORDS: Readonly<Partial<Record<CardTypeFilter, string>>> = {
  normal: 'Normal',
  effect: 'Effect',
  ritual: 'Ritual',
  fusion: 'Fusion',
  synchro: 'Synchro',
  xyz: 'Xyz',
  link: 'Link',
  pendulum: 'Pendulum',
  tuner: 'Tuner',
};

export const CARD_ATTRIBUTES = ['DARK', 'DIVINE', 'EARTH', 'FIRE', 'LIGHT', 'WATER', 'WIND'] as const;
export type CardAttribute = (typeof CARD_ATTRIBUTES)[number];

export interface CardSearchFilters {
  type?: CardTypeFilter;
  attribute?: CardAttribute;
  /** An archetype exactly as `archetype()` returns it. */
  archetype?: string;
}

export interface CardSearchResult {
  /** Best match first, at most the limit asked for (parsed in full: the list shows their stats). */
  cards: Card[];
  /** Every card that matched the query and the filters. */
  total: number;
}

/**
 * What a typed name leads to: one card (by passcode, exact name, or a match clearly better than the
 * rest), a few candidates to choose from, or nothing at all.
 */
export type CardResolution =
  | { kind: 'card'; card: Card; by: 'id' | 'name' | 'match' }
  | { kind: 'choices'; candidates: CardSummary[] }
  | { kind: 'none' };

export interface CardArt {
  format: 'jpg' | 'png';
  data: Buffer;
}

/** One card of a set, from the card database's printings. */
export interface SetListing {
  card: CardSummary;
  /** Its set numbers in this set, in order: old sets were numbered once per region (`LOB-001`, `LOB-E001`, `LOB-EN001`). */
  numbers: string[];
  /** Its rarities in this set, without repeats. */
  rarities: string[];
}

/** A card's printing, with its set's TCG release date when the set list knows it. */
export interface PrintingView extends CardPrinting {
  tcgDate?: string;
}

export const CARD_SERVICE_DEFAULTS = {
  /** `/card random` does not repeat any of a channel's last this-many picks. */
  recentPerChannel: 10,
  /** Channels whose recent picks are remembered (least recently used forgotten first). */
  rememberedChannels: 10_000,
  /** At most this many candidates in a "Did you mean" menu (a Discord select holds 25). */
  maxCandidates: 25,
} as const;

/**
 * Longest a reply waits for what only adds to it: card or set art not stored yet, a translation. Past
 * it the card is shown without; the download goes on, so a later reply has it. Waiting for a free
 * request slot and then YGOPRODeck's own 15 s timeout would hold the answer past the 20 s a user
 * should ever wait when YGOPRODeck hangs.
 */
export const OPTIONAL_EXTRA_WAIT_MS = 5_000;

/** `work`'s result, or undefined once `ms` have passed (the work itself goes on). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Autocomplete, search and "Did you mean" stop reading a query after this many characters. */
const MAX_QUERY_CHARS = 200;
const MAX_PASSCODE = 9_999_999_999;

export interface CardServiceOptions {
  database: Pick<
    CardDatabase,
    | 'ready'
    | 'version'
    | 'size'
    | 'summaries'
    | 'byId'
    | 'summaryById'
    | 'byName'
    | 'cardsInSet'
    | 'random'
    | 'hasTexts'
    | 'translation'
    | 'localNames'
    | 'lookupRemote'
    | 'onReload'
    | 'onTextsReload'
    | 'details'
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
  sets?: Pick<CardSetCatalog, 'ready' | 'whenReady' | 'suggest' | 'resolve' | 'byKey' | 'byName' | 'byCode' | 'details' | 'start' | 'close'>;
  /** Abbreviation → card name; the matcher's defaults ("mst", "ash"…) when absent. */
  aliases?: Readonly<Record<string, string>>;
  recentPerChannel?: number;
  /** Where the channels' recent picks live (shared by the fleet with Redis); in process when absent. */
  channelHistory?: SharedState['channelHistory'];
  logger?: Logger;
}

/** The matcher and the lists derived from one loaded card set; replaced as a whole on reload. */
interface CardIndex {
  matcher: CardMatcher;
  /** Archetype names, sorted, and by lowercase name. */
  archetypes: string[];
  archetypeByKey: Map<string, string>;
  /** The sets shown lately, by `setNameKey` of the set name: their cards in set-number order. */
  setListings: LRUCache<string, SetListing[]>;
}

/** Set listings kept: building one parses the set's cards (a few ms for the largest sets). */
const SET_LISTINGS_KEPT = 32;

export class CardService {
  private readonly database: CardServiceOptions['database'];
  private readonly images: CardServiceOptions['images'];
  private readonly client: CardServiceOptions['client'];
  private readonly sets: CardServiceOptions['sets'];
  private readonly aliases: Readonly<Record<string, string>>;
  private readonly logger: Logger;
  private readonly recentPicks: ChannelHistory;
  private index: CardIndex | null = null;
  private readonly unsubscribe: (() => void)[];

  constructor(options: CardServiceOptions) {
    const recent = options.recentPerChannel ?? CARD_SERVICE_DEFAULTS.recentPerChannel;
    if (!Number.isInteger(recent) || recent < 0) {
      throw new TypeError(`CardService: option "recentPerChannel" must be a non-negative integer, got ${recent}`);
    }
    this.database = options.database;
    this.images = options.images;
    this.client = options.client;
    this.sets = options.sets;
    this.aliases = options.aliases ?? DEFAULT_ALIASES;
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.recentPicks = (options.channelHistory ?? createLocalChannelHistory)({
      name: 'card-random',
      length: recent,
      maxChannels: CARD_SERVICE_DEFAULTS.rememberedChannels,
    });
    this.unsubscribe = [
      this.database.onReload(() => this.rebuildIndex()),
      // A language's names are matched for its users: a new set of them means a new matcher.
      this.database.onTextsReload(() => {
        if (this.database.ready) this.rebuildIndex();
      }),
    ];
    if (this.database.ready) this.rebuildIndex();
  }

  /** True once the card database is loaded; until then only exact names and passcodes are found (upstream). */
  get ready(): boolean {
    return this.index !== null;
  }

  get size(): number {
    return this.database.size;
  }

  /** While no card set is loaded: the failed download, so commands can say so instead of waiting. */
  get loadFailure(): CardDatabaseFailure | null {
    return this.ready ? null : this.database.lastFailure;
  }

  /**
   * Loads the stored set list and the card snapshot from disk (never waits on the network) and starts
   * keeping both fresh. The set list starts first so that the database's first reload finds it.
   */
  async start(): Promise<void> {
    await this.sets?.start();
    await this.database.start();
  }

  /**
   * Resolves true as soon as the database is loaded, false after `timeoutMs` without it or as soon
   * as the download fails (`loadFailure` then says why). Never starts a download itself: the
   * database's own schedule does that.
   */
  async whenReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return true;
    let timer: NodeJS.Timeout | undefined;
    const unsubscribe: (() => void)[] = [];
    try {
      return await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        unsubscribe.push(this.database.onReload(() => resolve(true)));
        unsubscribe.push(this.database.onLoadFailure(() => resolve(false)));
      });
    } finally {
      clearTimeout(timer);
      for (const stop of unsubscribe) stop();
    }
  }

  /** True once `language`'s database is loaded: from then on its texts are shown without a request. */
  languageReady(language: CardLanguage): boolean {
    return this.database.hasTexts(language);
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

  /** By passcode (alternate-art ids included), from the local database. */
  byId(id: number): Card | undefined {
    return this.database.byId(id);
  }

  /**
   * What `/card show name:<input>` opens. The input is an autocomplete choice (a passcode) or
   * whatever the user typed. Before the database has loaded, exact names and passcodes are asked
   * upstream (cached) and anything else finds nothing. With a language, names in that language
   * are matched too. An upstream lookup (or its refresh) is charged to `charge`.
   */
  async resolve(input: string, language?: CardLanguage, charge?: RequestCharge): Promise<CardResolution> {
    const query = input.trim().slice(0, MAX_QUERY_CHARS);
    if (query === '') return { kind: 'none' };
    const passcode = parsePasscode(query);
    if (!this.ready) return this.resolveRemotely(query, passcode, charge);
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

  /** `/card search`: name matches (in `language` too when given), best first, narrowed by the filters. Local only. */
  search(query: string, filters: CardSearchFilters = {}, limit = 25, language?: CardLanguage): CardSearchResult {
    // Every match is scored, not just the first page, so filters never leave a page short.
    const matched = this.matches(query, this.database.size, language).filter((card) => matchesFilters(card, filters));
    const cards = matched.slice(0, Math.max(0, limit)).flatMap((summary) => this.database.byId(summary.id) ?? []);
    return { cards, total: matched.length };
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

  /**
   * A random card from the local database, none of the channel's last few picks; undefined while
   * the database is not loaded. Never calls upstream.
   */
  async random(channelId: string): Promise<Card | undefined> {
    if (!this.ready) return undefined;
    const recent = await this.recentPicks.recent(channelId);
    const card = this.database.random(new Set(recent)) ?? this.database.random();
    if (card === undefined) return undefined;
    await this.recentPicks.add(channelId, card.id);
    return card;
  }

  /**
   * The card with its name and texts in `language`; undefined when YGOPRODeck has not translated it
   * (it is then shown in English). Everything else (stats, prices, printings) stays as in the
   * English database, so a translated card never disagrees with the English one.
   *
   * Local once the language's database has loaded: no request at all. Before that (a first start
   * downloads English first, then each language), the translation is asked upstream (cached), as
   * it was before language databases existed, so a French user does not get English text for the
   * minute a first download takes; that path throws the client's UpstreamError.
   */
  async localize(card: Card, language: CardLanguage, charge?: RequestCharge): Promise<LocalizedCard | undefined> {
    if (this.database.hasTexts(language)) {
      const translation = this.database.translation(card.id, language);
      return translation === undefined ? undefined : localizeCard(card, translation, language);
    }
    const translated = await within(this.client.localized(card.id, language, charge), OPTIONAL_EXTRA_WAIT_MS);
    if (translated === undefined) throw new UpstreamError('ygoprodeck', 'unavailable', 'the translation is taking too long');
    return localizeCard(card, translated, language);
  }

  /**
   * The card's main art from the local store (downloaded once when missing), or null when it cannot
   * be had right now (or `charge` refuses its download); the card is then shown without it.
   */
  async art(card: Card, charge?: RequestCharge): Promise<CardArt | null> {
    const imageId = card.imageIds[0] ?? card.id;
    try {
      const data = await within(this.images.get(imageId, 'full', charge), OPTIONAL_EXTRA_WAIT_MS);
      if (data === undefined) {
        this.logger.info({ cardId: card.id, imageId }, 'card shown without its art: still downloading');
        return null;
      }
      const format = imageType(data);
      return format === undefined ? null : { format, data };
    } catch (error) {
      const level = isUpstreamError(error) ? 'info' : 'warn';
      this.logger[level]({ err: error, cardId: card.id, imageId }, 'card shown without its art');
      return null;
    }
  }

  /** True once the card set list is loaded. */
  get setsReady(): boolean {
    return this.sets?.ready ?? false;
  }

  /** Resolves true as soon as the set list is loaded, false after `timeoutMs` without it (never fetches itself). */
  async whenSetsReady(timeoutMs: number): Promise<boolean> {
    return this.sets === undefined ? false : this.sets.whenReady(timeoutMs);
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
    if (listing === undefined) index.setListings.set(key, (listing = setListingOf(key, this.database.cardsInSet(set.name), this.database)));
    return listing;
  }

  /** The set's image from the local store (downloaded once when missing), or null when it has none or it cannot be had. */
  async setArt(set: CardSet, charge?: RequestCharge): Promise<CardArt | null> {
    if (set.imageStem === undefined) return null;
    try {
      const data = await within(this.images.getSetImage(set.imageStem, charge), OPTIONAL_EXTRA_WAIT_MS);
      if (data === undefined) {
        this.logger.info({ set: set.key, imageStem: set.imageStem }, 'card set shown without its image: still downloading');
        return null;
      }
      const format = imageType(data);
      return format === undefined ? null : { format, data };
    } catch (error) {
      const level = isUpstreamError(error) ? 'info' : 'warn';
      this.logger[level]({ err: error, set: set.key, imageStem: set.imageStem }, 'card set shown without its image');
      return null;
    }
  }

  /** The card's printings, oldest TCG release first (sets without a known date last), then by set number. */
  printings(card: Card): PrintingView[] {
    const views: PrintingView[] = card.sets.map((printing) => {
      const tcgDate = this.sets?.byName(printing.setName)?.tcgDate;
      return tcgDate === undefined ? { ...printing } : { ...printing, tcgDate };
    });
    return views.sort(
      (left, right) =>
        compareReleaseDates(left.tcgDate, right.tcgDate) || compareSetNumbers(left.setCode, right.setCode) || left.rarity.localeCompare(right.rarity, 'en'),
    );
  }

  /** YGOPRODeck's health for /status, with the card database's, set list's and image store's facts. */
  health(): UpstreamHealth {
    return this.client.health({ ...this.database.details(), ...this.sets?.details(), ...this.images.details() });
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
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

  private async resolveRemotely(query: string, passcode: number | undefined, charge: RequestCharge | undefined): Promise<CardResolution> {
    try {
      const card = await this.database.lookupRemote(passcode ?? query, charge);
      return { kind: 'card', card, by: passcode === undefined ? 'name' : 'id' };
    } catch (error) {
      // A name that is not exact (or a number that is no passcode) finds nothing until the database is here.
      if (isUpstreamError(error, 'not_found') || isUpstreamError(error, 'invalid_input')) return { kind: 'none' };
      throw error;
    }
  }

  private rebuildIndex(): void {
    const started = performance.now();
    const cards = this.database.summaries();
    const matchable: MatchableCard[] = cards.map((card) => ({
      id: card.id,
      name: card.name,
      altNames: card.altNames,
      ...(card.konamiId === undefined ? {} : { konamiId: card.konamiId }),
      popularity: card.views,
    }));
    const archetypeByKey = new Map<string, string>();
    for (const card of cards) {
      if (card.archetype !== undefined) archetypeByKey.set(card.archetype.toLowerCase(), card.archetype);
    }
    this.index = {
      // Each language's names as its database holds them (none until it has loaded); rebuilt when one reloads.
      matcher: new CardMatcher(matchable, this.aliases, { localizedNames: (language) => this.database.localNames(language) }),
      archetypes: [...archetypeByKey.values()].sort((left, right) => left.localeCompare(right, 'en')),
      archetypeByKey,
      setListings: new LRUCache({ max: SET_LISTINGS_KEPT }),
    };
    this.logger.info({ cards: cards.length, buildMs: Math.round(performance.now() - started) }, 'card matcher rebuilt');
  }
}

/** A set's cards (`setKey`: `setNameKey` of its name): one entry per card, gathering its numbers and rarities in that set. */
function setListingOf(setKey: string, cards: readonly Card[], database: Pick<CardDatabase, 'summaryById'>): SetListing[] {
  const listings: SetListing[] = [];
  for (const card of cards) {
    const summary = database.summaryById(card.id);
    if (summary === undefined) continue;
    const listing: SetListing = { card: summary, numbers: [], rarities: [] };
    for (const printing of card.sets) {
      if (setNameKey(printing.setName) !== setKey) continue;
      if (printing.setCode !== '' && !listing.numbers.includes(printing.setCode)) listing.numbers.push(printing.setCode);
      if (printing.rarity !== '' && !listing.rarities.includes(printing.rarity)) listing.rarities.push(printing.rarity);
    }
    listing.numbers.sort(compareSetNumbers);
    listings.push(listing);
  }
  return listings.sort(
    (left, right) => compareSetNumbers(left.numbers[0] ?? '', right.numbers[0] ?? '') || left.card.name.localeCompare(right.card.name, 'en'),
  );
}

const SET_NUMBER_ORDER = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** `LOB-EN002` before `LOB-EN010`: set numbers compared with their digits as numbers. */
function compareSetNumbers(left: string, right: string): number {
  return SET_NUMBER_ORDER.compare(left, right);
}

/** Oldest first; an unknown date last. ISO dates compare as strings. */
function compareReleaseDates(left: string | undefined, right: string | undefined): number {
  if (left === right) return 0;
  if (left === undefined) return 1;
  if (right === undefined) return -1;
  return left < right ? -1 : 1;
}

function matchesFilters(card: CardSummary, filters: CardSearchFilters): boolean {
  if (filters.attribute !== undefined && card.attribute !== filters.attribute) return false;
  if (filters.archetype !== undefined && card.archetype !== filters.archetype) return false;
  if (filters.type !== undefined) {
    const word = TYPE_LINE_WORDS[filters.type];
    if (word !== undefined) return card.kind === 'monster' && card.typeLine.split(' / ').includes(word);
    return card.kind === filters.type;
  }
  return true;
}

/** A passcode as typed or as an autocomplete value: digits only, leading zeros allowed. */
function parsePasscode(text: string): number | undefined {
  if (!/^\d{1,12}$/.test(text)) return undefined;
  const value = Number(text);
  return value > 0 && value <= MAX_PASSCODE ? value : undefined;
}

export interface CreateCardServiceOptions {
  /** YGOPRODeck API origin (`YGOPRODECK_URL`). */
  baseUrl: string;
  /** Card and set art base (`YGOPRODECK_IMAGES_URL`); YGOPRODeck's own by default. */
  imagesBaseUrl?: string;
  /** `DATA_DIR`: the database snapshot and the image store live under it. */
  dataDir: string;
  dispatcher?: Dispatcher;
  limiterFactory?: LimiterFactory;
  cacheFactory?: CacheFactory;
  metrics?: Metrics;
  logger?: Logger;
  /** Limiter settings, for tests only (production uses YGOPRODeck's own). */
  limits?: Partial<YgoprodeckLimits>;
  /** Card database settings, for tests only (e.g. a fake with fewer cards than the real minimum). */
  database?: Pick<CardDatabaseOptions, 'minCards' | 'pollIntervalMs' | 'retryIntervalMs' | 'random'>;
  recentPerChannel?: number;
  channelHistory?: SharedState['channelHistory'];
  /** Card and set art fetched once for the whole fleet. */
  sharedArt?: SharedBlobs;
  /** Each database version downloaded once for the whole fleet (the shared state's `downloadOnce`). */
  downloadOnce?: DownloadOnce;
}

/** Builds the YGOPRODeck client, the card database, the set list, the image store and the service over them. */
export function createCardService(options: CreateCardServiceOptions): CardService {
  const logger = options.logger ?? pino({ level: 'silent' });
  const client = new YgoprodeckClient({
    baseUrl: options.baseUrl,
    ...(options.imagesBaseUrl === undefined ? {} : { imagesBaseUrl: options.imagesBaseUrl }),
    dispatcher: options.dispatcher,
    limiterFactory: options.limiterFactory,
    cacheFactory: options.cacheFactory,
    metrics: options.metrics,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  const database = new CardDatabase({ client, dataDir: options.dataDir, logger: logger.child({ component: 'card-database' }), downloadOnce: options.downloadOnce, ...options.database });
  const images = new CardImageStore({
    client,
    dataDir: options.dataDir,
    logger: logger.child({ component: 'card-images' }),
    ...(options.sharedArt === undefined ? {} : { shared: options.sharedArt }),
  });
  const sets = new CardSetCatalog({ client, database, dataDir: options.dataDir, logger: logger.child({ component: 'card-sets' }) });
  return new CardService({
    database,
    images,
    client,
    sets,
    logger: logger.child({ component: 'cards' }),
    ...(options.recentPerChannel === undefined ? {} : { recentPerChannel: options.recentPerChannel }),
    ...(options.channelHistory === undefined ? {} : { channelHistory: options.channelHistory }),
  });
}
