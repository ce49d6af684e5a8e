import { describe, expect, it, vi } from 'vitest';
import { listCollections, openCollection, pageCollectionList } from '../../../commands/wallpaper/collections.js';
import { en } from '../../../src/i18n/en.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { chatContext, componentContext, updated } from '../../helpers/command-contexts.js';
import { pages, stubApp } from '../../helpers/wallpaper-fixtures.js';

const COLLECTIONS = Array.from({ length: 30 }, (_, index) => ({ id: index + 1, label: `Favourites ${index + 1}`, views: 1, count: 10 }));

function collectionService(found: typeof COLLECTIONS | Error = COLLECTIONS) {
  return {
    collections: vi.fn(async () => (found instanceof Error ? Promise.reject(found) : found)),
    collectionPage: vi.fn(async () => pages([5]).get(1)!),
  };
}

describe('/wallpaper collections', () => {
  it('lists a user’s public collections, 25 to a page, on the member’s share', async () => {
    const service = collectionService();
    const reply = await listCollections(chatContext('collections', { user: 'Someone' }).ctx, stubApp(service));
    expect(service.collections).toHaveBeenCalledWith('Someone', {});
    expect(JSON.stringify(reply)).toContain('Favourites 25');
    expect(JSON.stringify(reply)).not.toContain('Favourites 26');
  });

  it('answers an unknown user and one without public collections alike, and refuses what is no username', async () => {
    const unknown = collectionService(new UpstreamError('wallhaven', 'not_found', '404'));
    await expect(listCollections(chatContext('collections', { user: 'ghost' }).ctx, stubApp(unknown))).rejects.toThrow(en.wallpaper.noCollections('“ghost”'));
    await expect(listCollections(chatContext('collections', { user: 'nobody' }).ctx, stubApp(collectionService([])))).rejects.toThrow(en.wallpaper.noCollections('“nobody”'));
    await expect(listCollections(chatContext('collections', { user: 'not a name!' }).ctx, stubApp(unknown))).rejects.toThrow(en.wallpaper.notAUsername);
  });

  it('pages the list for whoever asked for it only', async () => {
    const app = stubApp(collectionService());
    expect(JSON.stringify(updated(await pageCollectionList(componentContext('wp:kn0.Someone'), app, { username: 'Someone', page: 1 })))).toContain('Favourites 26');
    expect(await pageCollectionList(componentContext('wp:kn0.Someone', { ownerId: 'x' }), app, { username: 'Someone', page: 1 })).toEqual({ reply: { content: en.wallpaper.notYourList, ephemeral: true } });
  });

  it('opens a collection picked as a listing with only the purities the channel allows; a gone one is said', async () => {
    const service = collectionService();
    const opened = await openCollection(componentContext('wp:oSomeone', { values: ['3'] }), stubApp(service), 'Someone');
    expect(service.collectionPage).toHaveBeenCalledWith({ id: 3, username: 'Someone' }, { sfw: true, sketchy: false, nsfw: false }, 1, {});
    expect('reply' in opened && JSON.stringify(opened.reply)).toContain('Favourites 3');
    expect(await openCollection(componentContext('wp:oSomeone', { values: ['99'] }), stubApp(service), 'Someone')).toEqual({ reply: { content: en.wallpaper.collectionGone, ephemeral: true } });
    expect(await openCollection(componentContext('wp:oSomeone', { values: ['x'] }), stubApp(service), 'Someone')).toEqual({ reply: { content: en.wallpaper.unknownPager, ephemeral: true } });
  });
});
