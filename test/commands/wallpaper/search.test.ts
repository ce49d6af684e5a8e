import { describe, expect, it } from 'vitest';
import { searchWallpapers } from '../../../commands/wallpaper/search.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { pages, searchService, stubApp } from '../../helpers/wallpaper-fixtures.js';

describe('/wallpaper search', () => {
  it('sends the options read as Wallhaven’s filters, and opens the pager on the first result', async () => {
    const service = searchService(pages([24]));
    const reply = await searchWallpapers(chatContext('search', { query: 'mountains', toplist: '1w', ratio: '16x9' }).ctx, stubApp(service));
    expect(service.search).toHaveBeenCalledWith(expect.objectContaining({ query: 'mountains', sorting: 'toplist', topRange: '1w', ratios: ['16x9'], page: 1, purity: { sfw: true, sketchy: false, nsfw: false } }), {});
    expect(reply.embeds?.[0]?.title).toBe('Wallpaper p1o00x');
  });

  it('refuses options Wallhaven would not take, before any request', async () => {
    const service = searchService(pages([24]));
    await expect(searchWallpapers(chatContext('search', { toplist: '1w', sorting: 'views' }).ctx, stubApp(service))).rejects.toThrow(/toplist/);
    await expect(searchWallpapers(chatContext('search', { purity: 'nsfw' }).ctx, stubApp(service))).rejects.toThrow(/age-restricted/);
    expect(service.search).not.toHaveBeenCalled();
  });
});
