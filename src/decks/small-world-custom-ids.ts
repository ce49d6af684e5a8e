import { DECK_KEY_PATTERN, MAX_MENU_CARDS, MAX_PAGE, menuPages, MORE_VALUE, pageCards, pageOf } from './card-menu-pages.js';

/**
 * What the **Small World** button and menus carry in their custom_ids, and how it is read back. The
 * Main Deck is kept in the fleet's short-lived text store, as for Opening odds (odds-custom-ids.ts),
 * under the same key; the choices travel in the custom_id.
 *
 *     deck:sw:<key>                                            the button under a shown deck
 *     deck:<menu>:<key>:<handPage>:<targetPage>:<hand>:<target>
 *
 * `menu` is `sh` (the card in hand) or `st` (the target in the Deck); pages are 0-based decimal
 * digits; `hand` and `target` index the Main Deck's distinct monsters Small World can use (in deck
 * order), in decimal, `-` for none yet. At most 47 characters.
 */

const PREFIX = 'deck';
const OPEN_ACTION = 'sw';
const MENU_ACTIONS = { hand: 'sh', target: 'st' } as const;
export type SmallWorldMenu = keyof typeof MENU_ACTIONS;
const NONE = '-';

export interface SmallWorldChoices {
  key: string;
  handPage: number;
  targetPage: number;
  /** Indices of the monsters chosen, null until one is. */
  hand: number | null;
  target: number | null;
}

export type SmallWorldAction = { action: 'open'; key: string } | ({ action: 'pick'; menu: SmallWorldMenu } & SmallWorldChoices);

export function smallWorldButtonCustomId(key: string): string {
  if (!DECK_KEY_PATTERN.test(key)) throw new RangeError('smallWorldButtonCustomId: bad key');
  return `${PREFIX}:${OPEN_ACTION}:${key}`;
}

function choiceText(choice: number | null): string {
  if (choice === null) return NONE;
  if (!(Number.isInteger(choice) && choice >= 0 && choice < MAX_MENU_CARDS)) throw new RangeError('Small World custom_id: monster index out of range');
  return String(choice);
}

function choiceOf(text: string | undefined): number | null | undefined {
  if (text === NONE) return null;
  if (text === undefined || !/^(0|[1-9]\d?)$/.test(text)) return undefined;
  const choice = Number(text);
  return choice < MAX_MENU_CARDS ? choice : undefined;
}

export function smallWorldMenuCustomId(menu: SmallWorldMenu, choices: SmallWorldChoices): string {
  if (!DECK_KEY_PATTERN.test(choices.key)) throw new RangeError('smallWorldMenuCustomId: bad key');
  for (const page of [choices.handPage, choices.targetPage]) if (!(Number.isInteger(page) && page >= 0 && page <= MAX_PAGE)) throw new RangeError('smallWorldMenuCustomId: page out of range');
  return [PREFIX, MENU_ACTIONS[menu], choices.key, choices.handPage, choices.targetPage, choiceText(choices.hand), choiceText(choices.target)].join(':');
}

/** Reads a Small World custom_id; null for anything these components never made. */
export function parseSmallWorldCustomId(customId: string): SmallWorldAction | null {
  const parts = customId.split(':');
  if (parts[0] !== PREFIX) return null;
  if (parts[1] === OPEN_ACTION) return parts.length === 3 && DECK_KEY_PATTERN.test(parts[2]!) ? { action: 'open', key: parts[2]! } : null;
  const menu = (Object.keys(MENU_ACTIONS) as SmallWorldMenu[]).find((name) => MENU_ACTIONS[name] === parts[1]);
  if (menu === undefined || parts.length !== 7 || !DECK_KEY_PATTERN.test(parts[2]!)) return null;
  const handPage = pageOf(parts[3]);
  const targetPage = pageOf(parts[4]);
  const hand = choiceOf(parts[5]);
  const target = choiceOf(parts[6]);
  if (handPage === null || targetPage === null || hand === undefined || target === undefined) return null;
  return { action: 'pick', menu, key: parts[2]!, handPage, targetPage, hand, target };
}

/**
 * A menu's submitted value applied to the choices: a monster of the page shown becomes that menu's
 * choice, "more" turns to the next page (round to the first). A value that is not a monster of that
 * page is ignored, and a choice past `monsters` (a stale custom_id) is dropped.
 */
export function applySmallWorldChoice(action: { menu: SmallWorldMenu } & SmallWorldChoices, values: readonly string[], monsters: number): SmallWorldChoices {
  const pageKey = action.menu === 'hand' ? 'handPage' : 'targetPage';
  const page = Math.min(action[pageKey], menuPages(monsters) - 1);
  const shown = new Set(pageCards(monsters, page));
  const chosen = values.filter((value) => /^\d{1,2}$/.test(value)).map(Number).find((index) => shown.has(index));
  const within = (choice: number | null) => (choice !== null && choice < monsters ? choice : null);
  const nextPage = values.includes(MORE_VALUE) ? (page + 1) % menuPages(monsters) : page;
  return {
    key: action.key,
    handPage: action.handPage,
    targetPage: action.targetPage,
    hand: within(action.hand),
    target: within(action.target),
    ...(chosen === undefined ? {} : { [action.menu]: chosen }),
    [pageKey]: nextPage,
  };
}
