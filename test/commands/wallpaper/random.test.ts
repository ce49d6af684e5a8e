import { describe, expect, it, vi } from 'vitest';
import { randomWallpaper } from '../../../commands/wallpaper/random.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { item, stubApp } from '../../helpers/wallpaper-fixtures.js';

describe('/wallpaper random', () => {
  it('picks among the query and categories given, and shows the pick', async () => {
    const service = { randomPick: vi.fn(async () => item('abc123')) };
    const reply = await randomWallpaper(chatContext('random', { query: 'lakes', category: 'anime' }).ctx, stubApp(service));
    expect(service.randomPick).toHaveBeenCalledWith('lakes', { general: false, anime: true, people: false }, {}, undefined);
    expect(JSON.stringify(reply)).toContain('abc123');
  });

  it('says nothing was found for the query, and withholds a pick of the wrong purity', async () => {
    const none = stubApp({ randomPick: async () => Promise.reject(new UpstreamError('wallhaven', 'not_found', 'empty')) });
    await expect(randomWallpaper(chatContext('random', { query: 'zzzz' }).ctx, none)).rejects.toThrow(/zzzz/);
    await expect(randomWallpaper(chatContext('random', {}).ctx, stubApp({ randomPick: async () => item('x1', 'sketchy') }))).rejects.toThrow(/age-restricted/);
  });
});
