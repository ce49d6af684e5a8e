import { CARD_LANGUAGES, type CardLanguage } from './card.js';
import { CARD_SET_KEY_PATTERN } from './card-set.js';

/**
 * What `/card`'s buttons and menus carry in their custom_ids, and how it is read back: a press
 * needs no server-side session and survives a restart. Discord caps a custom_id at 100 characters.
 */

/** Components whose custom_id starts with this belong to `/card` (the router splits on the first `:`). */
export const CARD_COMPONENT_PREFIX = 'card';
const OPEN_ACTION = 'open';
const PRINTINGS_ACTION = 'pr';
const PRICES_ACTION = 'pp';
const ART_ACTION = 'art';
/** What a picked card opens: `/card show`'s card, `/card price`'s prices or `/card art`'s artworks. */
export const CARD_VIEWS = ['show', 'price', 'art'] as const;
export type CardView = (typeof CARD_VIEWS)[number];
/** Artworks of a card a custom_id can name (the most illustrated card has 9 today). */
export const MAX_ARTWORK = 99;
/** Pages of a card's printings list that a custom_id can name (the most printed card has 72 today). */
export const MAX_PRINTINGS_PAGE = 9_999;

/**
 * `card:open`, or `card:open:<language>` when the menu was made for a translated `/card show`, so a
 * pick opens in that language whoever makes it; `card:open:price` and `card:open:art` when it was
 * made for `/card price` or `/card art`, so a pick opens that. The chosen option's value is the card's passcode.
 */
export function openMenuCustomId(language?: CardLanguage, view: CardView = 'show'): string {
  const base = `${CARD_COMPONENT_PREFIX}:${OPEN_ACTION}`;
  if (view !== 'show') return `${base}:${view}`;
  return language === undefined ? base : `${base}:${language}`;
}

/**
 * `card:pr:<passcode>` on the Printings button under a card: the first page, in a new reply only the
 * presser sees. `card:pr:<passcode>:<page>` on that reply's ◀ ▶ buttons: the page (0-based), in place.
 * Decimal numbers; at most 8 + 10 + 1 + 4 = 23 characters.
 */
export function printingsCustomId(cardId: number, page?: number): string {
  if (!Number.isSafeInteger(cardId) || cardId <= 0 || cardId > 9_999_999_999) throw new RangeError('printingsCustomId: card id out of range');
  if (page !== undefined && !(Number.isInteger(page) && page >= 0 && page <= MAX_PRINTINGS_PAGE)) throw new RangeError('printingsCustomId: page out of range');
  const base = `${CARD_COMPONENT_PREFIX}:${PRINTINGS_ACTION}:${cardId}`;
  return page === undefined ? base : `${base}:${page}`;
}

/**
 * `card:pp:<passcode>:<page>` on `/card price`'s ◀ ▶ (its printings, cheapest first), and
 * `card:art:<passcode>:<index>` on `/card art`'s: the 0-based page or artwork to show.
 */
export function pricesCustomId(cardId: number, page: number): string {
  return pagedCustomId(PRICES_ACTION, cardId, page, MAX_PRINTINGS_PAGE);
}

export function artCustomId(cardId: number, index: number): string {
  return pagedCustomId(ART_ACTION, cardId, index, MAX_ARTWORK);
}

function pagedCustomId(action: string, cardId: number, page: number, maxPage: number): string {
  if (!Number.isSafeInteger(cardId) || cardId <= 0 || cardId > 9_999_999_999) throw new RangeError(`${action} custom_id: card id out of range`);
  if (!(Number.isInteger(page) && page >= 0 && page <= maxPage)) throw new RangeError(`${action} custom_id: page out of range`);
  return `${CARD_COMPONENT_PREFIX}:${action}:${cardId}:${page}`;
}

export type CardComponentAction =
  | { action: 'open'; language?: CardLanguage; view?: Exclude<CardView, 'show'> }
  /** `page` is null for the button under a card (open the list), a number for paging it. */
  | { action: 'printings'; cardId: number; page: number | null }
  | { action: 'prices'; cardId: number; page: number }
  | { action: 'art'; cardId: number; index: number };

/** Reads a `/card` custom_id; null for anything this command never made. */
export function parseCardCustomId(customId: string): CardComponentAction | null {
  const [prefix, action, first, second, ...rest] = customId.split(':');
  if (prefix !== CARD_COMPONENT_PREFIX || rest.length > 0) return null;
  if (action === PRINTINGS_ACTION) return parsePrintingsId(first, second);
  if (action === PRICES_ACTION || action === ART_ACTION) {
    const cardId = canonicalNumber(first, 10);
    const page = canonicalNumber(second, 4);
    if (cardId === undefined || page === undefined || cardId === 0) return null;
    if (action === PRICES_ACTION) return page <= MAX_PRINTINGS_PAGE ? { action: 'prices', cardId, page } : null;
    return page <= MAX_ARTWORK ? { action: 'art', cardId, index: page } : null;
  }
  if (action !== OPEN_ACTION || second !== undefined) return null;
  if (first === undefined) return { action: 'open' };
  if (first === 'price' || first === 'art') return { action: 'open', view: first };
  return (CARD_LANGUAGES as readonly string[]).includes(first) ? { action: 'open', language: first as CardLanguage } : null;
}

/** A decimal of at most `digits` digits without sign or leading zero, so one state has exactly one custom_id. */
function canonicalNumber(text: string | undefined, digits: number): number | undefined {
  return text !== undefined && new RegExp(`^(0|[1-9]\\d{0,${digits - 1}})$`).test(text) ? Number(text) : undefined;
}

/** Canonical decimals only (no sign, no leading zero), so one state has exactly one custom_id. */
function parsePrintingsId(cardIdText: string | undefined, pageText: string | undefined): CardComponentAction | null {
  if (cardIdText === undefined || !/^[1-9]\d{0,9}$/.test(cardIdText)) return null;
  if (pageText === undefined) return { action: 'printings', cardId: Number(cardIdText), page: null };
  if (!/^(0|[1-9]\d{0,3})$/.test(pageText)) return null;
  return { action: 'printings', cardId: Number(cardIdText), page: Number(pageText) };
}

/** Pages of a set that a custom_id can name; the biggest set of the 2025-04-25 database lists 397 cards (27 pages). */
export const MAX_SET_PAGE = 9_999;
const SET_PAGE_ACTION = 'sp';
const SET_OPEN_ACTION = 'set';
/** The "Which set?" menu; each option's value is a set key. */
export const SET_CHOICE_CUSTOM_ID = `${CARD_COMPONENT_PREFIX}:${SET_OPEN_ACTION}`;

/**
 * `card:sp:<set key>:<page>` on a set's ◀ ▶ buttons: the 0-based page to show. The key (8 characters,
 * `CARD_SET_KEY_PATTERN`) stays valid across set list refreshes, since it is derived from the set's
 * name. At most 8 + 8 + 1 + 4 = 21 characters.
 */
export function setPageCustomId(key: string, page: number): string {
  if (!CARD_SET_KEY_PATTERN.test(key)) throw new RangeError('setPageCustomId: malformed set key');
  if (!Number.isInteger(page) || page < 0 || page > MAX_SET_PAGE) throw new RangeError('setPageCustomId: page out of range');
  return `${CARD_COMPONENT_PREFIX}:${SET_PAGE_ACTION}:${key}:${page}`;
}

type CardSetComponentAction = { action: 'set-page'; key: string; page: number } | { action: 'set-open' };

/** Reads a set custom_id; null for anything else (including the other `/card` components). */
export function parseCardSetCustomId(customId: string): CardSetComponentAction | null {
  if (customId === SET_CHOICE_CUSTOM_ID) return { action: 'set-open' };
  const match = /^card:sp:([A-Za-z0-9_-]{8}):(0|[1-9]\d{0,3})$/.exec(customId);
  return match ? { action: 'set-page', key: match[1]!, page: Number(match[2]) } : null;
}
