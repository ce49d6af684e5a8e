import { isUpstreamError } from '../../interaction/upstream-error.js';
import { parseCollectionListingText, type CollectionRef, type WallpaperCollection } from '../../wallpaper/collections.js';
import { longQueryKey, queryRefFor, type PagerSearch, type QueryRef } from '../../wallpaper/pager-state.js';
import { locateBlock, locateResult, type LocatedBlock, type LocatedResult } from '../../wallpaper/paging.js';
import type { WallpaperSearch } from '../../wallpaper/search.js';
import type { WallpaperPage } from '../../wallpaper/wallpaper.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import type { WallhavenService } from './wallhaven.js';

/** Where queries too long for a button are kept for the whole fleet while their pager lives. */
export interface LongQueryTexts {
  remember(text: string): Promise<unknown>;
  recall(key: string): Promise<string | undefined>;
}

/**
 * The listings `/wallpaper` pages through one wallpaper at a time (a search, "More like this", a
 * tag, a collection): how a pager's query travels in its buttons, and which result each press lands
 * on. Every page spends the member's share of Wallhaven (`share`) and is cached by the service.
 */
export class WallpaperListings {
  constructor(
    private readonly wallhaven: Pick<WallhavenService, 'search' | 'collectionPage' | 'collections'>,
    private readonly longQueries: LongQueryTexts,
  ) {}

  /** How the query travels in the pager's buttons; a query too long for them is stored for the whole fleet first. */
  async queryRef(text: string | undefined, filters: Omit<PagerSearch, 'query'>): Promise<QueryRef> {
    const ref = queryRefFor(text, filters, { remember: longQueryKey });
    if (ref.kind === 'stored' && text !== undefined) await this.longQueries.remember(text);
    return ref;
  }

  /** The query a pager's buttons carry, as text (undefined for none); null once a stored one is forgotten. */
  async queryText(ref: QueryRef): Promise<string | undefined | null> {
    if (ref.kind === 'none') return undefined;
    if (ref.kind === 'text') return ref.text;
    return (await this.longQueries.recall(ref.key)) ?? null;
  }

  /**
   * The pager's result at `index`: from a search's pages, or a collection's (which take only the
   * purity and the page); null past the last result.
   */
  locate(
    search: PagerSearch,
    text: string | undefined,
    at: { index: number; pageSize: number; direction: 'next' | 'prev' | 'stay' },
    share: MemberShareSpender,
  ): Promise<LocatedResult | null> {
    return locateResult(this.pageReader(search, text, share), search, text, at.index, at.pageSize, at.direction);
  }

  /** The grid's ten results from `start` (one or two pages, cached like any); null past the last result. */
  block(search: PagerSearch, text: string | undefined, at: { start: number; pageSize: number }, share: MemberShareSpender): Promise<LocatedBlock | null> {
    return locateBlock(this.pageReader(search, text, share), search, text, at.start, at.pageSize);
  }

  /** How a listing's pages are read: a search's, or a collection's (which take only the purity and the page). */
  private pageReader(search: PagerSearch, text: string | undefined, share: MemberShareSpender): (page: WallpaperSearch) => Promise<WallpaperPage> {
    const collection = search.listing === 'collection' && text !== undefined ? parseCollectionListingText(text) : null;
    return collection === null
      ? (page) => this.wallhaven.search(page, share)
      : (page) => this.wallhaven.collectionPage(collection, page.purity, page.page, share);
  }

  /** A collection's label and count, from its owner's list (cached like a search page); null once it is gone. */
  async collectionOf(ref: CollectionRef, share: MemberShareSpender): Promise<WallpaperCollection | null> {
    try {
      const collections = await this.wallhaven.collections(ref.username, share);
      return collections.find((collection) => collection.id === ref.id) ?? null;
    } catch (error) {
      if (isUpstreamError(error, 'not_found')) return null;
      throw error;
    }
  }
}
