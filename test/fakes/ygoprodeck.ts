import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { RawCard } from '../../src/cards/normalise-card.js';
import type { RawCardSet } from '../../src/cards/card-set.js';
import { loadCardDump as readCardDump } from '../helpers/card-dump.js';
import { loadMiscInfo, type MiscInfo } from '../helpers/misc-info.js';
import { translatedCard, translatedDump, type FakeLanguage } from './card-translations.js';
import { FakeServer, htmlPage, json, type FakeResponse, type RecordedRequest } from './fake-server.js';

/**
 * A fake YGOPRODeck (API v7 and the image host on one origin), faithful to upstreams.md §3 and §5:
 * the `data` wrapper, `misc=yes`, exact/fuzzy/id/language lookups, 400 JSON errors, `num`/`offset`
 * meta arithmetic, `checkDBVer.php`, `cardsets.php`, card and set image routes, and the 20
 * requests/s limit that, once exceeded, blocks every later request for the rest of the test (as the
 * real IP ban does for an hour).
 */

/** The real full `cardinfo.php` dump of 2025-04-25 (13,703 cards, no `misc_info`), as the bot's own type. */
export function loadCardDump(): RawCard[] {
  return readCardDump();
}

/**
 * Limiter settings for tests of what a client does with YGOPRODeck's answers rather than of its pace:
 * requests 60 ms apart (under the fake's 20 in any second) instead of production's 125 ms.
 */
export const TEST_PACE = { minTimeMs: 60 } as const;

/** Cards every default fake serves, each for a quirk the bot must handle. */
export const QUIRK_CARD_IDS = {
  normalMonster: 46986414, // Dark Magician
  altArts: 89631139, // Blue-Eyes White Dragon: 8 artworks
  linkNullDefLevel: 4731783, // A Bao A Qu, the Lightless Shadow: def null, level null
  xyzNullLevel: 72409226, // Materiactor Exagard: an Xyz with level null
  xyzRankZero: 65305468, // Number F0: Utopic Future: rank 0
  questionAtk: 10678778, // Aegaion the Sea Castrum: atk -1
  questionDef: 45871897, // Lost Guardian: def -1
  pendulum: 15308295, // Abyss Actor - Comic Relief: pend_desc + monster_desc
  pendulumWithoutMarkers: 5506791, // Majespecter Cat - Nekomata
  token: 44052075, // Ancient Gear Token
  skill: 300302022, // Ancient Fusion ("Skill - Dr. Vellian C")
  skillEmptyRace: 300302044, // Believe in your Bro (race "")
  trapEmptyRace: 20726052, // Maliss C GWC-06
  continuousSpell: 34541863, // "A" Cell Breeding Device
  ampersandName: 14558127, // Ash Blossom & Joyous Spring
  slashName: 36614113, // D/D Ark
  hashName: 38289717, // Crawling Dragon #2
  treatedAs: 91932350, // Harpie Lady 1: treated as "Harpie Lady"
  masterDuelForbidden: 23434538, // Maxx "C": Forbidden in Master Duel
} as const;

export type CardinfoBodyMode =
  /** The whole database, as served normally. */
  | 'full'
  /** The first half of the bytes of the full body, as if the transfer had been cut. */
  | 'truncated'
  /** A valid body with only a tenth of the cards (upstream once served 304 cards, AlanOC91/YGOPRODeck#56). */
  | 'few';

export interface FakeYgoprodeckOptions {
  /** Default: `representativeCards()`, 300 cards of the real dump covering every quirk. */
  cards?: readonly RawCard[];
  /** `cardsets.php`'s list. Default: `dumpCardSets()`, every set of the real dump (the real list does not depend on `cards`). */
  cardSets?: RawCardSet[];
  version?: string;
  /** The upstream's limit; the default is the real one (20 in any 1 s). Tests with a scaled-down limiter scale it too. */
  rateLimit?: { windowMs: number; maxRequests: number };
}

const ALLOWED_CARDINFO_PARAMS = new Set(['name', 'fname', 'id', 'misc', 'language', 'format', 'num', 'offset', 'sort', 'attribute']);
const LANGUAGES = new Set(['fr', 'de', 'it', 'pt']);
const ATTRIBUTES = new Set(['dark', 'earth', 'fire', 'light', 'water', 'wind', 'divine']);
const NO_MATCH = 'No card matching your query was found in the database.';
const NO_MATCH_LEGACY_SUFFIX = ' Please see https://db.ygoprodeck.com/api-guide/ for syntax usage.';
/** Whole-database bodies of frozen card lists, by list, then language, `misc` and body mode. */
const WHOLE_BODIES = new WeakMap<readonly RawCard[], Map<string, FakeResponse>>();
const IMAGE_ROUTE = /^\/images\/(cards|cards_small|cards_cropped)\/(\d+)\.jpg$/;
const SET_IMAGE_ROUTE = /^\/images\/sets\/([^/]+)\.jpg$/;

function isCardLookup(request: RecordedRequest): boolean {
  return ['name', 'fname', 'id'].some((key) => request.query.has(key));
}

export class FakeYgoprodeck {
  readonly server: FakeServer;
  /** Emits `request` with each recorded request, for tests that wait on traffic (see waitForCondition). */
  readonly events = new EventEmitter();
  cards: readonly RawCard[];
  /** `cardsets.php`'s answer, as served: a bare array, A–Z. Tests may replace it. */
  cardSets: RawCardSet[];
  version: string;
  lastUpdate = '2025-04-25 08:09:03';
  /** Set by the rate counter, or by a test, to answer every request with a block page. */
  blocked = false;
  blockStatus: 403 | 429 = 403;
  /** Sent as `Retry-After` on block pages when set. */
  blockRetryAfterSeconds: number | undefined;
  /** The old no-match text, with the " Please see …" suffix. */
  legacyNoMatchText = false;
  /** How the whole English database is served. */
  cardinfoBody: CardinfoBodyMode = 'full';
  /** Whole-database downloads (English or a language) are answered this much later: a first start on a slow link. */
  wholeDownloadDelayMs = 0;
  /** While set, whole-database downloads are answered only once it settles: a download still under way, for as long as a test needs. */
  wholeDownloadsHeld: Promise<unknown> | undefined;
  /** How the Genesys pool (`format=genesys`) is served. */
  genesysBody: CardinfoBodyMode = 'full';
  /** How a language's whole database (`language=…`) is served; `full` for a language not listed. */
  languageDumpBody: Partial<Record<FakeLanguage, CardinfoBodyMode>> = {};
  rateLimit: { windowMs: number; maxRequests: number };
  /**
   * Genesys points by card name (`genesys_points` of `format=genesys&misc=yes`): Konami's list of
   * 2025-09-24 (test/fixtures/genesys-points-2025-09-24.json); a card of the pool not named is at 0.
   */
  genesysPoints: Record<string, number> = genesysFixture();
  /** When set, card art is served as this JPEG instead of the stub: tests that compose pictures need one that decodes. */
  decodableArt: Buffer | undefined;

  constructor(options: FakeYgoprodeckOptions = {}) {
    this.cards = options.cards ?? representativeCards();
    this.cardSets = options.cardSets ?? dumpCardSets();
    this.version = options.version ?? '1.00';
    this.rateLimit = options.rateLimit ?? { windowMs: 1_000, maxRequests: 20 };
    this.server = new FakeServer((request) => this.handle(request));
  }

  get url(): string {
    return this.server.url;
  }

  /**
   * Serves the next database version, whose ban lists differ from the current one's: `limits` sets
   * each listed card's status per format (`ban_tcg`, `ban_ocg`, `ban_goat`, `ban_masterduel`), null
   * taking it off that list. Upstream keeps no past lists, so neither does the fake.
   */
  serveBanlistChange(version: string, limits: Readonly<Record<number, Partial<Record<'tcg' | 'ocg' | 'goat' | 'masterduel', string | null>>>>): void {
    this.cards = this.cards.map((card) => {
      const change = limits[card.id];
      if (change === undefined) return card;
      const info: Record<string, string> = { ...card.banlist_info };
      for (const [format, status] of Object.entries(change)) {
        if (status === null) delete info[`ban_${format}`];
        else info[`ban_${format}`] = status;
      }
      return { ...card, banlist_info: info };
    });
    this.version = version;
  }

  /** Serves the next database version with some cards' Genesys points changed (by name; 0 takes a card off the pointed list). */
  serveGenesysChange(version: string, points: Readonly<Record<string, number>>): void {
    this.genesysPoints = { ...this.genesysPoints, ...points };
    this.version = version;
  }

  /** Downloads of the Genesys pool (`cardinfo.php?format=genesys`). */
  genesysDownloads(): RecordedRequest[] {
    return this.wholeDumps().filter((request) => request.query.get('format') === 'genesys');
  }

  /** The image base to give the client (`imagesBaseUrl`). */
  get imagesUrl(): string {
    return `${this.server.url}/images`;
  }

  requestsTo(prefix: string): RecordedRequest[] {
    return this.server.requestsTo(prefix);
  }

  /** Downloads of the whole English database (`cardinfo.php` without a lookup or language parameter). */
  fullDownloads(): RecordedRequest[] {
    return this.wholeDumps().filter((request) => !request.query.has('language') && !request.query.has('format'));
  }

  /** Downloads of a language's whole database (`cardinfo.php?language=…` without a lookup parameter). */
  languageDownloads(language: string): RecordedRequest[] {
    return this.wholeDumps().filter((request) => request.query.get('language') === language);
  }

  /** Lookups of cards (`cardinfo.php` by `name`, `fname` or `id`): what a command asks when the local database cannot answer. */
  cardLookups(): RecordedRequest[] {
    return this.requestsTo('/api/v7/cardinfo.php').filter(isCardLookup);
  }

  private wholeDumps(): RecordedRequest[] {
    return this.requestsTo('/api/v7/cardinfo.php').filter((request) => !isCardLookup(request));
  }

  async close(): Promise<void> {
    await this.server.close();
  }

  /**
   * Builds the whole-database bodies now (English as the bot asks for it, `misc=yes`, and each
   * language), so that a download later only writes them: building one is 0.35-0.75 s of CPU, which a
   * bench watching the bot's event loop must not spend on the same cores while the bot downloads it.
   * Memoised per card list, so the list must be frozen.
   */
  prepareWholeDumps(): void {
    if (!Object.isFrozen(this.cards)) throw new Error('prepareWholeDumps needs a frozen card list: the bodies are memoised per list');
    for (const query of ['misc=yes', 'format=genesys&misc=yes', ...[...LANGUAGES].map((language) => `language=${language}`)]) this.cardinfo(new URLSearchParams(query));
  }

  private handle(request: RecordedRequest): FakeResponse | Promise<FakeResponse> {
    this.events.emit('request', request);
    if (this.exceedsRateLimit(request)) this.blocked = true;
    if (this.blocked) {
      const retryAfter: Record<string, string> =
        this.blockRetryAfterSeconds === undefined ? {} : { 'retry-after': String(this.blockRetryAfterSeconds) };
      return htmlPage(this.blockStatus, this.blockStatus === 429 ? 'Too Many Requests' : 'Access denied', retryAfter);
    }
    if (request.path === '/api/v7/cardinfo.php') {
      const response = this.cardinfo(request.query);
      const whole = !['name', 'fname', 'id'].some((key) => request.query.has(key));
      if (whole && this.wholeDownloadsHeld !== undefined) return this.wholeDownloadsHeld.then(() => response);
      return whole && this.wholeDownloadDelayMs > 0 ? delay(this.wholeDownloadDelayMs, response, { ref: false }) : response;
    }
    if (request.path === '/api/v7/checkDBVer.php') {
      if ([...request.query.keys()].length > 0) return apiError('checkDBVer.php does not accept parameters.');
      return json(200, [{ database_version: this.version, last_update: this.lastUpdate }]);
    }
    if (request.path === '/api/v7/cardsets.php') {
      if ([...request.query.keys()].length > 0) return apiError('cardsets.php does not accept parameters.');
      return json(200, this.cardSets, { 'access-control-allow-origin': '*' });
    }
    const image = IMAGE_ROUTE.exec(request.path);
    if (image) return this.image(image[1]!, Number(image[2]));
    const setImage = SET_IMAGE_ROUTE.exec(request.path);
    if (setImage) return this.setImage(setImage[1]!);
    return htmlPage(404, 'Not Found');
  }

  private exceedsRateLimit(request: RecordedRequest): boolean {
    const since = request.at - this.rateLimit.windowMs;
    const inWindow = this.server.requests.filter((earlier) => earlier.at > since && earlier.at <= request.at).length;
    return inWindow > this.rateLimit.maxRequests;
  }

  private cardinfo(query: URLSearchParams): FakeResponse {
    for (const key of query.keys()) {
      if (!ALLOWED_CARDINFO_PARAMS.has(key)) return apiError(`You have an invalid parameter in your query: ${key}.`);
    }
    const language = query.get('language');
    if (language !== null && !LANGUAGES.has(language)) {
      return apiError(`Language value of ${language} is invalid. Please use a correct language value (fr, de, it, pt).`);
    }
    const format = query.get('format');
    if (format !== null && format !== 'genesys') return apiError(`Format value of ${format} is invalid.`);
    if (query.has('num') !== query.has('offset')) return apiError('You cannot use only num or offset. Please use both.');
    if (query.has('name') && query.has('id')) return apiError('You cannot use both name and id in the same query.');
    const attribute = query.get('attribute');
    if (attribute !== null && !attribute.split(',').every((value) => ATTRIBUTES.has(value.toLowerCase()))) {
      return apiError(
        `Attribute value of ${attribute} is invalid. Please use a correct attribute value. Attribute accepts 'dark', 'earth', 'fire', 'light', 'water', 'wind' or 'divine' and is not case sensitive.`,
      );
    }

    const isFullDownload = !['name', 'fname', 'id'].some((key) => query.has(key));
    const bodyMode = !isFullDownload
      ? 'full'
      : format !== null
        ? this.genesysBody
        : language === null
          ? this.cardinfoBody
          : (this.languageDumpBody[language as FakeLanguage] ?? 'full');
    // A frozen card list (the real dump, read once per test worker) is served whole file after file:
    // its body is made once per language and mode.
    // Genesys points can change while the card list stays: they are in the key.
    const memoKey = isFullDownload && Object.isFrozen(this.cards) && [...query.keys()].every((key) => key === 'misc' || key === 'language' || key === 'format')
      ? `${language ?? 'en'} ${query.get('misc') ?? ''} ${bodyMode}${format === null ? '' : ` ${format} ${JSON.stringify(this.genesysPoints)}`}`
      : undefined;
    const memo = memoKey === undefined ? undefined : WHOLE_BODIES.get(this.cards)?.get(memoKey);
    if (memo !== undefined) return memo;
    // A language's dump holds its translated cards only (see card-translations.ts).
    const source = language === null ? this.cards : isFullDownload ? translatedDump(this.cards, language as FakeLanguage) : this.cards;
    let cards = source.filter((card) => matches(card, query) && (format === null || inGenesysPool(card)));
    if (query.get('sort') === 'name') cards = [...cards].sort((a, b) => a.name.localeCompare(b.name));
    if (query.get('sort') === 'id') cards = [...cards].sort((a, b) => a.id - b.id);

    const misc = query.get('misc') === 'yes';
    if (language !== null && !isFullDownload) {
      cards = cards.map((card) => translatedCard(card, language as FakeLanguage)).filter((card) => card !== undefined);
    }
    let data: RawCard[] = cards.map((card) => (misc ? asDownloaded(card) : withMasterDuelBan(card)));
    // As upstream: the points only with both `format=genesys` and `misc=yes` (AlanOC91/YGOPRODeck#540).
    if (format !== null && misc) data = data.map((card) => withGenesysPoints(card, this.genesysPoints[card.name] ?? 0));

    let meta: Record<string, unknown> | undefined;
    if (query.has('num')) {
      const num = Number(query.get('num'));
      const offset = Number(query.get('offset'));
      if (!Number.isInteger(num) || num <= 0 || !Number.isInteger(offset) || offset < 0) {
        return apiError('num and offset must be positive integers.');
      }
      const total = data.length;
      data = data.slice(offset, offset + num);
      const next = new URLSearchParams(query);
      next.set('offset', String(offset + num));
      meta = {
        generated: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
        current_rows: data.length,
        total_rows: total,
        rows_remaining: Math.max(0, total - offset - data.length),
        total_pages: Math.floor(total / num),
        pages_remaining: Math.max(0, Math.floor((total - offset) / num)),
        ...(offset + num < total
          ? { next_page: `https://db.ygoprodeck.com/api/v7/cardinfo.php?${next.toString()}`, next_page_offset: offset + num }
          : {}),
      };
    }
    if (data.length === 0) return apiError(this.legacyNoMatchText ? NO_MATCH + NO_MATCH_LEGACY_SUFFIX : NO_MATCH);

    if (bodyMode === 'few') data = data.slice(0, Math.ceil(data.length / 10));
    const response = json(200, meta ? { data, meta } : { data }, { 'access-control-allow-origin': '*' });
    const body = Buffer.from(response.body ?? '');
    const served = { ...response, body: bodyMode === 'truncated' ? body.subarray(0, Math.floor(body.length / 2)) : body };
    if (memoKey !== undefined) {
      if (!WHOLE_BODIES.has(this.cards)) WHOLE_BODIES.set(this.cards, new Map());
      WHOLE_BODIES.get(this.cards)!.set(memoKey, served);
    }
    return served;
  }

  /** A set's image exists when a listed set points at it (sets sharing a code share their image). */
  private setImage(name: string): FakeResponse {
    const exists = this.cardSets.some((set) => set.set_image?.endsWith(`/images/sets/${name}.jpg`));
    if (!exists) return htmlPage(404, 'Not Found');
    return { status: 200, headers: { 'content-type': 'image/jpeg' }, body: fakeJpeg(`sets/${name}`) };
  }

  private image(folder: string, imageId: number): FakeResponse {
    const exists = this.cards.some((card) => card.card_images?.some((image) => image.id === imageId));
    if (!exists) return htmlPage(404, 'Not Found');
    return { status: 200, headers: { 'content-type': 'image/jpeg' }, body: this.decodableArt ?? fakeJpeg(`${folder}/${imageId}`) };
  }
}

export async function startFakeYgoprodeck(options: FakeYgoprodeckOptions = {}): Promise<FakeYgoprodeck> {
  const fake = new FakeYgoprodeck(options);
  await fake.server.start();
  return fake;
}

function matches(card: RawCard, query: URLSearchParams): boolean {
  const names = query.get('name');
  if (names !== null && !names.split('|').some((name) => name.toLowerCase() === card.name.toLowerCase())) return false;
  const fname = query.get('fname');
  if (fname !== null && !card.name.toLowerCase().includes(fname.toLowerCase())) return false;
  const ids = query.get('id');
  if (ids !== null && !ids.split(',').some((id) => Number(id) === card.id)) return false;
  const attribute = query.get('attribute');
  if (attribute !== null && !attribute.toLowerCase().split(',').includes(String(card.attribute).toLowerCase())) return false;
  return true;
}

function apiError(message: string): FakeResponse {
  return json(400, { error: message });
}

/**
 * `misc_info` as `misc=yes` adds it, synthesised deterministically from the id: the dump has none.
 * Formats contain a duplicate and the extra values the real data has; every 7th card has a beta
 * name, some wrapped in quotes as upstream sometimes sends them.
 */
function syntheticMisc(card: RawCard): NonNullable<RawCard['misc_info']>[number] & Record<string, unknown> {
  const isSkill = card.frameType === 'skill';
  return {
    views: (card.id * 7919) % 1_000_000,
    viewsweek: card.id % 5_000,
    upvotes: card.id % 50,
    downvotes: card.id % 7,
    formats: isSkill ? ['Duel Links', 'Duel Links'] : ['TCG', 'OCG', 'Common Charity', 'TCG', 'Master Duel'],
    tcg_date: '2002-03-08',
    ocg_date: '1999-02-04',
    konami_id: 4_000 + (card.id % 20_000),
    has_effect: card.type.includes('Effect') ? 1 : 0,
    ...masterDuelFields(card.id),
    ...(card.id % 7 === 0 ? { beta_name: card.id % 2 === 0 ? `"${card.name} (beta)"` : `${card.name} (beta)` } : {}),
  };
}

/** The Genesys pool: TCG cards but Link and Pendulum monsters (and skills and tokens, which are not TCG cards). */
function inGenesysPool(card: RawCard): boolean {
  return !['link', 'skill', 'token'].includes(card.frameType) && !card.frameType.endsWith('_pendulum');
}

/** The Genesys pool of `cards` as `format=genesys&misc=yes` serves it: `misc_info` with each card's points from `points` (0 when not named). */
export function genesysDump(cards: readonly RawCard[], points: Readonly<Record<string, number>> = genesysFixture()): RawCard[] {
  return cards.filter(inGenesysPool).map((card) => withGenesysPoints(asDownloaded(card), points[card.name] ?? 0));
}

function withGenesysPoints(card: RawCard, points: number): RawCard {
  const [misc, ...rest] = card.misc_info ?? [{}];
  return { ...card, misc_info: [{ ...misc, genesys_points: points } as NonNullable<RawCard['misc_info']>[number], ...rest] };
}

let genesysList: Readonly<Record<string, number>> | undefined;

/** Konami's Genesys points of 2025-09-24 by card name (535 cards), as DawnbrandBots/yaml-yugi-limit-regulation recorded them. A fresh copy on every call. */
export function genesysFixture(): Record<string, number> {
  genesysList ??= JSON.parse(readFileSync(new URL('../fixtures/genesys-points-2025-09-24.json', import.meta.url), 'utf8')) as Record<string, number>;
  return { ...genesysList };
}

/** A card as the English full download (`misc=yes`) serves it, which is what the bot stores. */
export function asDownloaded(card: RawCard): RawCard {
  return { ...withMasterDuelBan(card), misc_info: [syntheticMisc(card)] };
}

let miscFixture: Map<number, MiscInfo> | undefined;

/** `md_rarity` and `treated_as` of the misc_info fixture (test/helpers/misc-info.ts). */
function masterDuelFields(id: number): Pick<MiscInfo, 'md_rarity' | 'treated_as'> {
  miscFixture ??= loadMiscInfo();
  const info = miscFixture.get(id);
  return {
    ...(info?.md_rarity === undefined ? {} : { md_rarity: info.md_rarity }),
    ...(info?.treated_as === undefined ? {} : { treated_as: info.treated_as }),
  };
}

/** The card with the fixture's `ban_masterduel` in its `banlist_info`, as upstream sends it (on every answer, like the other ban lists). */
function withMasterDuelBan(card: RawCard): RawCard {
  miscFixture ??= loadMiscInfo();
  const status = miscFixture.get(card.id)?.ban_masterduel;
  return status === undefined ? card : { ...card, banlist_info: { ...card.banlist_info, ban_masterduel: status } };
}

/** A small, valid JPEG (SOI, a comment naming the image, EOI), distinct per image. */
export function fakeJpeg(label: string): Buffer {
  const comment = Buffer.from(`fake ygoprodeck image ${label} `.padEnd(200, '.'));
  const length = Buffer.alloc(2);
  length.writeUInt16BE(comment.length + 2);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe]), length, comment, Buffer.from([0xff, 0xd9])]);
}

/**
 * A second set on the `LOB` code: the real list has two (upstreams.md §3.1), the 2025-04-25 dump's
 * printings name only one. The name is a stand-in; none of the dump's cards is printed in it, and
 * it has no release date and no image.
 */
export const SECOND_LOB_SET = 'Legend of Blue Eyes White Dragon (Reprint)';
/** The set the real list and the dump agree on, with the real list's date and image. */
export const LOB_SET = { set_name: 'Legend of Blue Eyes White Dragon', set_code: 'LOB', tcg_date: '2002-03-08', set_image: 'https://images.ygoprodeck.com/images/sets/LOB.jpg' } as const;

let cardSets: RawCardSet[] | undefined;

/**
 * `cardsets.php` as the real one answers, rebuilt from the full dump's printings: one entry per set
 * name, A–Z, its code the usual prefix of its set numbers (so codes repeat across sets, as real
 * ones do: a booster, its Special Edition and its Sneak Peek card), `num_of_cards` its number of
 * cards. The dump has no set dates or images: each set gets a date and an image derived from its
 * name, except about one in ten without a date and one in seven without an image (left out, or
 * `null` as some responses send). A fresh copy on every call.
 */
export function dumpCardSets(): RawCardSet[] {
  cardSets ??= deriveCardSets(loadCardDump());
  return cardSets.map((set) => ({ ...set }));
}

function deriveCardSets(cards: readonly RawCard[]): RawCardSet[] {
  const bySet = new Map<string, { prefixes: Map<string, number>; cards: Set<number> }>();
  for (const card of cards) {
    for (const printing of card.card_sets ?? []) {
      let set = bySet.get(printing.set_name);
      if (set === undefined) bySet.set(printing.set_name, (set = { prefixes: new Map(), cards: new Set() }));
      const prefix = printing.set_code.split('-')[0]!;
      set.prefixes.set(prefix, (set.prefixes.get(prefix) ?? 0) + 1);
      set.cards.add(card.id);
    }
  }
  const sets: RawCardSet[] = [...bySet].map(([name, set]) => {
    const [code] = [...set.prefixes].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))[0]!;
    const hash = nameHash(name);
    const entry: RawCardSet = { set_name: name, set_code: code, num_of_cards: set.cards.size };
    if (hash % 10 !== 0) entry.tcg_date = new Date(Date.UTC(2002, 0, 1) + (hash % 8_500) * 86_400_000).toISOString().slice(0, 10);
    else if (hash % 20 === 0) entry.tcg_date = null;
    if (hash % 7 !== 0) entry.set_image = `https://images.ygoprodeck.com/images/sets/${encodeURIComponent(code)}.jpg`;
    else if (hash % 14 === 0) entry.set_image = null;
    return name === LOB_SET.set_name ? { ...entry, ...LOB_SET } : entry;
  });
  sets.push({ set_name: SECOND_LOB_SET, set_code: 'LOB', num_of_cards: 1 });
  // A–Z as the real list sorts: case-insensitively.
  return sets.sort((a, b) => a.set_name.toLowerCase().localeCompare(b.set_name.toLowerCase(), 'en'));
}

/** FNV-1a: a stable number per set name, for its synthetic date and image. */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}

let representative: readonly RawCard[] | undefined;

/**
 * 300 cards of the real dump: every quirk card above, at least 8 of every frame type, the banned
 * ones first, then an even spread of the rest. Deterministic, so chosen once per process (most
 * tests start a fake). One frozen list, so its whole-database bodies are made once per process
 * (see `cardinfo`), not once per fake: a test adds or drops cards by assigning a new list.
 */
function representativeCards(): readonly RawCard[] {
  representative ??= Object.freeze(chooseRepresentativeCards(300));
  return representative;
}

function chooseRepresentativeCards(count: number): RawCard[] {
  const all = loadCardDump();
  const chosen = new Map<number, RawCard>();
  const add = (card: RawCard | undefined) => {
    if (card && chosen.size < count) chosen.set(card.id, card);
  };
  for (const id of Object.values(QUIRK_CARD_IDS)) add(all.find((card) => card.id === id));
  add(all.find((card) => card.frameType === 'link' && card.level === 0));
  add(all.find((card) => card.name.includes('%')));
  add(all.find((card) => card.desc.includes('\r\n')));
  add(all.find((card) => card.card_sets === undefined));
  for (const card of all.filter((card) => card.banlist_info?.ban_tcg === 'Forbidden').slice(0, 10)) add(card);
  for (const frameType of new Set(all.map((card) => card.frameType))) {
    for (const card of all.filter((card) => card.frameType === frameType).slice(0, 8)) add(card);
  }
  const stride = Math.max(1, Math.floor(all.length / count));
  for (let index = 0; chosen.size < count && index < all.length; index += stride) add(all[index]);
  return [...chosen.values()];
}
