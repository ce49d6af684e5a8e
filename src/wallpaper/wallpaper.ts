/** Wallpapers as Almanac knows them: Wallhaven's answers, validated (see src/services/wallhaven/wallhaven-answer.ts). */

export type WallpaperCategory = 'general' | 'anime' | 'people';
export type WallpaperPurity = 'sfw' | 'sketchy' | 'nsfw';

export interface WallpaperSummary {
  id: string;
  /** `https://wallhaven.cc/w/<id>`. */
  pageUrl: string;
  /** `https://whvn.cc/<id>` (the API sometimes says `http://`). */
  shortUrl: string;
  views: number;
  favorites: number;
  /** Where the uploader says the image comes from: any http(s) site, so render it escaped. */
  source?: string;
  purity: WallpaperPurity;
  category: WallpaperCategory;
  width: number;
  height: number;
  /** `<width>x<height>`. */
  resolution: string;
  /** Width / height, rounded to 2 decimals as Wallhaven does. */
  ratio: number;
  fileSize: number;
  fileType: string;
  /** Wallhaven sends no time zone; its times are UTC. */
  createdAt: Date;
  /** `#rrggbb`. */
  colors: string[];
  /** The full image. Absent when the answer's URL is not https on a Wallhaven image host. */
  imageUrl?: string;
  thumbnails: { large?: string; original?: string; small?: string };
}

export interface WallpaperUploader {
  username: string;
  group?: string;
  avatarUrl?: string;
}

export interface WallpaperTag {
  id: number;
  name: string;
  aliases: string[];
  category?: string;
  purity?: WallpaperPurity;
}

export interface WallpaperDetail extends WallpaperSummary {
  /** Null for the few wallpapers whose uploader account is gone. */
  uploader: WallpaperUploader | null;
  tags: WallpaperTag[];
}

export interface WallpaperPage {
  items: WallpaperSummary[];
  page: number;
  lastPage: number;
  total: number;
  perPage: number;
  /** The seed of a random page: pass it back to get the same order on the next page. */
  seed: string | null;
  /** What was searched for, for display: the text, or the tag name of an `id:` search; null without a query. */
  query: string | null;
}
