/**
 * The kinds of listing a pager pages through, beyond a search (whose text is Wallhaven's `q`): a
 * tag's wallpapers, a user's collection. Each carries its own text in the pager's query field, read
 * back here (a collection's in collections.ts).
 */

/** A pager's listing, in a fixed order: it travels in a custom_id as its index here (append only). */
export const LISTINGS = ['search', 'tag', 'collection'] as const;
export type Listing = (typeof LISTINGS)[number];

/** A tag as its listing needs it: the id Wallhaven searches by, the category its title names. */
export interface TagRef {
  id: number;
  /** Wallhaven's category of the tag (e.g. "Landscapes"), as the wallpaper's detail gave it. */
  category?: string;
}

/** Tag ids are positive integers; this bounds them to what a custom_id carries comfortably. */
const TAG_TEXT = /^([1-9][0-9]{0,9})(?::(.+))?$/s;

/** `<id>` or `<id>:<category>`: a tag listing's text, and the value of its option in a tag menu. */
export function tagListingText(tag: TagRef): string {
  return tag.category ? `${tag.id}:${tag.category}` : String(tag.id);
}

export function parseTagListingText(text: string): TagRef | null {
  const match = TAG_TEXT.exec(text);
  if (!match) return null;
  return match[2] === undefined ? { id: Number(match[1]) } : { id: Number(match[1]), category: match[2] };
}

/** Wallhaven's `q` for a listing's text: the text itself for a search, `id:<tag id>` for a tag. */
export function wallhavenQueryOf(listing: Listing | undefined, text: string | undefined): string | undefined {
  // A collection's listing takes no query at all.
  if (listing === 'collection') return undefined;
  if (listing !== 'tag' || text === undefined) return text;
  const tag = parseTagListingText(text);
  return tag === null ? undefined : `id:${tag.id}`;
}
