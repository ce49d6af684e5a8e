import { describe, expect, it, vi } from 'vitest';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { WallpaperListings } from '../../../src/services/wallhaven/wallpaper-listings.js';
import { longQueryKey, type PagerSearch } from '../../../src/wallpaper/pager-state.js';
import { pages } from '../../helpers/wallpaper-fixtures.js';

const FILTERS: Omit<PagerSearch, 'query'> = { categories: { general: true, anime: true, people: true }, purity: 'sfw', sorting: 'date_added' };
const SHARE = { beforeRequest: async () => undefined };

function listings(options: { collections?: () => Promise<unknown> } = {}) {
  const stored = new Map<string, string>();
  const wallhaven = {
    search: vi.fn(async (search: { page: number }) => pages([24, 24]).get(search.page)!),
    collectionPage: vi.fn(async (_ref: unknown, _purity: unknown, page: number) => pages([24, 24]).get(page)!),
    collections: vi.fn(options.collections ?? (async () => [{ id: 3, label: 'Cats', views: 1, count: 48 }])),
  };
  const longQueries = { remember: vi.fn(async (text: string) => void stored.set(longQueryKey(text), text)), recall: async (key: string) => stored.get(key) };
  return { service: new WallpaperListings(wallhaven as never, longQueries), wallhaven, longQueries };
}

describe('WallpaperListings', () => {
  it('carries a short query in the buttons, stores a long one for the fleet, and finds both again', async () => {
    const { service, longQueries } = listings();
    const short = await service.queryRef('cats', FILTERS);
    expect(short).toEqual({ kind: 'text', text: 'cats' });
    const long = 'a'.repeat(200);
    const stored = await service.queryRef(long, FILTERS);
    expect(stored).toEqual({ kind: 'stored', key: longQueryKey(long) });
    expect(longQueries.remember).toHaveBeenCalledWith(long);
    expect(await service.queryText(stored)).toBe(long);
    expect(await service.queryText(short)).toBe('cats');
    expect(await service.queryText({ kind: 'none' })).toBeUndefined();
    expect(await service.queryText({ kind: 'stored', key: 'forgotten1' })).toBeNull();
  });

  it('locates a result on a search’s pages, or a collection’s, spending the share given', async () => {
    const { service, wallhaven } = listings();
    const located = await service.locate({ ...FILTERS, query: { kind: 'none' } }, undefined, { index: 30, pageSize: 24, direction: 'stay' }, SHARE);
    expect(located?.page.page).toBe(2);
    expect(wallhaven.search).toHaveBeenCalledWith(expect.objectContaining({ page: 2 }), SHARE);
    await service.locate({ ...FILTERS, listing: 'collection', query: { kind: 'text', text: '3:Someone' } }, '3:Someone', { index: 0, pageSize: 24, direction: 'stay' }, SHARE);
    expect(wallhaven.collectionPage).toHaveBeenCalledWith({ id: 3, username: 'Someone' }, { sfw: true, sketchy: false, nsfw: false }, 1, SHARE);
  });

  it('finds a collection’s label in its owner’s list; null once it or its owner is gone', async () => {
    expect(await listings().service.collectionOf({ id: 3, username: 'Someone' }, SHARE)).toMatchObject({ label: 'Cats' });
    expect(await listings().service.collectionOf({ id: 4, username: 'Someone' }, SHARE)).toBeNull();
    const gone = listings({ collections: async () => Promise.reject(new UpstreamError('wallhaven', 'not_found', '404')) });
    expect(await gone.service.collectionOf({ id: 3, username: 'Someone' }, SHARE)).toBeNull();
    const down = listings({ collections: async () => Promise.reject(new UpstreamError('wallhaven', 'unavailable', '503')) });
    await expect(down.service.collectionOf({ id: 3, username: 'Someone' }, SHARE)).rejects.toThrow('503');
  });

  it('reads a grid’s block of ten from the one or two pages holding it, a short page included', async () => {
    const { service, wallhaven } = listings();
    const search = { ...FILTERS, query: { kind: 'none' } } as const;
    const straddling = await service.block(search, undefined, { start: 20, pageSize: 24 }, SHARE);
    expect(straddling?.items.map(({ index }) => index)).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(wallhaven.search.mock.calls.map(([asked]) => asked.page)).toEqual([1, 2]);
    expect(straddling?.hasNext).toBe(true);
    const last = await service.block(search, undefined, { start: 40, pageSize: 24 }, SHARE);
    expect(last?.items.map(({ index }) => index)).toEqual([40, 41, 42, 43, 44, 45, 46, 47]);
    expect(last?.hasNext).toBe(false);
    // A page short of 24 before the last: the block goes on with the next page's first results.
    wallhaven.search.mockImplementation(async (asked: { page: number }) => pages([20, 24]).get(asked.page)!);
    const short = await service.block(search, undefined, { start: 10, pageSize: 24 }, SHARE);
    expect(short?.items.map(({ item }) => item.id)).toEqual(pages([20, 24]).get(1)!.items.slice(10).map((w) => w.id));
    const beyond = await service.block(search, undefined, { start: 20, pageSize: 24 }, SHARE);
    expect(beyond?.items.map(({ item }) => item.id)).toEqual(pages([20, 24]).get(2)!.items.slice(0, 10).map((w) => w.id));
    // Indices as single-view paging counts them (24 a page), so a pick lands on the same wallpaper.
    expect(beyond?.items[0]!.index).toBe(24);
  });
});
