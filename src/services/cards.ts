import { pino, type Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { DEFAULT_ALIASES } from '../cards/aliases.js';
import type { Card, CardLanguage, CardPrinting, LocalizedCard } from '../cards/card.js';
import { setNameKey, type CardSet } from '../cards/card-set.js';
import { CardMatcher, type MatchableCard } from '../cards/matcher.js';
import type { Metrics } from '../metrics.js';
import { createLocalChannelHistory } from '../state/in-process.js';
import type { ChannelHistory, SharedBlobs, SharedState } from '../state/shared-state.js';
import type { CacheFactory } from './cache.js';
import { CardDatabase, type CardDatabaseFailure, type CardDatabaseOptions } from './card-database.js';
import { CardImageStore, imageType } from './card-images.js';
import { CardSetCatalog, type CardSetResolution } from './card-sets.js';
import type { UpstreamHealth } from './health.js';
import type { LimiterFactory } from './limiter.js';
import { isUpstreamError, UpstreamError } from './upstream-error.js';
import { YgoprodeckClient, type YgoprodeckLimits } from './ygoprodeck.js';

/**
 * Everything `/card` needs, behind one object: the local card database, the name matcher over it
 * (rebuilt whenever the database reloads), the card art store, the translated texts and the card
 * set list. Matching, search, random picks, set lookups and set contents are local and never wait
 * on YGOPRODeck; only translations, images not yet stored, and exact lookups while the database has
 * never loaded go upstream.
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
  /** Best match first, at most the limit asked for. */
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
  | { kind: 'choices'; candidates: Card[] }
  | { kind: 'none' };

export interface CardArt {
  format: 'jpg' | 'png';
  data: Buffer;
}

/** One card of a set, from the card database's printings. */
export interface SetListing {
  card: Card;
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
    'ready' | 'version' | 'size' | 'all' | 'byId' | 'byName' | 'random' | 'lookupRemote' | 'onReload' | 'details' | 'start' | 'close' | 'lastFailure' | 'onLoadFailure'
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
  /** Each set's cards, by `setNameKey` of the set name, in set-number order. */
  setListings: Map<string, SetListing[]>;
}

export class CardService {
  private readonly database: CardServiceOptions['database'];
  private readonly images: CardServiceOptions['images'];
  private readonly client: CardServiceOptions['client'];
  private readonly sets: CardServiceOptions['sets'];
  private readonly aliases: Readonly<Record<string, string>>;
  private readonly logger: Logger;
  private readonly recentPicks: ChannelHistory;
  private index: CardIndex | null = null;
  private readonly unsubscribe: () => void;

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
    this.unsubscribe = this.database.onReload(() => this.rebuildIndex());
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

  /** Autocomplete suggestions: local only, never waits; [] while the database is not loaded. */
  suggest(query: string, limit: number = CARD_SERVICE_DEFAULTS.maxCandidates): Card[] {
    return this.matches(query, limit);
  }

  /** By passcode (alternate-art ids included), from the local database. */
  byId(id: number): Card | undefined {
    return this.database.byId(id);
  }

  /**
   * What `/card show name:<input>` opens. The input is an autocomplete choice (a passcode) or
   * whatever the user typed. Before the database has loaded, exact names and passcodes are asked
   * upstream (cached) and anything else finds nothing.
   */
  async resolve(input: string): Promise<CardResolution> {
    const query = input.trim().slice(0, MAX_QUERY_CHARS);
    if (query === '') return { kind: 'none' };
    const passcode = parsePasscode(query);
    if (!this.ready) return this.resolveRemotely(query, passcode);
    if (passcode !== undefined) {
      const card = this.database.byId(passcode);
      if (card) return { kind: 'card', card, by: 'id' };
    }
    const named = this.database.byName(query);
    if (named) return { kind: 'card', card: named, by: 'name' };
    const index = this.index!;
    const best = index.matcher.best(query);
    if (best === null) return { kind: 'none' };
    if (best.clear) {
      const card = this.database.byId(best.match.id);
      if (card) return { kind: 'card', card, by: 'match' };
    }
    const candidates = this.matches(query, CARD_SERVICE_DEFAULTS.maxCandidates);
    return candidates.length === 0 ? { kind: 'none' } : { kind: 'choices', candidates };
  }

  /** `/card search`: name matches, best first, narrowed by the filters. Local only. */
  search(query: string, filters: CardSearchFilters = {}, limit = 25): CardSearchResult {
    // Every match is scored, not just the first page, so filters never leave a page short.
    const matched = this.matches(query, this.database.size).filter((card) => matchesFilters(card, filters));
    return { cards: matched.slice(0, Math.max(0, limit)), total: matched.length };
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
   * The card with its name and texts in `language` (YGOPRODeck's translation, cached upstream-side
   * by the client). Everything else (stats, prices, printings) stays as in the local database, so
   * a translated card never disagrees with the English one. Throws the client's UpstreamError.
   */
  async localize(card: Card, language: CardLanguage): Promise<LocalizedCard> {
    const translated = await within(this.client.localized(card.id, language), OPTIONAL_EXTRA_WAIT_MS);
    if (translated === undefined) throw new UpstreamError('ygoprodeck', 'unavailable', 'the translation is taking too long');
    return { ...card, name: translated.name, description: translated.description, language, englishName: card.name };
  }

  /**
   * The card's main art from the local store (downloaded once when missing), or null when it cannot
   * be had right now; the card is then shown without it.
   */
  async art(card: Card): Promise<CardArt | null> {
    const imageId = card.imageIds[0] ?? card.id;
    try {
      const data = await within(this.images.get(imageId, 'full'), OPTIONAL_EXTRA_WAIT_MS);
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
    return this.index?.setListings.get(setNameKey(set.name)) ?? [];
  }

  /** The set's image from the local store (downloaded once when missing), or null when it has none or it cannot be had. */
  async setArt(set: CardSet): Promise<CardArt | null> {
    if (set.imageStem === undefined) return null;
    try {
      const data = await within(this.images.getSetImage(set.imageStem), OPTIONAL_EXTRA_WAIT_MS);
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
    this.unsubscribe();
    await this.sets?.close();
    await this.database.close();
    await this.client.close();
  }

  private matches(query: string, limit: number): Card[] {
    const index = this.index;
    if (index === null) return [];
    const cards: Card[] = [];
    for (const match of index.matcher.search(query.slice(0, MAX_QUERY_CHARS), limit)) {
      const card = this.database.byId(match.id);
      if (card) cards.push(card);
    }
    return cards;
  }

  private async resolveRemotely(query: string, passcode: number | undefined): Promise<CardResolution> {
    try {
      const card = await this.database.lookupRemote(passcode ?? query);
      return { kind: 'card', card, by: passcode === undefined ? 'name' : 'id' };
    } catch (error) {
      // A name that is not exact (or a number that is no passcode) finds nothing until the database is here.
      if (isUpstreamError(error, 'not_found') || isUpstreamError(error, 'invalid_input')) return { kind: 'none' };
      throw error;
    }
  }

  private rebuildIndex(): void {
    const started = performance.now();
    const cards = this.database.all();
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
      matcher: new CardMatcher(matchable, this.aliases),
      archetypes: [...archetypeByKey.values()].sort((left, right) => left.localeCompare(right, 'en')),
      archetypeByKey,
      setListings: setListingsOf(cards),
    };
    this.logger.info({ cards: cards.length, buildMs: Math.round(performance.now() - started) }, 'card matcher rebuilt');
  }
}

/** Every set's cards: one entry per card, gathering its numbers and rarities in that set. */
function setListingsOf(cards: readonly Card[]): Map<string, SetListing[]> {
  const bySet = new Map<string, Map<number, SetListing>>();
  for (const card of cards) {
    for (const printing of card.sets) {
      const setKey = setNameKey(printing.setName);
      let listings = bySet.get(setKey);
      if (listings === undefined) bySet.set(setKey, (listings = new Map()));
      let listing = listings.get(card.id);
      if (listing === undefined) listings.set(card.id, (listing = { card, numbers: [], rarities: [] }));
      if (printing.setCode !== '' && !listing.numbers.includes(printing.setCode)) listing.numbers.push(printing.setCode);
      if (printing.rarity !== '' && !listing.rarities.includes(printing.rarity)) listing.rarities.push(printing.rarity);
    }
  }
  const result = new Map<string, SetListing[]>();
  for (const [setKey, listings] of bySet) {
    const sorted = [...listings.values()];
    for (const listing of sorted) listing.numbers.sort(compareSetNumbers);
    sorted.sort((left, right) => compareSetNumbers(left.numbers[0] ?? '', right.numbers[0] ?? '') || left.card.name.localeCompare(right.card.name, 'en'));
    result.set(setKey, sorted);
  }
  return result;
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

function matchesFilters(card: Card, filters: CardSearchFilters): boolean {
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
  /** Card art host; YGOPRODeck's own by default. Tests point it at their fake. */
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
  const database = new CardDatabase({ client, dataDir: options.dataDir, logger: logger.child({ component: 'card-database' }), ...options.database });
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
