import { PAGER_PREFIX } from './pager-state.js';
import { WALLPAPER_ID_PATTERN } from './wallhaven-site.js';

/**
 * The custom_ids of `/wallpaper`'s components besides the pager's ◀ ▶ (pager-state.ts): every one
 * under the command's prefix `wp:`, told apart by the letter after it, and far below Discord's 100
 * characters. The pager's own ids start with `b` or `f`.
 *
 * - `wp:l<wallpaper id>`  the "More like this" button under a wallpaper.
 * - `wp:t<wallpaper id>`  the menu of a wallpaper's tags on its detail view (each option's value is a tag id).
 */

const MORE_LIKE = `${PAGER_PREFIX}:l`;
const TAG_MENU = `${PAGER_PREFIX}:t`;

export function moreLikeId(wallpaperId: string): string {
  return `${MORE_LIKE}${wallpaperId}`;
}

export function tagMenuId(wallpaperId: string): string {
  return `${TAG_MENU}${wallpaperId}`;
}

function wallpaperIdAfter(prefix: string, id: string): string | null {
  if (!id.startsWith(prefix)) return null;
  const wallpaperId = id.slice(prefix.length);
  return WALLPAPER_ID_PATTERN.test(wallpaperId) ? wallpaperId : null;
}

/** The wallpaper a "More like this" button is for, or null for any other id. */
export function parseMoreLikeId(id: string): string | null {
  return wallpaperIdAfter(MORE_LIKE, id);
}

/** Whether `id` is a tag menu's (the wallpaper it names is not needed: each option carries its tag). */
export function isTagMenuId(id: string): boolean {
  return wallpaperIdAfter(TAG_MENU, id) !== null;
}
