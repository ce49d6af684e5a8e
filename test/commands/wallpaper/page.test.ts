import { describe, expect, it } from 'vitest';
import { page } from '../../../commands/wallpaper/page.js';
import { en } from '../../../src/i18n/en.js';
import { encodePagerId } from '../../../src/wallpaper/pager-state.js';
import { componentContext, updated } from '../../helpers/command-contexts.js';
import { NOW, pages, searchService, stubApp } from '../../helpers/wallpaper-fixtures.js';

const SEARCH = { categories: { general: true, anime: true, people: true }, purity: 'sfw' as const, sorting: 'date_added' as const };
const idAt = (index: number, options: { lastActivityMs?: number; query?: { kind: 'stored'; key: string } } = {}) =>
  encodePagerId({ action: 'next', search: { ...SEARCH, query: options.query ?? { kind: 'none' } }, index, pageSize: 24, lastActivityMs: options.lastActivityMs ?? NOW - 60_000 });

describe('◀ ▶ under a listing', () => {
  it('moves its owner to the result asked for, fetching its page', async () => {
    const service = searchService(pages([24, 24]));
    // ▶ pressed on result 30 (0-based) lands on result 31: the 8th of page 2.
    const shown = updated(await page(componentContext(idAt(30)), stubApp(service)));
    expect(shown.embeds?.[0]?.title).toBe('Wallpaper p2o07x');
    expect(service.search).toHaveBeenCalledWith(expect.objectContaining({ page: 2 }), {});
  });

  it('refuses anyone but its owner, a button it never made, and a forgotten long query, before any request', async () => {
    const service = searchService(pages([24]));
    const app = stubApp(service);
    expect(await page(componentContext(idAt(1), { ownerId: 'someone' }), app)).toEqual({ reply: { content: en.wallpaper.notYourPager, ephemeral: true } });
    expect(await page(componentContext('wp:nonsense'), app)).toEqual({ reply: { content: en.wallpaper.unknownPager, ephemeral: true } });
    expect(await page(componentContext(idAt(1, { query: { kind: 'stored', key: 'abcdefghij' } })), app)).toEqual({ reply: { content: en.wallpaper.forgottenQuery, ephemeral: true } });
    expect(service.search).not.toHaveBeenCalled();
  });

  it('switches an idle pager off: the result it shows, buttons disabled, with a note', async () => {
    const shown = updated(await page(componentContext(idAt(2, { lastActivityMs: NOW - 11 * 60_000 })), stubApp(searchService(pages([24])))));
    expect(shown.content).toBe(en.wallpaper.pagerExpired);
    expect(JSON.stringify(shown.components)).not.toContain('"disabled":false');
  });

  it('says there are no more results past the last one', async () => {
    expect(await page(componentContext(idAt(23)), stubApp(searchService(pages([24]))))).toEqual({ reply: { content: en.wallpaper.noMoreResults, ephemeral: true } });
  });
});
