import { parseWallhavenUsername } from './collections.js';
import { PAGER_PREFIX } from './pager-state.js';
import { WALLPAPER_ID_PATTERN } from './wallhaven-site.js';

/**
 * The custom_ids of `/wallpaper`'s components besides the pager's ◀ ▶ (pager-state.ts): every one
 * under the command's prefix `wp:`, told apart by the letter after it, and far below Discord's 100
 * characters. The pager's own ids start with `b` or `f`.
 *
 * - `wp:l<wallpaper id>`  the "More like this" button under a wallpaper.
 * - `wp:t<wallpaper id>`  the menu of a wallpaper's tags on its detail view (each option's value is a tag id).
 * - `wp:k…`, `wp:o…`      a user's list of collections: its ◀ ▶ and its menu (below).
 * - `wp:u<username>`      the "Uploads by …" button on a detail view.
 * - `wp:a<card id>.<artwork index>`  "Wallpapers in these colours" under `/card art` (both decimal).
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

/**
 * The list's components: `wp:k<p|n><page>.<username>` pages the list ◀ ▶ from `page` (base 36);
 * `wp:o<username>` is the menu opening one collection (each option's value is a collection id).
 */
const LIST_PAGE = `${PAGER_PREFIX}:k`;
const OPEN = `${PAGER_PREFIX}:o`;

export function collectionListPageId(username: string, page: number, direction: 'prev' | 'next'): string {
  return `${LIST_PAGE}${direction === 'prev' ? 'p' : 'n'}${page.toString(36)}.${username}`;
}

/** The page a list button asks for, and whose list it is; null for any other id. */
export function parseCollectionListPageId(id: string): { username: string; page: number } | null {
  const match = /^wp:k([pn])(0|[1-9a-z][0-9a-z]{0,2})\.(.+)$/s.exec(id);
  if (!match) return null;
  const parsed = parseWallhavenUsername(match[3]!);
  if (!parsed.ok || parsed.username !== match[3]) return null;
  const from = parseInt(match[2]!, 36);
  return { username: parsed.username, page: match[1] === 'p' ? Math.max(0, from - 1) : from + 1 };
}

export function collectionMenuId(username: string): string {
  return `${OPEN}${username}`;
}

export function parseCollectionMenuId(id: string): string | null {
  if (!id.startsWith(OPEN)) return null;
  const parsed = parseWallhavenUsername(id.slice(OPEN.length));
  return parsed.ok && parsed.username === id.slice(OPEN.length) ? parsed.username : null;
}

const UPLOADS = `${PAGER_PREFIX}:u`;

/** The "Uploads by …" button's id, or null for a name that could not be read back from it. */
export function uploadsById(username: string): string | null {
  const parsed = parseWallhavenUsername(username);
  return parsed.ok && parsed.username === username ? `${UPLOADS}${username}` : null;
}

/** The uploader an "Uploads by …" button lists, or null for any other id. */
export function parseUploadsById(id: string): string | null {
  return id.startsWith(UPLOADS) ? uploadsById(id.slice(UPLOADS.length))?.slice(UPLOADS.length) ?? null : null;
}

const CARD_COLOURS = `${PAGER_PREFIX}:a`;

/** The "Wallpapers in these colours" button under a card's artwork `index` (0-based). */
export function cardColoursId(cardId: number, index: number): string {
  return `${CARD_COLOURS}${cardId}.${index}`;
}

/** The card and artwork a colours button is for, or null for any other id. */
export function parseCardColoursId(id: string): { cardId: number; index: number } | null {
  const match = /^wp:a([1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,2})$/.exec(id);
  return match ? { cardId: Number(match[1]), index: Number(match[2]) } : null;
}
