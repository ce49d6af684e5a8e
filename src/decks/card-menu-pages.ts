/**
 * The Main Deck's cards in a select menu, paged: Discord shows up to 25 options, so a deck of more
 * distinct cards gets 24 a page and a "more" option that turns to the next (round to the first).
 * **Opening odds** and **Small World** page their menus this way.
 */

/** A menu shows up to 25 options: 24 cards and "more" when there are more than 25. */
export const MENU_OPTIONS = 25;
export const MORE_VALUE = 'more';
/** Distinct Main Deck cards a menu's custom_id can carry: the rules' 60-card maximum, all different. */
export const MAX_MENU_CARDS = 60;
/** The last page of a menu of MAX_MENU_CARDS cards. */
export const MAX_PAGE = Math.ceil(MAX_MENU_CARDS / (MENU_OPTIONS - 1)) - 1;
/** The key of a Main Deck kept in the fleet's short-lived text store (`SharedState.longQueries`). */
export const DECK_KEY_PATTERN = /^[A-Za-z0-9_-]{10}$/;

/** How many pages a menu of `cards` distinct cards has: one up to 25, else 24 a page. */
export function menuPages(cards: number): number {
  return cards <= MENU_OPTIONS ? 1 : Math.ceil(cards / (MENU_OPTIONS - 1));
}

/** The card indices a menu page shows. */
export function pageCards(cards: number, page: number): number[] {
  if (cards <= MENU_OPTIONS) return Array.from({ length: cards }, (_, index) => index);
  const size = MENU_OPTIONS - 1;
  const first = page * size;
  return Array.from({ length: Math.max(0, Math.min(size, cards - first)) }, (_, offset) => first + offset);
}

/** A page number as a custom_id carries it (one decimal digit, at most MAX_PAGE); null otherwise. */
export function pageOf(text: string | undefined): number | null {
  if (text === undefined || !/^\d$/.test(text)) return null;
  const page = Number(text);
  return page <= MAX_PAGE ? page : null;
}
