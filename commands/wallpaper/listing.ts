import type { ComponentContext, ComponentResult } from '../src/interaction/context.js';
import { componentAcknowledger, deferWithWaitNote, type Acknowledger } from '../src/interaction/deferral.js';
import { MemberShareSpent, UserError } from '../src/interaction/errors.js';
import type { Reply } from '../src/interaction/reply.js';
import { isUpstreamError } from '../src/interaction/upstream-error.js';
import type { Catalogue } from '../src/i18n/catalogue.js';
import { messagesFor } from '../src/i18n/messages.js';
import { describeFailure } from '../src/render/errors.js';
import { noResultsSentence, queueNote, renderPager } from '../src/render/wallpaper.js';
import type { AppServices } from '../src/app/services.js';
import { channelPurityScope, purityAllowed } from '../src/wallpaper/gating.js';
import { activityTime, decodePagerId, DEFAULT_PAGE_SIZE, longQueryKey, queryRefFor, type PagerSearch, type QueryRef } from '../src/wallpaper/pager-state.js';
import { isPastLastPage, locateResult, PAGER_IDLE_LIMIT_MS, summaryOf, targetOf, type LocatedResult } from '../src/wallpaper/paging.js';
import { parseCollectionListingText, type CollectionRef, type WallpaperCollection } from '../src/wallpaper/collections.js';
import { parseTagListingText } from '../src/wallpaper/listings.js';
import { highestPurity, type WallpaperSearch } from '../src/wallpaper/search.js';
import { isSimilarChallenged, similarQuery } from '../src/wallpaper/wallhaven-site.js';

/**
 * The listings `/wallpaper` pages through one wallpaper at a time (a search, "More like this", a
 * tag, a collection): how
 * one opens on its first result, and how ◀ ▶ move through it. Every page spends the member's share
 * of Wallhaven and is cached by the service; the purity asked for is checked against the channel
 * before any request, on opening and again on every press.
 */

/**
 * Runs `work`, which may queue behind Wallhaven's limiter: a long expected wait is said at once, in
 * the words of `messages`; otherwise the interaction is deferred only when the work is slow.
 */
export function waitForWallhaven<T>(app: AppServices, acknowledge: Acknowledger, messages: Catalogue, work: () => Promise<T>): Promise<T> {
  return deferWithWaitNote(acknowledge, { expectedWaitMs: app.wallhaven.expectedWaitMs(), note: (ms) => queueNote(ms, messages) }, work);
}

/** How the query travels in the pager's buttons; a query too long for them is stored for the whole fleet first. */
async function queryRef(app: AppServices, text: string | undefined, filters: Omit<PagerSearch, 'query'>): Promise<QueryRef> {
  const ref = queryRefFor(text, filters, { remember: longQueryKey });
  if (ref.kind === 'stored' && text !== undefined) await app.state.longQueries.remember(text);
  return ref;
}

/**
 * The pager's result at `index`, each page it needs spending the member's share of Wallhaven: a
 * search's page, or a collection's (which takes only the purity and the page).
 */
function locate(app: AppServices, userId: string, search: PagerSearch, text: string | undefined, index: number, pageSize: number, direction: 'next' | 'prev' | 'stay'): Promise<LocatedResult | null> {
  const share = app.memberShares.spenderFor(userId, 'wallhaven');
  const collection = search.listing === 'collection' && text !== undefined ? parseCollectionListingText(text) : null;
  const fetchPage = collection === null ? (page: WallpaperSearch) => app.wallhaven.search(page, share) : (page: WallpaperSearch) => app.wallhaven.collectionPage(collection, page.purity, page.page, share);
  return locateResult(fetchPage, search, text, index, pageSize, direction);
}

/** A collection's label and count, from its owner's list (cached like a search page); null once it is gone. */
export async function collectionOf(app: AppServices, userId: string, ref: CollectionRef): Promise<WallpaperCollection | null> {
  try {
    const collections = await app.wallhaven.collections(ref.username, app.memberShares.spenderFor(userId, 'wallhaven'));
    return collections.find((collection) => collection.id === ref.id) ?? null;
  } catch (error) {
    if (isUpstreamError(error, 'not_found')) return null;
    throw error;
  }
}

/** Who opens a listing, where, and how the wait is shown to them. */
interface Opener {
  userId: string;
  channel: Parameters<typeof purityAllowed>[1];
  acknowledge: Acknowledger;
  messages: Catalogue;
}

/**
 * A new pager on the first result of `filters` and `query`, after checking that the channel may show
 * the purity it asks for. The caller's message becomes the pager: its owner is who asked.
 */
export async function openPager(
  app: AppServices,
  opener: Opener,
  filters: Omit<PagerSearch, 'query'>,
  query: string | undefined,
  collection?: WallpaperCollection,
): Promise<Reply> {
  const { messages } = opener;
  const nsfwAvailable = app.wallhaven.nsfwAvailable;
  const decision = purityAllowed(highestPurity(filters.purity), opener.channel, nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  const lastActivityMs = activityTime(app.clock.now().getTime());
  const search: PagerSearch = { ...filters, query: await queryRef(app, query, filters) };
  const located = await waitForWallhaven(app, opener.acknowledge, messages, () => locate(app, opener.userId, search, query, 0, DEFAULT_PAGE_SIZE, 'stay')).catch(
    (error: unknown) => {
      throw isSimilarChallenged(error) ? new UserError((t) => t.wallpaper.similarChallenged, { cause: error }) : error;
    },
  );
  if (located === null || located.page.total === 0) throw new UserError((t) => noResultsSentence(summaryOf(search, query, located?.page, collection), t));
  // Wallhaven may answer with a seed of its own: later pages must use the one page 1 was sorted by.
  if (search.sorting === 'random' && located.page.seed !== null) search.seed = located.page.seed;
  return renderPager({ search, query, located, lastActivityMs, channel: opener.channel, nsfwAvailable, expired: false, messages, ...(collection ? { collection } : {}) });
}

export function ephemeral(content: string): ComponentResult {
  return { reply: { content, ephemeral: true } };
}

/** A failure while a component works, answered on the side so the message it sits on stays as it is. */
export function sideAnswer(ctx: ComponentContext, error: unknown, messages: Catalogue): ComponentResult {
  if (isPastLastPage(error)) return ephemeral(messages.wallpaper.noMoreResults);
  if (isSimilarChallenged(error)) return ephemeral(messages.wallpaper.similarChallenged);
  if (error instanceof UserError || error instanceof MemberShareSpent) return ephemeral(describeFailure(error, messages));
  if (isUpstreamError(error)) {
    ctx.log.info({ err: error }, 'wallpaper listing not loaded');
    return ephemeral(describeFailure(error, messages));
  }
  throw error;
}

/**
 * A listing opened from a component (a button or menu under a wallpaper): a new message, owned by
 * whoever pressed, with every purity the channel allows. The message pressed on is left as it is
 * (no wait note replaces it), and a refusal is answered on the side.
 */
export async function openFromComponent(
  ctx: ComponentContext,
  app: AppServices,
  filters: Omit<PagerSearch, 'query' | 'purity'>,
  text: string,
  collection?: WallpaperCollection,
): Promise<ComponentResult> {
  const messages = messagesFor(ctx.user.locale);
  const acknowledge: Acknowledger = { defer: () => ctx.deferUpdate(), progress: () => ctx.deferUpdate() };
  const search = { ...filters, purity: channelPurityScope(ctx.channel, app.wallhaven.nsfwAvailable) };
  try {
    return { reply: await openPager(app, { userId: ctx.user.id, channel: ctx.channel, acknowledge, messages }, search, text, collection) };
  } catch (error) {
    return sideAnswer(ctx, error, messages);
  }
}

export const ALL_CATEGORIES = { general: true, anime: true, people: true } as const;

/** "More like this" under a wallpaper: similar wallpapers (`like:<id>`), most similar first. */
export function moreLikeThis(ctx: ComponentContext, app: AppServices, wallpaperId: string): Promise<ComponentResult> {
  return openFromComponent(ctx, app, { categories: ALL_CATEGORIES, sorting: 'relevance' }, similarQuery(wallpaperId));
}

/** A tag picked in a detail view's menu: that exact tag's wallpapers (`id:<tag id>`), newest first. */
export function listTag(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const picked = ctx.values[0] ?? '';
  if (parseTagListingText(picked) === null) return Promise.resolve(ephemeral(messagesFor(ctx.user.locale).wallpaper.unknownPager));
  return openFromComponent(ctx, app, { categories: ALL_CATEGORIES, sorting: 'date_added', listing: 'tag' }, picked);
}

/** ◀ ▶ under a listing: only the member who opened it pages; an idle pager switches off. */
export async function page(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const messages = messagesFor(ctx.user.locale);
  const labels = messages.wallpaper;
  const state = decodePagerId(ctx.customId);
  if (state === null) return ephemeral(labels.unknownPager);
  if (ctx.message.ownerId === null || ctx.message.ownerId !== ctx.user.id) return ephemeral(labels.notYourPager);
  const { search } = state;
  let query: string | undefined;
  if (search.query.kind === 'text') query = search.query.text;
  else if (search.query.kind === 'stored') {
    query = await app.state.longQueries.recall(search.query.key);
    if (query === undefined) return ephemeral(labels.forgottenQuery);
  }
  // The state came from our own buttons, but the channel may have changed its age restriction since.
  const decision = purityAllowed(highestPurity(search.purity), ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) return ephemeral(decision.reason);

  const now = app.clock.now().getTime();
  const expired = now - state.lastActivityMs > PAGER_IDLE_LIMIT_MS;
  // An expired pager re-renders the result it shows, with its buttons disabled.
  const target = targetOf(state, expired);
  const collectionRef = search.listing === 'collection' && query !== undefined ? parseCollectionListingText(query) : null;
  let result;
  let collection: WallpaperCollection | null = null;
  try {
    [result, collection] = await waitForWallhaven(app, componentAcknowledger(ctx), messages, () =>
      Promise.all([
        locate(app, ctx.user.id, search, query, target.index, state.pageSize, target.direction),
        collectionRef === null ? null : collectionOf(app, ctx.user.id, collectionRef),
      ]),
    );
  } catch (error) {
    if (collectionRef !== null && isUpstreamError(error, 'not_found') && !isPastLastPage(error)) return ephemeral(labels.collectionGone);
    return sideAnswer(ctx, error, messages);
  }
  if (collectionRef !== null && collection === null) return ephemeral(labels.collectionGone);
  if (result === null) return ephemeral(labels.noMoreResults);
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
