import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { parseTagListingText } from '../../src/wallpaper/listings.js';
import { similarQuery } from '../../src/wallpaper/wallhaven-site.js';
import { ALL_CATEGORIES, openFromComponent } from './listing.js';

/** Listings opened from a wallpaper: "More like this", its uploader's, and a tag picked from a detail view's menu. */

/** "More like this" under a wallpaper: similar wallpapers (`like:<id>`), most similar first. */
export function moreLikeThis(ctx: ComponentContext, app: AppServices, wallpaperId: string): Promise<ComponentResult> {
  return openFromComponent(ctx, app, { categories: ALL_CATEGORIES, sorting: 'relevance' }, similarQuery(wallpaperId));
}

/** "Uploads by …" on a detail view: that uploader's wallpapers (`@name`), newest first. */
export function uploadsBy(ctx: ComponentContext, app: AppServices, username: string): Promise<ComponentResult> {
  return openFromComponent(ctx, app, { categories: ALL_CATEGORIES, sorting: 'date_added' }, `@${username}`);
}

/** A tag picked in a detail view's menu: that exact tag's wallpapers (`id:<tag id>`), newest first. */
export function listTag(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const picked = ctx.values[0] ?? '';
  if (parseTagListingText(picked) === null) return Promise.resolve(privateAnswer(messagesFor(ctx.user.locale).wallpaper.unknownPager));
  return openFromComponent(ctx, app, { categories: ALL_CATEGORIES, sorting: 'date_added', listing: 'tag' }, picked);
}
