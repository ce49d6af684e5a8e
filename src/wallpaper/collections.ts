/**
 * A Wallhaven user's public collections (`/collections/<user>`), as Almanac lists them: names
 * checked before they reach a URL, and a collection pager's text.
 */

export interface WallpaperCollection {
  id: number;
  label: string;
  views: number;
  /** How many wallpapers it holds, of every purity (its listing returns only the purities asked for). */
  count: number;
}

/** Wallhaven's usernames are short; this bound keeps every custom_id that carries one under 100 characters. */
export const MAX_USERNAME_LENGTH = 64;

type ParsedUsername = { ok: true; username: string } | { ok: false };

/**
 * A username as typed (an optional leading `@`): 1–64 characters without spaces, slashes, `?`, `#`,
 * `%`, `\`, `:` or control characters, so that it is one path segment however it is encoded. What
 * is left after the `@` may not start with another: read again where the name is checked before its
 * URL (or from a custom_id), it would lose that one too and be another name.
 */
export function parseWallhavenUsername(input: string | null): ParsedUsername {
  const username = (input ?? '').trim().replace(/^@/, '');
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (username === '' || username.length > MAX_USERNAME_LENGTH || /^@|[\s/?#%\\:\u0000-\u001f\u007f]/.test(username) || username === '.' || username === '..') {
    return { ok: false };
  }
  return { ok: true, username };
}

/** Collections shown per page of the list: a select menu's 25 options. */
export const COLLECTIONS_PER_PAGE = 25;

/** The collection a pager lists: `<collection id>:<username>` is its text in the pager's query field. */
export interface CollectionRef {
  id: number;
  username: string;
}

export function collectionListingText(collection: CollectionRef): string {
  return `${collection.id}:${collection.username}`;
}

export function parseCollectionListingText(text: string): CollectionRef | null {
  const match = /^([1-9][0-9]{0,9}):(.+)$/s.exec(text);
  if (!match) return null;
  const parsed = parseWallhavenUsername(match[2]!);
  return parsed.ok && parsed.username === match[2] ? { id: Number(match[1]), username: parsed.username } : null;
}
