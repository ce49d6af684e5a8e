import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { deferWithWaitNote, type Acknowledger } from '../../src/interaction/deferral.js';
import { MemberShareSpent, UserError } from '../../src/interaction/errors.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { isUpstreamError } from '../../src/interaction/upstream-error.js';
import type { Catalogue } from '../../src/i18n/catalogue.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { describeFailure } from '../../src/render/errors.js';
import { noResultsSentence, queueNote, renderPager } from '../../src/render/wallpaper.js';
import type { AppServices } from '../../src/app/services.js';
import type { WallpaperCollection } from '../../src/wallpaper/collections.js';
import { channelPurityScope, purityAllowed } from '../../src/wallpaper/gating.js';
import { activityTime, DEFAULT_PAGE_SIZE, type PagerSearch } from '../../src/wallpaper/pager-state.js';
import { isPastLastPage, summaryOf } from '../../src/wallpaper/paging.js';
import { highestPurity } from '../../src/wallpaper/search.js';
import { isSimilarChallenged } from '../../src/wallpaper/wallhaven-site.js';

/**
 * What `/wallpaper`'s subcommands and components share: the wait in Wallhaven's queue, and how a
 * listing (a search, "More like this", a tag, a collection) opens on its first result, the purity
 * it asks for checked against the channel before any request. The paging itself is the
 * `wallpaperListings` service's.
 */

export const ALL_CATEGORIES = { general: true, anime: true, people: true } as const;

/**
 * Runs `work`, which may queue behind Wallhaven's limiter: a long expected wait is said at once, in
 * the words of `messages`; otherwise the interaction is deferred only when the work is slow.
 */
export function waitForWallhaven<T>(app: AppServices, acknowledge: Acknowledger, messages: Catalogue, work: () => Promise<T>): Promise<T> {
  return deferWithWaitNote(acknowledge, { expectedWaitMs: app.wallhaven.expectedWaitMs(), note: (ms) => queueNote(ms, messages) }, work);
}

/** Who opens a listing, where, and how the wait is shown to them. */
export interface Opener {
  userId: string;
  channel: Parameters<typeof purityAllowed>[1];
  acknowledge: Acknowledger;
  messages: Catalogue;
}

/** A listing to open instead when the first has no results at all. */
export interface Fallback {
  filters: Omit<PagerSearch, 'query'>;
  query: string | undefined;
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
  fallback?: Fallback,
): Promise<Reply> {
  const { messages } = opener;
  const nsfwAvailable = app.wallhaven.nsfwAvailable;
  const decision = purityAllowed(highestPurity(filters.purity), opener.channel, nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  const lastActivityMs = activityTime(app.clock.now().getTime());
  const search: PagerSearch = { ...filters, query: await app.wallpaperListings.queryRef(query, filters) };
  const share = app.memberShares.spenderFor(opener.userId, 'wallhaven');
  const located = await waitForWallhaven(app, opener.acknowledge, messages, () =>
    app.wallpaperListings.locate(search, query, { index: 0, pageSize: DEFAULT_PAGE_SIZE, direction: 'stay' }, share),
  ).catch((error: unknown) => {
    throw isSimilarChallenged(error) ? new UserError((t) => t.wallpaper.similarChallenged, { cause: error }) : error;
  });
  if ((located === null || located.page.total === 0) && fallback !== undefined) return openPager(app, opener, fallback.filters, fallback.query, collection);
  if (located === null || located.page.total === 0) throw new UserError((t) => noResultsSentence(summaryOf(search, query, located?.page, collection), t));
  // Wallhaven may answer with a seed of its own: later pages must use the one page 1 was sorted by.
  if (search.sorting === 'random' && located.page.seed !== null) search.seed = located.page.seed;
  return renderPager({ search, query, located, lastActivityMs, channel: opener.channel, nsfwAvailable, expired: false, messages, ...(collection ? { collection } : {}) });
}

/** A failure while a component works, answered on the side so the message it sits on stays as it is. */
export function sideAnswer(ctx: ComponentContext, error: unknown, messages: Catalogue): ComponentResult {
  if (isPastLastPage(error)) return privateAnswer(messages.wallpaper.noMoreResults);
  if (isSimilarChallenged(error)) return privateAnswer(messages.wallpaper.similarChallenged);
  if (error instanceof UserError || error instanceof MemberShareSpent) return privateAnswer(describeFailure(error, messages));
  if (isUpstreamError(error)) {
    ctx.log.info({ err: error }, 'wallpaper listing not loaded');
    return privateAnswer(describeFailure(error, messages));
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
  const messages = messagesFor(ctx.settings.publicLocale);
  const acknowledge: Acknowledger = { defer: () => ctx.deferUpdate(), progress: () => ctx.deferUpdate() };
  const search = { ...filters, purity: channelPurityScope(ctx.channel, app.wallhaven.nsfwAvailable) };
  try {
    return { reply: await openPager(app, { userId: ctx.user.id, channel: ctx.channel, acknowledge, messages }, search, text, collection) };
  } catch (error) {
    return sideAnswer(ctx, error, messages);
  }
}
