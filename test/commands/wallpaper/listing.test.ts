import { describe, expect, it } from 'vitest';
import { openFromComponent, openPager, sideAnswer, waitForWallhaven } from '../../../commands/wallpaper/listing.js';
import { en } from '../../../src/i18n/en.js';
import { UserError } from '../../../src/interaction/errors.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { SIMILAR_CHALLENGED } from '../../../src/wallpaper/wallhaven-site.js';
import { componentContext, GUILD_CHANNEL, USER } from '../../helpers/command-contexts.js';
import { pages, searchService, stubApp } from '../../helpers/wallpaper-fixtures.js';

const SFW = { sfw: true, sketchy: false, nsfw: false };
const FILTERS = { categories: { general: true, anime: true, people: true }, purity: 'sfw' as const, sorting: 'date_added' as const };
const acknowledge = () => ({ defer: async () => undefined, progress: async () => undefined });
const opener = () => ({ userId: USER.id, channel: GUILD_CHANNEL, acknowledge: acknowledge(), messages: en });

describe('opening a listing', () => {
  it('opens on the first result, a query too long for the buttons kept for the fleet and found again', async () => {
    const app = stubApp(searchService(pages([3])));
    const long = 'mountain '.repeat(30).trim();
    const reply = await openPager(app, opener(), FILTERS, long);
    expect(reply.embeds?.[0]?.title).toBe('Wallpaper p1o00x');
    const next = JSON.stringify(reply.components).match(/"custom_id":"(wp:f[^"]+)"/)?.[1];
    expect(next).toBeDefined();
    expect(next).not.toContain('mountain');
  });

  it('says nothing was found, and refuses a purity the channel may not show before any request', async () => {
    const service = searchService(new Map([[1, { ...pages([1]).get(1)!, items: [], total: 0 }]]));
    await expect(openPager(stubApp(service), opener(), FILTERS, 'zzz')).rejects.toThrow(/zzz/);
    const nsfw = searchService(pages([1]));
    await expect(openPager(stubApp(nsfw), opener(), { ...FILTERS, purity: 'sfw+sketchy' as const }, undefined)).rejects.toThrow(/age-restricted/);
    expect(nsfw.search).not.toHaveBeenCalled();
  });

  it('tells the user at once of a long wait in Wallhaven’s queue', async () => {
    const notes: string[] = [];
    const work = new Promise((resolve) => setTimeout(() => resolve('done'), 50));
    const app = stubApp({ expectedWaitMs: () => 12_000 });
    expect(await waitForWallhaven(app, { defer: async () => undefined, progress: async (note) => void notes.push(note) }, en, () => work)).toBe('done');
    expect(notes).toEqual([expect.stringContaining('12 seconds')]);
  });
});

describe('a listing opened from a component', () => {
  it('is a new reply owned by whoever pressed, asking every purity the channel allows', async () => {
    const service = searchService(pages([2]));
    const result = await openFromComponent(componentContext('wp:labc123'), stubApp(service), { categories: FILTERS.categories, sorting: 'relevance' }, 'like:abc123');
    expect(service.search).toHaveBeenCalledWith(expect.objectContaining({ query: 'like:abc123', purity: SFW }), {});
    expect('reply' in result && result.reply.embeds?.[0]?.title).toBe('Wallpaper p1o00x');
  });

  it('answers a failure on the side: a challenge, a spent page, an outage; anything else is thrown', () => {
    const ctx = componentContext('wp:x');
    expect(sideAnswer(ctx, new UpstreamError('wallhaven', 'unavailable', SIMILAR_CHALLENGED), en)).toEqual({ reply: { content: en.wallpaper.similarChallenged, ephemeral: true } });
    expect(sideAnswer(ctx, new UserError('No.'), en)).toEqual({ reply: { content: 'No.', ephemeral: true } });
    expect(sideAnswer(ctx, new UpstreamError('wallhaven', 'unavailable', '503'), en)).toEqual({ reply: { content: en.errors.unavailable('Wallhaven'), ephemeral: true } });
    expect(() => sideAnswer(ctx, new TypeError('bug'), en)).toThrow('bug');
  });
});
