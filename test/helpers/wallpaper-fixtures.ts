import { vi } from 'vitest';
import type { AppServices } from '../../src/app/services.js';
import { UpstreamError } from '../../src/interaction/upstream-error.js';
import { WallpaperListings } from '../../src/services/wallhaven/wallpaper-listings.js';
import type { WallhavenService } from '../../src/services/wallhaven/wallhaven.js';
import { longQueryKey } from '../../src/wallpaper/pager-state.js';
import type { WallpaperSearch } from '../../src/wallpaper/search.js';
import type { WallpaperDetail, WallpaperPage, WallpaperPurity, WallpaperSummary } from '../../src/wallpaper/wallpaper.js';
import { stubServices } from './command-contexts.js';

/**
 * Wallpapers, pages of them, and services over a stub of the Wallhaven service: for what the fake
 * Wallhaven never does (short pages before the last one, a result of the wrong purity, a long
 * limiter queue). The listings service is the real one, over that stub.
 */

export const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

export function item(id: string, purity: WallpaperPurity = 'sfw'): WallpaperSummary {
  return {
    id,
    pageUrl: `https://wallhaven.cc/w/${id}`,
    shortUrl: `https://whvn.cc/${id}`,
    views: 1,
    favorites: 1,
    purity,
    category: 'general',
    width: 1920,
    height: 1080,
    resolution: '1920x1080',
    ratio: 1.78,
    fileSize: 1000,
    fileType: 'image/png',
    createdAt: new Date(NOW),
    colors: [],
    thumbnails: { large: `https://th.wallhaven.cc/lg/${id.slice(0, 2)}/${id}.jpg` },
  };
}

export function detail(id: string, purity: WallpaperPurity = 'sfw'): WallpaperDetail {
  return { ...item(id, purity), uploader: { username: 'artist' }, tags: [{ id: 37, name: 'nature', aliases: [], category: 'Nature', purity: 'sfw' }] };
}

/** Pages of the given sizes; ids encode page and offset (`p2o09x`). */
export function pages(sizes: number[], purityOf: (page: number, offset: number) => WallpaperPurity = () => 'sfw'): Map<number, WallpaperPage> {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  return new Map(
    sizes.map((size, index) => [
      index + 1,
      {
        items: Array.from({ length: size }, (_, offset) => item(`p${index + 1}o${String(offset).padStart(2, '0')}x`, purityOf(index + 1, offset))),
        page: index + 1,
        lastPage: sizes.length,
        total,
        perPage: 24,
        seed: null,
        query: null,
      },
    ]),
  );
}

export function stubApp(service: Partial<WallhavenService>, config: { wallhavenAiFilter?: boolean } = {}): AppServices {
  const wallhaven = { nsfwAvailable: false, expectedWaitMs: () => 0, ...service } as WallhavenService;
  const stored = new Map<string, string>();
  const longQueries = { remember: async (text: string) => void stored.set(longQueryKey(text), text), recall: async (key: string) => stored.get(key) };
  return stubServices({ wallhaven, wallpaperListings: new WallpaperListings(wallhaven, longQueries), config: { wallhavenAiFilter: false, ...config } }, NOW);
}

export function searchService(byPage: Map<number, WallpaperPage>, options: { delayMs?: number; expectedWaitMs?: number } = {}) {
  const search = vi.fn(async (request: WallpaperSearch) => {
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const page = byPage.get(request.page);
    if (!page) throw new UpstreamError('wallhaven', 'not_found', 'page past the end');
    return page;
  });
  return { search, expectedWaitMs: () => options.expectedWaitMs ?? 0 };
}
