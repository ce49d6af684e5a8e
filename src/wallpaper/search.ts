import { randomInt } from 'node:crypto';
import type { WallpaperPurity } from './wallpaper.js';

/** What a wallpaper search can ask Wallhaven for: the vocabulary the command, the pager and the service share. */

export const WALLPAPER_SORTINGS = ['relevance', 'date_added', 'views', 'favorites', 'toplist', 'random'] as const;
export type WallpaperSorting = (typeof WALLPAPER_SORTINGS)[number];

/** The aspect ratios the site offers (ultrawide, wide, portrait, square and the classic ones). */
export const WALLPAPER_RATIOS = [
  'landscape',
  'portrait',
  '16x9',
  '16x10',
  '21x9',
  '32x9',
  '48x9',
  '9x16',
  '10x16',
  '9x18',
  '1x1',
  '3x2',
  '4x3',
  '5x4',
] as const;

/** The toplist's periods, in a fixed order: a period travels in a button's custom_id as its index here. */
export const TOPLIST_RANGES = ['1d', '3d', '1w', '1M', '3M', '6M', '1y'] as const;
export type ToplistRange = (typeof TOPLIST_RANGES)[number];

/**
 * Wallhaven's colour palette (`colors=`, hex without `#`), in a fixed order: a colour travels in a
 * button's custom_id as its index here, so entries may be appended but never reordered or removed.
 */
export const WALLHAVEN_COLOURS = [
  '660000', '990000', 'cc0000', 'cc3333', 'ea4c88', '993399', '663399', '333399', '0066cc', '0099cc',
  '66cccc', '77cc33', '669900', '336600', '666600', '999900', 'cccc33', 'ffff00', 'ffcc33', 'ff9900',
  'ff6600', 'cc6633', '996633', '663300', '000000', '999999', 'cccccc', 'ffffff', '424153',
] as const;
export type WallhavenColour = (typeof WALLHAVEN_COLOURS)[number];

/**
 * The `ai-art` option: show or hide AI-generated art (Wallhaven's `ai_art_filter`). The order is
 * part of the pager's custom_id format (its action letter).
 */
export const AI_ART_CHOICES = ['include', 'exclude'] as const;
export type AiArtChoice = (typeof AI_ART_CHOICES)[number];

/**
 * What `ai_art_filter` is sent as. Not in Wallhaven's API page (upstreams.md § 7): the site's own
 * search links use 1 to hide AI art and 0 to show it, which is why the option stays behind
 * `WALLHAVEN_AI_FILTER` until a recorded answer confirms it.
 */
export const AI_ART_FILTER_VALUES: Readonly<Record<AiArtChoice, string>> = { include: '0', exclude: '1' };

export interface CategoryFilter {
  general: boolean;
  anime: boolean;
  people: boolean;
}

export interface PurityFilter {
  sfw: boolean;
  sketchy: boolean;
  nsfw: boolean;
}

export interface WallpaperSearch {
  /** Free text in Wallhaven's syntax (`tag`, `+tag -tag`, `@user`, `id:123`, `type:png`, `like:<id>`). */
  query?: string;
  categories: CategoryFilter;
  purity: PurityFilter;
  atleast?: { width: number; height: number };
  ratios?: readonly string[];
  sorting: WallpaperSorting;
  order?: 'desc' | 'asc';
  /** Only with `toplist` sorting. */
  topRange?: ToplistRange;
  /** Only with `random` sorting: the same seed gives the same order, page after page. */
  seed?: string;
  /** One colour of the palette. */
  colour?: WallhavenColour;
  aiArt?: AiArtChoice;
  page: number;
}

export const MAX_QUERY_LENGTH = 200;
/** Wallhaven has nothing near this size; it bounds what a search (and a pager's custom_id) carries. */
export const MAX_DIMENSION = 20_000;
/** A random sorting's seed: Wallhaven's `[a-zA-Z0-9]{6}`. */
export const SEED_PATTERN = /^[a-zA-Z0-9]{6}$/;

/** A new seed. Sending our own makes page 1 of a random search cacheable too. */
export function newSeed(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 6 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** What was searched for, as a search result's first line says it. */
export interface SearchSummary {
  query: string | null;
  /** A tag's listing instead of a query: the tag's name, and its category when known. */
  tag?: { name: string; category?: string };
  /** A collection's listing instead of a query: whose, its label, and how many of it this channel skips. */
  collection?: { label: string; username: string; skipped: number };
  categories: CategoryFilter;
  purity: PurityScope;
  sorting: WallpaperSorting;
  ratio?: string;
  atleast?: { width: number; height: number };
  topRange?: ToplistRange;
  colour?: WallhavenColour;
}

/**
 * The ratio choices the command offers, in a fixed order: a ratio travels in a button's custom_id as
 * its index in this list, so entries may be appended but never reordered or removed.
 */
export const RATIO_CHOICES = ['16x9', '16x10', '21x9', '9x16', '4x3', 'landscape', 'portrait'] as const;
export type RatioChoice = (typeof RATIO_CHOICES)[number];

/** Same rule as `RATIO_CHOICES`: the index is part of the custom_id format. */
export const SORTING_CHOICES = ['relevance', 'date_added', 'views', 'favorites', 'toplist', 'random'] as const satisfies readonly WallpaperSorting[];

export const PURITY_LEVELS = ['sfw', 'sketchy', 'nsfw'] as const satisfies readonly WallpaperPurity[];

/**
 * The purities a listing asks for: one level as chosen in `/wallpaper search`, or every level up
 * to one, which is what a channel allows (the "more like this" and tag listings, collections).
 */
export const PURITY_SCOPES = ['sfw', 'sketchy', 'nsfw', 'sfw+sketchy', 'sfw+sketchy+nsfw'] as const satisfies readonly string[];
export type PurityScope = (typeof PURITY_SCOPES)[number];

/** The highest purity a scope asks for: the one its channel must allow. */
export function highestPurity(scope: PurityScope): WallpaperPurity {
  return scope === 'sfw+sketchy' ? 'sketchy' : scope === 'sfw+sketchy+nsfw' ? 'nsfw' : scope;
}

/** Whether a scope asks for the levels below its highest too. */
export function includesLowerPurities(scope: PurityScope): boolean {
  return scope.includes('+');
}

/** The scope of every level up to `highest`. */
export function purityUpTo(highest: WallpaperPurity): PurityScope {
  return highest === 'sfw' ? 'sfw' : highest === 'sketchy' ? 'sfw+sketchy' : 'sfw+sketchy+nsfw';
}

export function purityFilterOf(scope: PurityScope): PurityFilter {
  const levels = scope.split('+');
  return { sfw: levels.includes('sfw'), sketchy: levels.includes('sketchy'), nsfw: levels.includes('nsfw') };
}

