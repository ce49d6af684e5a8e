import { z } from 'zod';
import { WALLPAPER_ID_PATTERN, wallhavenHttpsUrl } from '../../wallpaper/wallhaven-site.js';
import type { WallpaperCollection } from '../../wallpaper/collections.js';
import type { WallpaperDetail, WallpaperPage, WallpaperSummary, WallpaperTag, WallpaperUploader } from '../../wallpaper/wallpaper.js';

/**
 * Wallhaven's answers, validated and turned into domain objects: only https URLs on Wallhaven's own
 * hosts become images or links, and the one outside link (the uploader's source) must be http(s).
 */

function webUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const count = z.number().int().nonnegative();
/** Integers PHP sometimes sends as strings (`per_page` is `"24"` on /settings). */
const integer = z.union([count, z.string().regex(/^\d+$/).transform(Number)]);
const purity = z.enum(['sfw', 'sketchy', 'nsfw']);
const dimension = z.number().int().positive();
const createdAt = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .transform((value) => new Date(`${value.replace(' ', 'T')}Z`))
  .refine((date) => !Number.isNaN(date.getTime()), 'not a date');

const rawSummary = z.object({
  id: z.string().regex(WALLPAPER_ID_PATTERN),
  url: z.string().optional(),
  short_url: z.string().optional(),
  views: count,
  favorites: count,
  source: z.string().optional(),
  purity,
  category: z.enum(['general', 'anime', 'people']),
  dimension_x: dimension,
  dimension_y: dimension,
  // A string with trailing zeros trimmed ("1.78", "1.5"); recomputed when absent or unreadable.
  ratio: z.union([z.string(), z.number()]).optional(),
  file_size: count,
  file_type: z.string().regex(/^image\/[a-z0-9.+-]+$/),
  created_at: createdAt,
  colors: z.array(z.string()).optional(),
  path: z.string().optional(),
  thumbs: z.object({ large: z.string().optional(), original: z.string().optional(), small: z.string().optional() }).optional(),
});
type RawSummary = z.infer<typeof rawSummary>;

export const rawDetailAnswer = z.object({
  data: rawSummary.extend({
    uploader: z
      .object({ username: z.string().min(1), group: z.string().optional(), avatar: z.record(z.string(), z.string()).optional() })
      .nullable()
      .optional(),
    tags: z
      .array(
        z.object({
          id: z.number().int().positive(),
          name: z.string().min(1),
          alias: z.string().optional(),
          category: z.string().optional(),
          purity: purity.optional(),
        }),
      )
      .optional(),
  }),
});

export const rawSearchAnswer = z.object({
  data: z.array(rawSummary),
  meta: z.object({
    current_page: integer,
    last_page: integer,
    per_page: integer,
    total: integer,
    // null without q; the q echoed (but "" for @user and type: searches); {id, tag} for id: searches.
    query: z.union([z.null(), z.string(), z.object({ id: z.number(), tag: z.string() })]).optional(),
    seed: z.string().nullable().optional(),
  }),
});

/** `/collections/<user>`: the public ones only (`public` is 1 there, but a private one is never listed). */
export const rawCollectionsAnswer = z.object({
  data: z.array(z.object({ id: z.number().int().positive(), label: z.string(), views: count, public: z.union([z.literal(0), z.literal(1), z.boolean()]).optional(), count })),
});

export function toCollections(raw: z.infer<typeof rawCollectionsAnswer>): WallpaperCollection[] {
  return raw.data.filter((collection) => collection.public !== 0 && collection.public !== false).map(({ id, label, views, count }) => ({ id, label, views, count }));
}

/** `/collections/<user>/<id>`: a listing whose `meta` has only the four numbers (no `query`, no `seed`). */
export const rawCollectionListing = z.object({
  data: z.array(rawSummary),
  meta: z.object({ current_page: integer, last_page: integer, per_page: integer, total: integer }),
});

function ratioOf(raw: RawSummary): number {
  const given = typeof raw.ratio === 'number' ? raw.ratio : /^\d+(\.\d+)?$/.test(raw.ratio ?? '') ? Number(raw.ratio) : NaN;
  return Number.isFinite(given) && given > 0 ? given : Math.round((raw.dimension_x / raw.dimension_y) * 100) / 100;
}

function toSummary(raw: RawSummary): WallpaperSummary {
  const summary: WallpaperSummary = {
    id: raw.id,
    pageUrl: wallhavenHttpsUrl(raw.url, true) ?? `https://wallhaven.cc/w/${raw.id}`,
    shortUrl: wallhavenHttpsUrl(raw.short_url, true) ?? `https://whvn.cc/${raw.id}`,
    views: raw.views,
    favorites: raw.favorites,
    purity: raw.purity,
    category: raw.category,
    width: raw.dimension_x,
    height: raw.dimension_y,
    resolution: `${raw.dimension_x}x${raw.dimension_y}`,
    ratio: ratioOf(raw),
    fileSize: raw.file_size,
    fileType: raw.file_type,
    createdAt: raw.created_at,
    colors: (raw.colors ?? []).filter((color) => /^#[0-9a-f]{6}$/i.test(color)).map((color) => color.toLowerCase()),
    thumbnails: {},
  };
  const source = webUrl(raw.source);
  if (source !== undefined) summary.source = source;
  const image = wallhavenHttpsUrl(raw.path);
  if (image !== undefined) summary.imageUrl = image;
  for (const size of ['large', 'original', 'small'] as const) {
    const thumbnail = wallhavenHttpsUrl(raw.thumbs?.[size]);
    if (thumbnail !== undefined) summary.thumbnails[size] = thumbnail;
  }
  return summary;
}

export function toDetail(raw: z.infer<typeof rawDetailAnswer>['data']): WallpaperDetail {
  let uploader: WallpaperUploader | null = null;
  if (raw.uploader) {
    uploader = { username: raw.uploader.username };
    if (raw.uploader.group) uploader.group = raw.uploader.group;
    const avatar = wallhavenHttpsUrl(raw.uploader.avatar?.['128px'] ?? raw.uploader.avatar?.['200px']);
    if (avatar !== undefined) uploader.avatarUrl = avatar;
  }
  const tags = (raw.tags ?? []).map((tag): WallpaperTag => {
    const result: WallpaperTag = {
      id: tag.id,
      name: tag.name,
      aliases: (tag.alias ?? '')
        .split(',')
        .map((alias) => alias.trim())
        .filter((alias) => alias !== ''),
    };
    if (tag.category) result.category = tag.category;
    if (tag.purity) result.purity = tag.purity;
    return result;
  });
  return { ...toSummary(raw), uploader, tags };
}

export function toPage(raw: z.infer<typeof rawSearchAnswer> | z.infer<typeof rawCollectionListing>, sentQuery: string | undefined): WallpaperPage {
  const echoed = 'query' in raw.meta ? raw.meta.query : undefined;
  let query: string | null;
  if (echoed === null || echoed === undefined || echoed === '') query = sentQuery ?? null;
  else if (typeof echoed === 'string') query = echoed;
  else query = echoed.tag;
  return {
    items: raw.data.map(toSummary),
    page: raw.meta.current_page,
    lastPage: Math.max(1, raw.meta.last_page),
    total: raw.meta.total,
    perPage: raw.meta.per_page,
    seed: ('seed' in raw.meta ? raw.meta.seed : undefined) ?? null,
    query,
  };
}
