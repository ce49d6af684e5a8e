import type { ChatInputContext, ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { chatAcknowledger, componentAcknowledger } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { isUpstreamError } from '../../src/interaction/upstream-error.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { quoteUserText } from '../../src/render/user-text.js';
import { collectionPages, renderCollectionList } from '../../src/render/wallpaper-collections.js';
import type { AppServices } from '../../src/app/services.js';
import { collectionListingText, parseWallhavenUsername, type WallpaperCollection } from '../../src/wallpaper/collections.js';
import { ALL_CATEGORIES, openFromComponent, sideAnswer, waitForWallhaven } from './listing.js';

/**
 * `/wallpaper collections user`: a Wallhaven user's public collections, 25 to a page with a menu to
 * open one; an opened collection is a listing like any other, asking only for the purities the
 * channel allows (the only filter Wallhaven's collection listing takes).
 */

/** The user's public collections; an unknown user and one without any get the same sentence. */
async function publicCollections(app: AppServices, userId: string, username: string, work: (load: () => Promise<WallpaperCollection[]>) => Promise<WallpaperCollection[]>): Promise<WallpaperCollection[]> {
  let collections: WallpaperCollection[] = [];
  try {
    collections = await work(() => app.wallhaven.collections(username, app.memberShares.spenderFor(userId, 'wallhaven')));
  } catch (error) {
    if (!isUpstreamError(error, 'not_found')) throw error;
  }
  if (collections.length === 0) throw new UserError((t) => t.wallpaper.noCollections(quoteUserText(username, 64)));
  return collections;
}

export async function listCollections(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const parsed = parseWallhavenUsername(ctx.options.getString('user'));
  if (!parsed.ok) throw new UserError((t) => t.wallpaper.notAUsername);
  const messages = messagesFor(ctx.settings.publicLocale);
  const collections = await publicCollections(app, ctx.user.id, parsed.username, (load) => waitForWallhaven(app, chatAcknowledger(ctx, false), messages, load));
  return renderCollectionList(parsed.username, collections, 0, messages);
}

/** ◀ ▶ under the list: only who asked for it pages, the list coming from the cache. */
export async function pageCollectionList(ctx: ComponentContext, app: AppServices, target: { username: string; page: number }): Promise<ComponentResult> {
  const messages = messagesFor(ctx.settings.publicLocale);
  if (ctx.message.ownerId === null || ctx.message.ownerId !== ctx.user.id) return privateAnswer(messages.wallpaper.notYourList);
  try {
    const collections = await publicCollections(app, ctx.user.id, target.username, (load) => waitForWallhaven(app, componentAcknowledger(ctx), messages, load));
    const page = Math.min(target.page, collectionPages(collections.length) - 1);
    return { update: renderCollectionList(target.username, collections, page, messages) };
  } catch (error) {
    return sideAnswer(ctx, error, messages);
  }
}

/** A collection picked in the menu: a new listing of its wallpapers, owned by whoever picked it. */
export async function openCollection(ctx: ComponentContext, app: AppServices, username: string): Promise<ComponentResult> {
  const messages = messagesFor(ctx.settings.publicLocale);
  const id = Number(ctx.values[0]);
  if (!Number.isSafeInteger(id) || id < 1) return privateAnswer(messages.wallpaper.unknownPager);
  let collection: WallpaperCollection | null;
  try {
    collection = await app.wallpaperListings.collectionOf({ id, username }, app.memberShares.spenderFor(ctx.user.id, 'wallhaven'));
  } catch (error) {
    return sideAnswer(ctx, error, messages);
  }
  if (collection === null) return privateAnswer(messages.wallpaper.collectionGone);
  return openFromComponent(ctx, app, { categories: ALL_CATEGORIES, sorting: 'date_added', listing: 'collection' }, collectionListingText({ id, username }), collection);
}
