import type { OptionValues } from '../interaction/context.js';
import type { LocalizedText } from '../interaction/errors.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { CATALOGUES } from '../i18n/messages.js';
import { parseWallhavenUsername } from './collections.js';
import type { PagerSearch } from './pager-state.js';
import {
  AI_ART_CHOICES,
  MAX_DIMENSION,
  MAX_QUERY_LENGTH,
  newSeed,
  PURITY_LEVELS,
  RATIO_CHOICES,
  SORTING_CHOICES,
  TOPLIST_RANGES,
  WALLHAVEN_COLOURS,
  type AiArtChoice,
  type CategoryFilter,
  type RatioChoice,
  type ToplistRange,
  type WallhavenColour,
  type WallpaperSorting,
} from './search.js';
import type { WallpaperPurity } from './wallpaper.js';

/**
 * The `/wallpaper` options as users type them, checked before anything reaches the service: every
 * refusal here is a plain sentence and costs no upstream request.
 */

/** A refusal is a sentence: in English only (the older options), or picked from the user's catalogue. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string | LocalizedText };

/** The category combinations offered as choices (a string option can hold one value). */
export const CATEGORY_CHOICES = [
  { name: 'General, anime and people (all)', value: 'all' },
  { name: 'General', value: 'general' },
  { name: 'Anime', value: 'anime' },
  { name: 'People', value: 'people' },
  { name: 'General and anime', value: 'general+anime' },
  { name: 'General and people', value: 'general+people' },
  { name: 'Anime and people', value: 'anime+people' },
] as const;

/** Minimum sizes offered by autocomplete; any other `WxH` may be typed. */
const COMMON_RESOLUTIONS = [
  { size: '1280x720', label: 'HD' },
  { size: '1366x768', label: 'laptop' },
  { size: '1920x1080', label: 'Full HD' },
  { size: '1920x1200', label: 'WUXGA' },
  { size: '2560x1080', label: 'ultrawide' },
  { size: '2560x1440', label: 'QHD' },
  { size: '3440x1440', label: 'ultrawide QHD' },
  { size: '3840x2160', label: '4K UHD' },
  { size: '5120x2880', label: '5K' },
  { size: '1080x1920', label: 'phone, portrait' },
  { size: '1440x2560', label: 'phone QHD, portrait' },
] as const;

export function parseQuery(input: string | null): ParseResult<string | undefined> {
  const text = input?.trim() ?? '';
  if (text === '') return { ok: true, value: undefined };
  if (text.length > MAX_QUERY_LENGTH) {
    return { ok: false, reason: `That search is ${text.length} characters long; Wallhaven takes at most ${MAX_QUERY_LENGTH}.` };
  }
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(text)) return { ok: false, reason: 'A search cannot contain line breaks or control characters.' };
  return { ok: true, value: text };
}

export function parseCategories(input: string | null): ParseResult<CategoryFilter> {
  const value = input?.trim().toLowerCase() || 'all';
  if (value === 'all') return { ok: true, value: { general: true, anime: true, people: true } };
  const parts = value.split(/[+,\s]+/).filter(Boolean);
  const known = new Set(['general', 'anime', 'people']);
  const unknown = parts.find((part) => !known.has(part));
  if (unknown !== undefined || parts.length === 0) {
    return { ok: false, reason: 'The category must be general, anime, people, or a combination of them.' };
  }
  return { ok: true, value: { general: parts.includes('general'), anime: parts.includes('anime'), people: parts.includes('people') } };
}

export function parsePurity(input: string | null): ParseResult<WallpaperPurity> {
  const value = input?.trim().toLowerCase() || 'sfw';
  if ((PURITY_LEVELS as readonly string[]).includes(value)) return { ok: true, value: value as WallpaperPurity };
  return { ok: false, reason: 'The purity must be sfw, sketchy or nsfw.' };
}

/** Accepts `1920x1080`, `1920X1080`, `1920×1080` and `1920 x 1080`. */
export function parseResolution(input: string | null): ParseResult<{ width: number; height: number } | undefined> {
  const value = input?.trim() ?? '';
  if (value === '') return { ok: true, value: undefined };
  const match = /^(\d{1,6})\s*[x×X]\s*(\d{1,6})$/.exec(value);
  const example = 'width×height in pixels, like `1920x1080`';
  if (!match) return { ok: false, reason: `The resolution must be ${example}.` };
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 1 || height < 1 || width > MAX_DIMENSION || height > MAX_DIMENSION) {
    return { ok: false, reason: `The resolution must be ${example}, each side from 1 to ${MAX_DIMENSION}.` };
  }
  return { ok: true, value: { width, height } };
}

export function parseRatio(input: string | null): ParseResult<RatioChoice | undefined> {
  const value = input?.trim().toLowerCase().replace(/[:×]/g, 'x') ?? '';
  if (value === '') return { ok: true, value: undefined };
  if ((RATIO_CHOICES as readonly string[]).includes(value)) return { ok: true, value: value as RatioChoice };
  return { ok: false, reason: `The ratio must be one of ${RATIO_CHOICES.join(', ')}.` };
}

/** Without a choice: relevance for a text search (what the site does), newest first otherwise. */
export function parseSorting(input: string | null, hasQuery: boolean): ParseResult<WallpaperSorting> {
  const value = input?.trim().toLowerCase() ?? '';
  if (value === '') return { ok: true, value: hasQuery ? 'relevance' : 'date_added' };
  if ((SORTING_CHOICES as readonly string[]).includes(value)) return { ok: true, value: value as WallpaperSorting };
  return { ok: false, reason: `The sorting must be one of ${SORTING_CHOICES.join(', ')}.` };
}

/** Autocomplete for `resolution`: the common sizes matching what was typed, the typed size first when valid. */
export function resolutionSuggestions(typed: string): { name: string; value: string }[] {
  const text = typed.trim().toLowerCase().replace(/[×\s]/g, 'x').replace(/x+/g, 'x');
  const suggestions: { name: string; value: string }[] = [];
  const parsed = parseResolution(typed);
  if (parsed.ok && parsed.value) {
    const size = `${parsed.value.width}x${parsed.value.height}`;
    if (!COMMON_RESOLUTIONS.some((common) => common.size === size)) suggestions.push({ name: `at least ${size}`, value: size });
  }
  for (const common of COMMON_RESOLUTIONS) {
    if (common.size.startsWith(text) || common.label.toLowerCase().includes(text)) {
      suggestions.push({ name: `at least ${common.size} (${common.label})`, value: common.size });
    }
  }
  return suggestions.slice(0, 25);
}

/** A toplist period is one of Wallhaven's, as the option's choices (or the CLI) give it. */
export function parseToplist(input: string | null): ParseResult<ToplistRange | undefined> {
  const value = input?.trim() ?? '';
  if (value === '') return { ok: true, value: undefined };
  if ((TOPLIST_RANGES as readonly string[]).includes(value)) return { ok: true, value: value as ToplistRange };
  return { ok: false, reason: `The toplist period must be one of ${TOPLIST_RANGES.join(', ')}.` };
}

/**
 * The `ai-art` choice, read only where the operator turned the option on (`WALLHAVEN_AI_FILTER`):
 * elsewhere it is not registered, and a value arriving anyway (a stale registration) is ignored.
 */
export function parseAiArt(input: string | null, enabled: boolean): ParseResult<AiArtChoice | undefined> {
  const value = input?.trim().toLowerCase() ?? '';
  if (!enabled || value === '') return { ok: true, value: undefined };
  if ((AI_ART_CHOICES as readonly string[]).includes(value)) return { ok: true, value: value as AiArtChoice };
  return { ok: false, reason: (t) => t.wallpaper.unknownAiArt };
}

/** Lowercase, without accents, spaces or hyphens: how a typed colour name is compared. */
function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s#-]+/g, '');
}

/**
 * A colour of Wallhaven's palette: its hex as the autocomplete sends it (`cc0000`, `#CC0000`), or
 * its name in any of Almanac's languages as typed without picking (`red`, `Rouge`, `gris clair`).
 */
export function parseColour(input: string | null): ParseResult<WallhavenColour | undefined> {
  const value = foldName(input ?? '');
  if (value === '') return { ok: true, value: undefined };
  const colour = WALLHAVEN_COLOURS.find(
    (hex) => hex === value || Object.values(CATALOGUES).some((messages) => foldName(messages.wallpaper.colourNames[hex]) === value),
  );
  return colour === undefined ? { ok: false, reason: (t) => t.wallpaper.unknownColour } : { ok: true, value: colour };
}

/**
 * Autocomplete for `color`: the palette's colours whose name (in the user's language) or hex
 * contains what was typed, at most 25 (Discord's cap; the palette has 29), as `Name (#hex)`.
 * A local list: it never waits on an upstream.
 */
export function colourSuggestions(typed: string, messages: Catalogue): { name: string; value: string }[] {
  const text = foldName(typed);
  return WALLHAVEN_COLOURS.filter((hex) => hex.includes(text) || foldName(messages.wallpaper.colourNames[hex]).includes(text))
    .slice(0, 25)
    .map((hex) => ({ name: `${messages.wallpaper.colourNames[hex]} (#${hex})`, value: hex }));
}

/**
 * `uploader` becomes Wallhaven's `q=@name`. Wallhaven documents `@username` as a query of its own
 * (upstreams.md § 2.3), never combined with words, so the pair is refused rather than guessed at.
 */
export function uploaderQuery(input: string | null): ParseResult<string> {
  const parsed = parseWallhavenUsername(input);
  return parsed.ok ? { ok: true, value: `@${parsed.username}` } : { ok: false, reason: (t) => t.wallpaper.notAUsername };
}

function readQueryOrUploader(options: Pick<OptionValues, 'getString'>): ParseResult<string | undefined> {
  const uploader = options.getString('uploader');
  if (uploader === null || uploader.trim() === '') return parseQuery(options.getString('query'));
  if (options.getString('query')?.trim()) return { ok: false, reason: (t) => t.wallpaper.uploaderWithQuery };
  return uploaderQuery(uploader);
}

/**
 * `/wallpaper search`'s options, each checked as above; the first refusal wins. A random sorting
 * gets a seed of our own, so every page of it keeps one order (and page 1 is cacheable too).
 */
export function readSearchOptions(options: Pick<OptionValues, 'getString'>, features: { aiArt: boolean } = { aiArt: false }): ParseResult<{ search: Omit<PagerSearch, 'query'>; query: string | undefined }> {
  const query = readQueryOrUploader(options);
  if (!query.ok) return query;
  const categories = parseCategories(options.getString('category'));
  if (!categories.ok) return categories;
  const purity = parsePurity(options.getString('purity'));
  if (!purity.ok) return purity;
  const toplist = parseToplist(options.getString('toplist'));
  if (!toplist.ok) return toplist;
  const sortingText = options.getString('sorting');
  // A period implies the toplist sorting, and contradicts any other.
  if (toplist.value !== undefined && sortingText?.trim() && sortingText.trim().toLowerCase() !== 'toplist') {
    return { ok: false, reason: (t) => t.wallpaper.toplistWithOtherSorting };
  }
  const sorting = toplist.value !== undefined ? { ok: true as const, value: 'toplist' as const } : parseSorting(sortingText, query.value !== undefined);
  if (!sorting.ok) return sorting;
  const search: Omit<PagerSearch, 'query'> = { categories: categories.value, purity: purity.value, sorting: sorting.value };
  if (toplist.value !== undefined) search.topRange = toplist.value;
  const colour = parseColour(options.getString('color'));
  if (!colour.ok) return colour;
  if (colour.value !== undefined) search.colour = colour.value;
  const atleast = parseResolution(options.getString('resolution'));
  if (!atleast.ok) return atleast;
  if (atleast.value) search.atleast = atleast.value;
  const ratio = parseRatio(options.getString('ratio'));
  if (!ratio.ok) return ratio;
  if (ratio.value) search.ratio = ratio.value;
  const aiArt = parseAiArt(options.getString('ai-art'), features.aiArt);
  if (!aiArt.ok) return aiArt;
  if (aiArt.value) search.aiArt = aiArt.value;
  if (search.sorting === 'random') search.seed = newSeed();
  return { ok: true, value: { search, query: query.value } };
}
