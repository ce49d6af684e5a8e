import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { componentAcknowledger } from '../../src/interaction/deferral.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { isUpstreamError } from '../../src/interaction/upstream-error.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { renderPager } from '../../src/render/wallpaper.js';
import type { AppServices } from '../../src/app/services.js';
import { parseCollectionListingText } from '../../src/wallpaper/collections.js';
import { purityAllowed } from '../../src/wallpaper/gating.js';
import { activityTime, decodePagerId, isGridAction } from '../../src/wallpaper/pager-state.js';
import { isPastLastPage, PAGER_IDLE_LIMIT_MS, targetOf } from '../../src/wallpaper/paging.js';
import { highestPurity } from '../../src/wallpaper/search.js';
import { sideAnswer, waitForWallhaven } from './listing.js';

/**
 * ◀ ▶ under a listing: only the member who opened it pages; an idle pager switches off. The purity
 * it asks for is checked against the channel again on every press.
 */
export async function page(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const messages = messagesFor(ctx.settings.publicLocale);
  const labels = messages.wallpaper;
  const state = decodePagerId(ctx.customId);
  if (state === null || isGridAction(state.action)) return privateAnswer(labels.unknownPager);
  const action = state.action;
  if (ctx.message.ownerId === null || ctx.message.ownerId !== ctx.user.id) return privateAnswer(labels.notYourPager);
  const { search } = state;
  const query = await app.wallpaperListings.queryText(search.query);
  if (query === null) return privateAnswer(labels.forgottenQuery);
  // The state came from our own buttons, but the channel may have changed its age restriction since.
  const decision = purityAllowed(highestPurity(search.purity), ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) return privateAnswer(decision.reason);

  const now = app.clock.now().getTime();
  const expired = now - state.lastActivityMs > PAGER_IDLE_LIMIT_MS;
  // An expired pager re-renders the result it shows, with its buttons disabled.
  const target = targetOf({ action, index: state.index }, expired);
  const collectionRef = search.listing === 'collection' && query !== undefined ? parseCollectionListingText(query) : null;
  const share = app.memberShares.spenderFor(ctx.user.id, 'wallhaven');
  let located;
  try {
    located = await waitForWallhaven(app, componentAcknowledger(ctx), messages, () =>
      Promise.all([
        app.wallpaperListings.locate(search, query, { index: target.index, pageSize: state.pageSize, direction: target.direction }, share),
        collectionRef === null ? null : app.wallpaperListings.collectionOf(collectionRef, share),
      ]),
    );
  } catch (error) {
    if (collectionRef !== null && isUpstreamError(error, 'not_found') && !isPastLastPage(error)) return privateAnswer(labels.collectionGone);
    return sideAnswer(ctx, error, messages);
  }
  const [result, collection] = located;
  if (collectionRef !== null && collection === null) return privateAnswer(labels.collectionGone);
  if (result === null) return privateAnswer(labels.noMoreResults);
  return {
    update: renderPager({
      search,
      query,
      located: result,
      lastActivityMs: expired ? state.lastActivityMs : activityTime(now),
      channel: ctx.channel,
      nsfwAvailable: app.wallhaven.nsfwAvailable,
      expired,
      messages,
      ...(expired ? { note: labels.pagerExpired } : {}),
      ...(collection ? { collection } : {}),
    }),
  };
}
