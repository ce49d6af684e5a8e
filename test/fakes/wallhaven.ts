import { FakeServer, htmlPage, type FakeResponse, type RecordedRequest } from './fake-server.js';
import { seededRandom } from '../helpers/seeded-random.js';

/**
 * A fake wallhaven.cc API v1, faithful to upstreams.md §2 and §5: 24 results a page over a generated
 * catalogue, the search filters, `meta.query` in its three shapes, random sorting with seeds, JSON
 * 400/401/404 bodies, the HTML 500 for `page=0`, NSFW gating (401 on detail, silently dropped in
 * search), a fixed-window 45-per-minute counter with `X-RateLimit-*` headers and an HTML 429 with
 * `Retry-After`, Cloudflare's HTML 403 for a query string starting with `q=like`, and PHP
 * `json_encode` bodies (`\/` and `\uXXXX`).
 */

export type FakePurity = 'sfw' | 'sketchy' | 'nsfw';
export type FakeCategory = 'general' | 'anime' | 'people';

export interface FakeTag {
  id: number;
  name: string;
  alias: string;
  category_id: number;
  category: string;
  purity: FakePurity;
  created_at: string;
}

/** A wallpaper exactly as `/w/<id>` answers it; search summaries omit `uploader` and `tags`. */
export interface FakeWallpaper {
  id: string;
  url: string;
  short_url: string;
  views: number;
  favorites: number;
  source: string;
  purity: FakePurity;
  category: FakeCategory;
  dimension_x: number;
  dimension_y: number;
  resolution: string;
  ratio: string;
  file_size: number;
  file_type: string;
  created_at: string;
  colors: string[];
  path: string;
  thumbs: { large: string; original: string; small: string };
  uploader: { username: string; group: string; avatar: Record<'200px' | '128px' | '32px' | '20px', string> };
  tags: FakeTag[];
}

export const PER_PAGE = 24;

const TAGS: FakeTag[] = [
  ['anime', 'anime girls,animation', 'Anime & Manga'],
  ['nature', '', 'Nature'],
  ['landscape', 'scenery', 'Nature'],
  ['city', 'cityscape', 'Places'],
  ['space', 'outer space,universe', 'Science'],
  ['cars', 'car,vehicle', 'Vehicles'],
  ['minimalism', 'minimalist', 'Art & Design'],
  ['mountains', 'mountain', 'Nature'],
  ['digital art', '', 'Art & Design'],
  ['cyberpunk', '', 'Art & Design'],
  ['sunset', 'sundown', 'Nature'],
  ['women', 'woman', 'People'],
].map(([name, alias, category], index) => ({
  id: index + 1,
  name: name!,
  alias: alias!,
  category_id: index + 1,
  category: category!,
  purity: 'sfw' as const,
  created_at: '2015-01-01 00:00:00',
}));

/** Usernames include non-ASCII so PHP's `\uXXXX` escaping shows up in bodies. */
const UPLOADERS = ['alpha', 'Kōji', 'night_owl', 'pixelsmith'];

/** Resolutions covering the ratio buckets: 16x9, 16x10, 21x9 (two ultrawides), 32x9, portraits, 4x3, 5x4, 1x1. */
const RESOLUTIONS: [number, number][] = [
  [1920, 1080],
  [2560, 1440],
  [3840, 2160],
  [1920, 1200],
  [2560, 1080],
  [3440, 1440],
  [5120, 1440],
  [1080, 1920],
  [1440, 2560],
  [1024, 768],
  [1280, 1024],
  [2048, 2048],
];

const PALETTE = ['#660000', '#990000', '#cc0000', '#cc3333', '#ea4c88', '#993399', '#663399', '#333399', '#0066cc', '#0099cc', '#66cccc', '#77cc33', '#669900', '#336600', '#000000', '#999999', '#cccccc', '#ffffff', '#424153'];


function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16777619);
  return h >>> 0;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function timestamp(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

function generateCatalogue(size: number): FakeWallpaper[] {
  const random = seededRandom(45);
  const ids = new Set<string>();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const catalogue: FakeWallpaper[] = [];
  for (let index = 0; index < size; index++) {
    let id: string;
    do id = Array.from({ length: 6 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    while (ids.has(id));
    ids.add(id);
    const category = (['general', 'anime', 'people'] as const)[index % 3]!;
    const purity: FakePurity = index % 10 < 7 ? 'sfw' : index % 10 < 9 ? 'sketchy' : 'nsfw';
    const [width, height] = RESOLUTIONS[(index * 7) % RESOLUTIONS.length]!;
    const png = index % 4 === 0;
    const extension = png ? 'png' : 'jpg';
    const tagCount = 2 + Math.floor(random() * 3);
    const tags = new Set<FakeTag>(category === 'anime' ? [TAGS[0]!] : category === 'people' ? [TAGS[11]!] : []);
    while (tags.size < tagCount) tags.add(TAGS[1 + Math.floor(random() * 10)]!);
    const uploader = UPLOADERS[index % UPLOADERS.length]!;
    const prefix = id.slice(0, 2);
    catalogue.push({
      id,
      url: `https://wallhaven.cc/w/${id}`,
      // The docs show http:// short links; live answers use https://. Both occur here.
      short_url: `${index % 5 === 0 ? 'http' : 'https'}://whvn.cc/${id}`,
      views: Math.floor(random() * 100_000),
      favorites: Math.floor(random() * 5_000),
      source: index % 3 === 0 ? `https://www.artstation.com/artwork/fake${index}` : '',
      purity,
      category,
      dimension_x: width,
      dimension_y: height,
      resolution: `${width}x${height}`,
      ratio: String(Math.round((width / height) * 100) / 100),
      file_size: 200_000 + Math.floor(random() * 5_000_000),
      file_type: png ? 'image/png' : 'image/jpeg',
      created_at: timestamp(new Date(Date.UTC(2024, 0, 1) + index * 37 * 3_600_000)),
      colors: Array.from({ length: 5 }, () => PALETTE[Math.floor(random() * PALETTE.length)]!),
      path: `https://w.wallhaven.cc/full/${prefix}/wallhaven-${id}.${extension}`,
      thumbs: {
        large: `https://th.wallhaven.cc/lg/${prefix}/${id}.jpg`,
        original: `https://th.wallhaven.cc/orig/${prefix}/${id}.jpg`,
        small: `https://th.wallhaven.cc/small/${prefix}/${id}.jpg`,
      },
      uploader: {
        username: uploader,
        group: 'User',
        avatar: {
          '200px': `https://wallhaven.cc/images/user/avatar/200/${index % UPLOADERS.length}_fake.png`,
          '128px': `https://wallhaven.cc/images/user/avatar/128/${index % UPLOADERS.length}_fake.png`,
          '32px': `https://wallhaven.cc/images/user/avatar/32/${index % UPLOADERS.length}_fake.png`,
          '20px': `https://wallhaven.cc/images/user/avatar/20/${index % UPLOADERS.length}_fake.png`,
        },
      },
      tags: [...tags],
    });
  }
  return catalogue;
}

/** 120 wallpapers: every category, 84 SFW / 24 sketchy / 12 NSFW, the ratio buckets, jpg and png. */
export const WALLHAVEN_CATALOGUE: readonly FakeWallpaper[] = generateCatalogue(120);
export const WALLHAVEN_TAGS: readonly FakeTag[] = TAGS;

/** PHP `json_encode`: `/` → `\/`, non-ASCII → `\uXXXX`. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function phpJsonResponse(status: number, value: unknown, headers: Record<string, string>): FakeResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: phpJson(value) };
}

function summaryOf(wallpaper: FakeWallpaper): Omit<FakeWallpaper, 'uploader' | 'tags'> {
  const { uploader: _uploader, tags: _tags, ...summary } = wallpaper;
  return summary;
}

function ratioValue(wallpaper: FakeWallpaper): number {
  return Math.round((wallpaper.dimension_x / wallpaper.dimension_y) * 100) / 100;
}

/** One `ratios` entry as a predicate; a malformed entry (`16:9`) is ignored, as live. */
function ratioMatcher(entry: string): ((wallpaper: FakeWallpaper) => boolean) | undefined {
  if (entry === 'landscape') return (w) => w.dimension_x > w.dimension_y;
  if (entry === 'portrait') return (w) => w.dimension_y > w.dimension_x;
  const match = /^(\d+)x(\d+)$/.exec(entry);
  if (!match) return undefined;
  // 21x9 is an "ultrawide" bucket on the site (2560x1080 is 2.37, 3440x1440 is 2.39).
  if (entry === '21x9') return (w) => ratioValue(w) >= 2.3 && ratioValue(w) < 2.5;
  const wanted = Math.round((Number(match[1]) / Number(match[2])) * 100) / 100;
  return (w) => ratioValue(w) === wanted;
}

function bitsOf(value: string | null, fallback: string): boolean[] {
  return (value !== null && /^[01]{3}$/.test(value) ? value : fallback).split('').map((bit) => bit === '1');
}

/** A user's collection: `/collections/<user>` lists the public ones, `/collections/<user>/<id>` pages through one. */
export interface FakeCollection {
  id: number;
  label: string;
  views: number;
  public: 0 | 1;
  /** Wallpaper ids, newest addition first. */
  items: string[];
}

/**
 * Collections of the catalogue's uploaders: `alpha` has a mixed one (every purity, 30 wallpapers),
 * a small SFW one and a private one; `pixelsmith` has 27 small ones (more than a menu holds);
 * `night_owl` has none public; any other name is an unknown user.
 */
function generateCollections(catalogue: readonly FakeWallpaper[]): Record<string, FakeCollection[]> {
  const ids = (from: number, count: number) => catalogue.slice(from, from + count).map((w) => w.id);
  return {
    alpha: [
      { id: 101, label: 'Favorites', views: 12, public: 1, items: ids(0, 30) },
      { id: 102, label: 'Calm & quiet', views: 3, public: 1, items: catalogue.filter((w) => w.purity === 'sfw').slice(0, 5).map((w) => w.id) },
      { id: 103, label: 'Private', views: 0, public: 0, items: ids(40, 4) },
    ],
    pixelsmith: Array.from({ length: 27 }, (_, index) => ({ id: 200 + index, label: `Set ${index + 1}`, views: index, public: 1 as const, items: ids(index, 2) })),
    night_owl: [{ id: 301, label: 'Hidden', views: 0, public: 0, items: ids(0, 3) }],
  };
}

export interface FakeWallhavenOptions {
  /** The valid key. Requests carrying another key get 401 everywhere. */
  apiKey?: string;
  /** The fixed-window limit (default 45 per 60 s, as live). */
  rateLimit?: { limit: number; windowMs: number };
}

export class FakeWallhaven extends FakeServer {
  /** This fake's copy of the catalogue: tests may edit entries. */
  catalogue: FakeWallpaper[] = structuredClone([...WALLHAVEN_CATALOGUE]);
  /** This fake's users' collections: tests may edit them. */
  collections: Record<string, FakeCollection[]> = generateCollections(WALLHAVEN_CATALOGUE);
  /** Canned answers for the next requests, served first-in first-out (they still count as requests). */
  readonly nextResponses: FakeResponse[] = [];
  /** Answer 429 without `Retry-After` (the client must fall back to a full window). */
  omitRetryAfter = false;
  readonly limit: number;
  readonly windowMs: number;
  private readonly apiKey: string | undefined;
  private windowStart = 0;
  private windowCount = 0;
  private seedCounter = 0;

  constructor(options: FakeWallhavenOptions = {}) {
    super((request) => this.route(request));
    this.apiKey = options.apiKey;
    this.limit = options.rateLimit?.limit ?? 45;
    this.windowMs = options.rateLimit?.windowMs ?? 60_000;
  }

  override reset(): void {
    super.reset();
    this.catalogue = structuredClone([...WALLHAVEN_CATALOGUE]);
    this.collections = generateCollections(WALLHAVEN_CATALOGUE);
    this.nextResponses.length = 0;
    this.omitRetryAfter = false;
    this.windowStart = 0;
    this.windowCount = 0;
  }

  /** Catalogue entries with this purity (to pick ids in tests). */
  byPurity(purity: FakePurity): FakeWallpaper[] {
    return this.catalogue.filter((wallpaper) => wallpaper.purity === purity);
  }

  private route(request: RecordedRequest): FakeResponse {
    const canned = this.nextResponses.shift();
    if (canned) return canned;
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    // Cloudflare, in front of the API, challenges this one pattern before the origin sees it.
    if (rawQuery.startsWith('q=like')) return htmlPage(403, 'Just a moment...', { 'cf-mitigated': 'challenge' });

    const now = Date.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    const resetAt = this.windowStart + this.windowMs;
    if (this.windowCount >= this.limit) {
      const headers: Record<string, string> = {
        'x-ratelimit-limit': String(this.limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
      };
      if (!this.omitRetryAfter) headers['retry-after'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
      return htmlPage(429, 'Too many requests - wallhaven.cc', headers);
    }
    this.windowCount++;
    const rateHeaders = { 'x-ratelimit-limit': String(this.limit), 'x-ratelimit-remaining': String(this.limit - this.windowCount) };

    const key = headerValue(request.headers['x-api-key']) ?? request.query.get('apikey') ?? undefined;
    if (key !== undefined && key !== this.apiKey) return phpJsonResponse(401, { error: 'Unauthorized' }, rateHeaders);
    const authenticated = key !== undefined;

    if (request.path === '/api/v1/search') return this.search(request.query, authenticated, rateHeaders);
    const detail = /^\/api\/v1\/w\/([a-z0-9]+)$/.exec(request.path);
    if (detail) {
      const wallpaper = this.catalogue.find((candidate) => candidate.id === detail[1]);
      if (!wallpaper) return phpJsonResponse(404, { error: 'Nothing here' }, rateHeaders);
      if (wallpaper.purity === 'nsfw' && !authenticated) return phpJsonResponse(401, { error: 'Unauthorized' }, rateHeaders);
      return phpJsonResponse(200, { data: wallpaper }, rateHeaders);
    }
    const collections = /^\/api\/v1\/collections\/([^/]+)(?:\/(\d+))?$/.exec(request.path);
    if (collections) return this.collectionAnswer(decodeURIComponent(collections[1]!), collections[2], request.query, authenticated, rateHeaders);
    if (request.path.startsWith('/api/v1/')) return phpJsonResponse(404, { error: 'Not Found' }, rateHeaders);
    return htmlPage(404, '404 - wallhaven.cc', rateHeaders);
  }

  private search(params: URLSearchParams, authenticated: boolean, headers: Record<string, string>): FakeResponse {
    const [general, anime, people] = bitsOf(params.get('categories'), '111');
    const [sfw, sketchy, nsfwAsked] = bitsOf(params.get('purity'), '100');
    // Anonymous NSFW is silently dropped, not refused.
    const nsfw = nsfwAsked && authenticated;
    const q = params.get('q')?.trim() ?? '';
    const { matches, score, query } = this.parseQuery(q);

    let results = this.catalogue.filter(
      (w) =>
        ((w.category === 'general' && general) || (w.category === 'anime' && anime) || (w.category === 'people' && people)) &&
        ((w.purity === 'sfw' && sfw) || (w.purity === 'sketchy' && sketchy) || (w.purity === 'nsfw' && nsfw)) &&
        matches(w),
    );
    const atleast = /^(\d+)x(\d+)$/.exec(params.get('atleast') ?? '');
    if (atleast) results = results.filter((w) => w.dimension_x >= Number(atleast[1]) && w.dimension_y >= Number(atleast[2]));
    const resolutions = (params.get('resolutions') ?? '').split(',').filter((r) => /^\d+x\d+$/.test(r));
    if (resolutions.length > 0) results = results.filter((w) => resolutions.includes(w.resolution));
    const ratios = (params.get('ratios') ?? '')
      .split(',')
      .map(ratioMatcher)
      .filter((matcher) => matcher !== undefined);
    if (ratios.length > 0) results = results.filter((w) => ratios.some((matcher) => matcher(w)));
    const colour = params.get('colors');
    if (colour !== null && /^[0-9a-f]{6}$/.test(colour)) results = results.filter((w) => w.colors.includes(`#${colour}`));

    const sorting = params.get('sorting') ?? 'date_added';
    let seed: string | null = null;
    const total = results.length;
    switch (sorting) {
      case 'date_added':
        results.sort((a, b) => b.created_at.localeCompare(a.created_at));
        break;
      case 'views':
      case 'hot':
        results.sort((a, b) => b.views - a.views);
        break;
      case 'favorites':
      case 'toplist':
        results.sort((a, b) => b.favorites - a.favorites);
        break;
      case 'relevance':
        results.sort((a, b) => score(b) - score(a) || b.created_at.localeCompare(a.created_at));
        break;
      case 'random': {
        const given = params.get('seed');
        seed = given !== null && /^[a-zA-Z0-9]{6}$/.test(given) ? given : this.newSeed();
        const random = seededRandom(hash(seed));
        results = results
          .map((w) => [random(), w] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, w]) => w);
        break;
      }
      default:
        // An unknown sorting answers no items but still reports the total.
        results = [];
    }
    if (params.get('order') === 'asc' && sorting !== 'random') results.reverse();

    const lastPage = Math.max(1, Math.ceil(total / PER_PAGE));
    const pageParam = params.get('page');
    // `page=abc` is page 1; `page=0` breaks the site; past the end is a JSON 400.
    const page = pageParam !== null && /^-?\d+$/.test(pageParam) ? Number(pageParam) : 1;
    if (page <= 0) return htmlPage(500, 'It broke - wallhaven.cc', headers);
    if (page > lastPage) return phpJsonResponse(400, { error: 'Bad Request' }, headers);
    const data = results.slice((page - 1) * PER_PAGE, page * PER_PAGE).map(summaryOf);
    return phpJsonResponse(200, { data, meta: { current_page: page, last_page: lastPage, per_page: PER_PAGE, total, query, seed } }, headers);
  }

  private collectionAnswer(user: string, id: string | undefined, params: URLSearchParams, authenticated: boolean, headers: Record<string, string>): FakeResponse {
    const owned = this.collections[user];
    if (owned === undefined) return phpJsonResponse(404, { error: 'Nothing here' }, headers);
    if (id === undefined) {
      const listed = owned.filter((collection) => collection.public === 1).map(({ items, ...collection }) => ({ ...collection, count: items.length }));
      return phpJsonResponse(200, { data: listed }, headers);
    }
    const collection = owned.find((candidate) => candidate.id === Number(id) && candidate.public === 1);
    if (collection === undefined) return phpJsonResponse(404, { error: 'Nothing here' }, headers);
    // The only filter a collection takes; anonymous NSFW is dropped, as in a search.
    const [sfw, sketchy, nsfwAsked] = bitsOf(params.get('purity'), '100');
    const nsfw = nsfwAsked && authenticated;
    const results = collection.items
      .map((item) => this.catalogue.find((w) => w.id === item)!)
      .filter((w) => (w.purity === 'sfw' && sfw) || (w.purity === 'sketchy' && sketchy) || (w.purity === 'nsfw' && nsfw));
    const lastPage = Math.max(1, Math.ceil(results.length / PER_PAGE));
    const page = Number(params.get('page') ?? '1');
    if (!Number.isInteger(page) || page <= 0) return htmlPage(500, 'It broke - wallhaven.cc', headers);
    if (page > lastPage) return phpJsonResponse(400, { error: 'Bad Request' }, headers);
    const data = results.slice((page - 1) * PER_PAGE, page * PER_PAGE).map(summaryOf);
    return phpJsonResponse(200, { data, meta: { current_page: page, last_page: lastPage, per_page: PER_PAGE, total: results.length } }, headers);
  }

  /** A small model of the `q` syntax and of what `meta.query` echoes for each form. */
  private parseQuery(q: string): { matches: (w: FakeWallpaper) => boolean; score: (w: FakeWallpaper) => number; query: unknown } {
    const none = { matches: () => true, score: () => 0 };
    if (q === '') return { ...none, query: null };
    const tagId = /^id:(\d+)$/.exec(q);
    if (tagId) {
      const tag = TAGS.find((candidate) => candidate.id === Number(tagId[1]));
      if (!tag) return { ...none, matches: () => false, query: q };
      return { ...none, matches: (w) => w.tags.some((t) => t.id === tag.id), query: { id: tag.id, tag: tag.name } };
    }
    const user = /^@(.+)$/.exec(q);
    if (user) return { ...none, matches: (w) => w.uploader.username === user[1], query: '' };
    const type = /^type:(png|jpe?g)$/.exec(q);
    if (type) return { ...none, matches: (w) => w.file_type === (type[1] === 'png' ? 'image/png' : 'image/jpeg'), query: '' };
    const like = /^like:([a-z0-9]+)$/.exec(q);
    if (like) {
      const source = this.catalogue.find((w) => w.id === like[1]);
      const names = new Set(source?.tags.map((t) => t.name) ?? []);
      return { ...none, matches: (w) => w.id !== like[1] && w.tags.some((t) => names.has(t.name)), query: q };
    }
    const required: string[] = [];
    const excluded: string[] = [];
    const fuzzy: string[] = [];
    for (const term of q.toLowerCase().split(/\s+/)) {
      if (term.startsWith('+') && term.length > 1) required.push(term.slice(1));
      else if (term.startsWith('-') && term.length > 1) excluded.push(term.slice(1));
      else fuzzy.push(term);
    }
    const names = (w: FakeWallpaper) => w.tags.flatMap((t) => [t.name, ...t.alias.split(',').filter(Boolean)]);
    return {
      matches: (w) =>
        required.every((term) => names(w).includes(term)) &&
        !excluded.some((term) => names(w).includes(term)) &&
        fuzzy.every((term) => names(w).some((name) => name.includes(term))),
      score: (w) => fuzzy.filter((term) => names(w).includes(term)).length,
      query: q,
    };
  }

  private newSeed(): string {
    const random = seededRandom(hash(`seed-${this.seedCounter++}`));
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    return Array.from({ length: 6 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export async function startFakeWallhaven(options: FakeWallhavenOptions = {}): Promise<FakeWallhaven> {
  return new FakeWallhaven(options).start();
}
