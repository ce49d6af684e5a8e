import { describe, expect, it, vi } from 'vitest';
import { showWallpaper } from '../../../commands/wallpaper/show.js';
import { en } from '../../../src/i18n/en.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { detail, stubApp } from '../../helpers/wallpaper-fixtures.js';

const AGE_RESTRICTED = { id: 'c2', kind: 'guild' as const, ageRestricted: true };

describe('/wallpaper show', () => {
  it('looks a wallpaper up by its link, on the member’s share, and shows its detail', async () => {
    const service = { detail: vi.fn(async () => detail('6dk8yq')) };
    const reply = await showWallpaper(chatContext('show', { id: 'https://wallhaven.cc/w/6dk8yq' }).ctx, stubApp(service));
    expect(service.detail).toHaveBeenCalledWith('6dk8yq', {});
    expect(JSON.stringify(reply)).toContain('artist');
  });

  it('refuses what is no wallpaper id before any request', async () => {
    const service = { detail: vi.fn() };
    await expect(showWallpaper(chatContext('show', { id: 'not an id!' }).ctx, stubApp(service))).rejects.toThrow(/That is not a wallpaper I can look up/);
    expect(service.detail).not.toHaveBeenCalled();
  });

  it('withholds a wallpaper whose purity the channel may not show', async () => {
    await expect(showWallpaper(chatContext('show', { id: '6dk8yq' }).ctx, stubApp({ detail: async () => detail('6dk8yq', 'sketchy') }))).rejects.toThrow(/age-restricted/);
  });

  it('words Wallhaven’s refusals: no such id, and a key needed where the channel could show NSFW', async () => {
    const missing = stubApp({ detail: async () => Promise.reject(new UpstreamError('wallhaven', 'not_found', '404')) });
    await expect(showWallpaper(chatContext('show', { id: '6dk8yq' }).ctx, missing)).rejects.toThrow(en.wallpaper.noSuchWallpaper('`6dk8yq`'));
    const locked = stubApp({ detail: async () => Promise.reject(new UpstreamError('wallhaven', 'unauthorized', '401')) });
    await expect(showWallpaper(chatContext('show', { id: '6dk8yq' }, { channel: AGE_RESTRICTED }).ctx, locked)).rejects.toThrow(en.wallpaper.needsKey);
    await expect(showWallpaper(chatContext('show', { id: '6dk8yq' }).ctx, locked)).rejects.toThrow(/age-restricted/);
  });
});
