import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import type { Acknowledger } from '../../src/interaction/deferral.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { isUpstreamError } from '../../src/interaction/upstream-error.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { renderPager } from '../../src/render/wallpaper.js';
import { renderGrid } from '../../src/render/wallpaper-grid.js';
import type { AppServices } from '../../src/app/services.js';
import { parseCollectionListingText, type WallpaperCollection } from '../../src/wallpaper/collections.js';
import { purityAllowed } from '../../src/wallpaper/gating.js';
import { activityTime, type GridAction, type PagerState } from '../../src/wallpaper/pager-state.js';
import { blockStart, GRID_SIZE, isPastLastPage, PAGER_IDLE_LIMIT_MS } from '../../src/wallpaper/paging.js';
import { highestPurity } from '../../src/wallpaper/search.js';
import { sideAnswer, waitForWallhaven } from './listing.js';

/**
 * A listing's grid: **Grid** under a listing opens its results ten at a time in a new message of
 * whoever pressed; only that member pages it ◀ ▶; its menu opens one result in the usual single
 * view, again as a new message of whoever picked. The grid's state is the listing's, in the same
 * custom_id format (pager-state.ts), and its purity is checked against the channel on every press.
 */

type GridState = PagerState & { action: GridAction };

/**
 * A grid's message is Components V2: a wait note cannot replace its content, so a slow press is
 * only acknowledged (and the message pressed on stays as it is until the answer).
 */
function silentAcknowledger(ctx: ComponentContext): Acknowledger {
  return { defer: () => ctx.deferUpdate(), progress: () => ctx.deferUpdate() };
}

export async function grid(ctx: ComponentContext, app: AppServices, state: GridState): Promise<ComponentResult> {
  const messages = messagesFor(ctx.settings.publicLocale);
  const labels = messages.wallpaperGrid;
  const paging = state.action === 'grid-prev' || state.action === 'grid-next';
  // Opening a grid or one of its results makes a message of the presser's own; paging is the owner's.
  if (paging && (ctx.message.ownerId === null || ctx.message.ownerId !== ctx.user.id)) return privateAnswer(labels.notYourGrid);
  const { search } = state;
  const query = await app.wallpaperListings.queryText(search.query);
  if (query === null) return privateAnswer(messages.wallpaper.forgottenQuery);
  // The state came from our own buttons, but the channel may have changed its age restriction since.
  const decision = purityAllowed(highestPurity(search.purity), ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) return privateAnswer(decision.reason);

  const now = app.clock.now().getTime();
  const expired = paging && now - state.lastActivityMs > PAGER_IDLE_LIMIT_MS;
  const share = app.memberShares.spenderFor(ctx.user.id, 'wallhaven');
  const collectionRef = search.listing === 'collection' && query !== undefined ? parseCollectionListingText(query) : null;
  const collectionOf = (): Promise<WallpaperCollection | null> => (collectionRef === null ? Promise.resolve(null) : app.wallpaperListings.collectionOf(collectionRef, share));
  const channel = ctx.channel;
  const nsfwAvailable = app.wallhaven.nsfwAvailable;
  try {
    if (state.action === 'pick') {
      const index = Number(ctx.values[0]);
      // A block after a short Wallhaven page numbers its results from the next page's start (as the single view does): up to a page further.
      if (!Number.isSafeInteger(index) || index < state.index || index >= state.index + GRID_SIZE + state.pageSize) return privateAnswer(messages.wallpaper.unknownPager);
      const [located, collection] = await waitForWallhaven(app, silentAcknowledger(ctx), messages, () =>
        Promise.all([app.wallpaperListings.locate(search, query, { index, pageSize: state.pageSize, direction: 'stay' }, share), collectionOf()]),
      );
      if (located === null) return privateAnswer(messages.wallpaper.noMoreResults);
      if (collectionRef !== null && collection === null) return privateAnswer(messages.wallpaper.collectionGone);
      return {
        reply: renderPager({ search, query, located, lastActivityMs: activityTime(now), channel, nsfwAvailable, expired: false, messages, ...(collection ? { collection } : {}) }),
      };
    }
    const start = expired || state.action === 'grid' ? blockStart(state.index) : Math.max(0, state.index + (state.action === 'grid-next' ? GRID_SIZE : -GRID_SIZE));
    const [located, collection] = await waitForWallhaven(app, silentAcknowledger(ctx), messages, () =>
      Promise.all([app.wallpaperListings.block(search, query, { start, pageSize: state.pageSize }, share), collectionOf()]),
    );
    if (located === null) return privateAnswer(messages.wallpaper.noMoreResults);
    if (collectionRef !== null && collection === null) return privateAnswer(messages.wallpaper.collectionGone);
    const view = renderGrid({
      search,
      query,
      located,
      lastActivityMs: expired ? state.lastActivityMs : activityTime(now),
      channel,
      nsfwAvailable,
      expired,
      messages,
      ...(expired ? { note: labels.gridExpired } : {}),
      ...(collection ? { collection } : {}),
    });
    return paging ? { update: view } : { reply: view };
  } catch (error) {
    if (collectionRef !== null && isUpstreamError(error, 'not_found') && !isPastLastPage(error)) return privateAnswer(messages.wallpaper.collectionGone);
    return sideAnswer(ctx, error, messages);
  }
}
