import { DECK_KEY_PATTERN as KEY_PATTERN, MAX_MENU_CARDS, MAX_PAGE, menuPages, MORE_VALUE, pageCards, pageOf } from './card-menu-pages.js';

/**
 * What the **Opening odds** button and menus carry in their custom_ids, and how it is read back.
 * The deck itself is too long for a custom_id (100 characters): its Main Deck is kept in the fleet's
 * short-lived text store (`SharedState.longQueries`, forgotten 30 minutes after its last use) under a
 * 10-character key; the picks travel in the custom_id, so a press needs no other session.
 *
 *     deck:odds:<key>                                   the button under a shown deck
 *     deck:<menu>:<key>:<startersPage>:<neededPage>:<starters>:<needed>
 *
 * `menu` is `os` (the starters menu) or `on` (the "needs one of these too" menu); pages are 0-based
 * decimal digits; `starters` and `needed` are bit sets over the Main Deck's distinct cards (in deck
 * order), in base 36, `0` for none. At most 60 distinct cards: 12 base-36 digits each, 46 characters in all.
 */

export const DECK_COMPONENT_PREFIX = 'deck';
const ODDS_ACTION = 'odds';
const MENU_ACTIONS = { starters: 'os', needed: 'on' } as const;
export type OddsMenu = keyof typeof MENU_ACTIONS;
/** Distinct Main Deck cards a custom_id can mark. */
export const MAX_ODDS_CARDS = MAX_MENU_CARDS;
const MASK_PATTERN = /^(0|[1-9a-z][0-9a-z]{0,11})$/;

export interface OddsPicks {
  key: string;
  startersPage: number;
  neededPage: number;
  /** Indices of the distinct Main Deck cards marked, ascending. */
  starters: number[];
  needed: number[];
}

export type OddsAction = { action: 'open'; key: string } | ({ action: 'pick'; menu: OddsMenu } & OddsPicks);

export function oddsButtonCustomId(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new RangeError('oddsButtonCustomId: bad key');
  return `${DECK_COMPONENT_PREFIX}:${ODDS_ACTION}:${key}`;
}

export function oddsMenuCustomId(menu: OddsMenu, picks: OddsPicks): string {
  if (!KEY_PATTERN.test(picks.key)) throw new RangeError('oddsMenuCustomId: bad key');
  for (const page of [picks.startersPage, picks.neededPage]) if (!(Number.isInteger(page) && page >= 0 && page <= MAX_PAGE)) throw new RangeError('oddsMenuCustomId: page out of range');
  return [DECK_COMPONENT_PREFIX, MENU_ACTIONS[menu], picks.key, picks.startersPage, picks.neededPage, maskOf(picks.starters), maskOf(picks.needed)].join(':');
}

function maskOf(indices: readonly number[]): string {
  let mask = 0n;
  for (const index of indices) {
    if (!(Number.isInteger(index) && index >= 0 && index < MAX_ODDS_CARDS)) throw new RangeError('odds custom_id: card index out of range');
    mask |= 1n << BigInt(index);
  }
  return mask.toString(36);
}

function indicesOf(mask: string): number[] | null {
  if (!MASK_PATTERN.test(mask)) return null;
  let value = 0n;
  for (const digit of mask) value = value * 36n + BigInt(Number.parseInt(digit, 36));
  if (value >> BigInt(MAX_ODDS_CARDS) !== 0n) return null;
  const indices: number[] = [];
  for (let index = 0; index < MAX_ODDS_CARDS; index += 1) if ((value >> BigInt(index)) & 1n) indices.push(index);
  return indices;
}

/** Reads an odds custom_id; null for anything these components never made. */
export function parseOddsCustomId(customId: string): OddsAction | null {
  const parts = customId.split(':');
  if (parts[0] !== DECK_COMPONENT_PREFIX) return null;
  if (parts[1] === ODDS_ACTION) return parts.length === 3 && KEY_PATTERN.test(parts[2]!) ? { action: 'open', key: parts[2]! } : null;
  const menu = (Object.keys(MENU_ACTIONS) as OddsMenu[]).find((name) => MENU_ACTIONS[name] === parts[1]);
  if (menu === undefined || parts.length !== 7 || !KEY_PATTERN.test(parts[2]!)) return null;
  const startersPage = pageOf(parts[3]);
  const neededPage = pageOf(parts[4]);
  const starters = indicesOf(parts[5]!);
  const needed = indicesOf(parts[6]!);
  if (startersPage === null || neededPage === null || starters === null || needed === null) return null;
  return { action: 'pick', menu, key: parts[2]!, startersPage, neededPage, starters, needed };
}

/**
 * A menu's submitted values applied to the picks: the page's cards are replaced by those chosen
 * (picks on other pages stay), and "more" turns to the next page (round to the first). Values that
 * are not cards of that page are ignored: a stale or forged pick never marks a card not shown.
 */
export function applyPick(action: { menu: OddsMenu } & OddsPicks, values: readonly string[], cards: number): OddsPicks {
  const pageKey = action.menu === 'starters' ? 'startersPage' : 'neededPage';
  const page = Math.min(action[pageKey], menuPages(cards) - 1);
  const shown = new Set(pageCards(cards, page));
  const chosen = values.filter((value) => /^\d{1,2}$/.test(value)).map(Number).filter((index) => shown.has(index));
  const kept = action[action.menu].filter((index) => !shown.has(index) && index < cards);
  const marked = [...new Set([...kept, ...chosen])].sort((a, b) => a - b);
  const nextPage = values.includes(MORE_VALUE) ? (page + 1) % menuPages(cards) : page;
  return { key: action.key, startersPage: action.startersPage, neededPage: action.neededPage, starters: action.starters, needed: action.needed, [action.menu]: marked, [pageKey]: nextPage };
}

/** The Main Deck kept in the text store: its passwords in deck order, comma-separated. */
export function mainDeckText(main: readonly number[]): string {
  return main.join(',');
}

/** The stored Main Deck read back; null when the text is not one this module wrote. */
export function parseMainDeckText(text: string): number[] | null {
  if (text === '') return [];
  const parts = text.split(',');
  if (parts.length > 200 || !parts.every((part) => /^(0|[1-9]\d{0,9})$/.test(part))) return null;
  const passwords = parts.map(Number);
  return passwords.every((password) => password <= 0xffff_ffff) ? passwords : null;
}
