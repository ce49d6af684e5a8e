import { ComponentType, type APISelectMenuOption } from 'discord.js';
import { MENU_OPTIONS, menuPages, MORE_VALUE, pageCards } from '../decks/card-menu-pages.js';
import type { ActionRow } from '../interaction/reply.js';
import { formatInteger, truncate } from './format.js';

/** Discord's cap on a select option's label. */
const OPTION_LABEL_CHARS = 100;

/** One page of a Main Deck's cards as a select menu (src/decks/card-menu-pages.ts). */
export interface PagedCardMenu {
  /** The menu's custom_id, for the page shown. */
  customId: string;
  placeholder: string;
  /** Every card's label, in deck order; the option's value is its index. */
  labels: readonly string[];
  /** The page shown (already within the menu's pages). */
  page: number;
  /** The cards shown as chosen. */
  chosen: ReadonlySet<number>;
  /** Several cards at once (Opening odds' marks), or one (Small World's pick). */
  multiple: boolean;
  /** The "more" option's label and its description (`Cards 25–48 of 60`). */
  more: string;
  moreDescription: (from: string, to: string, total: string) => string;
  intlLocale: string;
}

export function pagedCardMenu(menu: PagedCardMenu): ActionRow {
  const total = menu.labels.length;
  const options: APISelectMenuOption[] = pageCards(total, menu.page).map((index) => ({
    label: truncate(menu.labels[index]!, OPTION_LABEL_CHARS),
    value: String(index),
    ...(menu.chosen.has(index) ? { default: true } : {}),
  }));
  if (total > MENU_OPTIONS) {
    const next = pageCards(total, (menu.page + 1) % menuPages(total));
    const n = (value: number) => formatInteger(value, menu.intlLocale);
    options.push({ label: menu.more, value: MORE_VALUE, description: menu.moreDescription(n(next[0]! + 1), n(next.at(-1)! + 1), n(total)) });
  }
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: menu.customId,
        placeholder: menu.placeholder,
        min_values: menu.multiple ? 0 : 1,
        max_values: menu.multiple ? options.length : 1,
        options,
      },
    ],
  };
}
