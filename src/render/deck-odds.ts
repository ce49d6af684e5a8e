import { ButtonStyle, ComponentType, type APIButtonComponentWithCustomId } from 'discord.js';
import { decimalOf, openingOdds, percentOf, type OddsCard } from '../decks/opening-odds.js';
import { menuPages } from '../decks/card-menu-pages.js';
import { oddsButtonCustomId, oddsMenuCustomId, type OddsMenu, type OddsPicks } from '../decks/odds-custom-ids.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { ActionRow, MessagePayload } from '../interaction/reply.js';
import { EMBED_LIMITS, formatInteger, truncate } from './format.js';
import { pagedCardMenu } from './paged-card-menu.js';

/**
 * **Opening odds**: the Main Deck's cards in two menus (starters, and cards the player also needs one
 * of), and the exact chance of opening what was marked in 5 cards going first and 6 going second,
 * with the starters expected in the hand. A deck of more than 25 distinct cards pages its menus: 24
 * cards and "More cards…".
 */
export interface OddsView {
  cards: readonly OddsCard[];
  picks: OddsPicks;
  /** Card names in the player's language, by passcode, where they differ from the English ones. */
  localNames: ReadonlyMap<number, string>;
  messages: Catalogue;
}

/** The button under a shown deck. */
export function oddsButton(key: string, t: Catalogue): APIButtonComponentWithCustomId {
  return { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: oddsButtonCustomId(key), label: t.deck.odds.button };
}

function cardLabel(entry: OddsCard, view: OddsView): string {
  const t = view.messages;
  if (entry.card === undefined) return t.deck.unknownCard(String(entry.password), formatInteger(entry.count, t.intlLocale));
  return `${view.localNames.get(entry.card.id) ?? entry.card.name} ×${formatInteger(entry.count, t.intlLocale)}`;
}

function menuRow(menu: OddsMenu, view: OddsView): ActionRow {
  const t = view.messages;
  const { picks, cards } = view;
  const page = Math.min(menu === 'starters' ? picks.startersPage : picks.neededPage, menuPages(cards.length) - 1);
  return pagedCardMenu({
    customId: oddsMenuCustomId(menu, { ...picks, ...(menu === 'starters' ? { startersPage: page } : { neededPage: page }) }),
    placeholder: menu === 'starters' ? t.deck.odds.startersMenu : t.deck.odds.neededMenu,
    labels: cards.map((entry) => cardLabel(entry, view)),
    page,
    chosen: new Set(picks[menu]),
    multiple: true,
    more: t.deck.odds.more,
    moreDescription: t.deck.odds.moreDescription,
    intlLocale: t.intlLocale,
  });
}

function percent(value: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value) / 100);
}

function decimal(value: string, locale: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value));
}

function oddsText(view: OddsView): string {
  const t = view.messages;
  const { cards, picks } = view;
  if (picks.starters.length === 0) return t.deck.odds.pick;
  const copies = cards.map((entry) => entry.count);
  const deckSize = formatInteger(copies.reduce((sum, count) => sum + count, 0), t.intlLocale);
  const group = (indices: readonly number[]) => ({
    count: formatInteger(indices.reduce((sum, index) => sum + (copies[index] ?? 0), 0), t.intlLocale),
    names: indices.map((index) => cardLabel(cards[index]!, view)).join(', '),
  });
  const starters = group(picks.starters);
  const lines = [`**${t.deck.odds.starters(starters.count, deckSize)}**: ${starters.names}`];
  if (picks.needed.length > 0) {
    const needed = group(picks.needed);
    lines.push(`**${t.deck.odds.needed(needed.count, deckSize)}**: ${needed.names}`);
  }
  const [first, second] = openingOdds(copies, picks.starters, picks.needed);
  const line = (odds: NonNullable<typeof first>, say: (chance: string, expected: string) => string) =>
    say(percent(percentOf(odds.chance), t.intlLocale), decimal(decimalOf(odds.expectedStarters, 2), t.intlLocale));
  lines.push('', line(first!, t.deck.odds.first), line(second!, t.deck.odds.second));
  return lines.join('\n');
}

/** The odds message: what was marked and its chances, and the two menus (each paged past 25 cards). */
export function renderOdds(view: OddsView): MessagePayload {
  return {
    embeds: [{ title: view.messages.deck.odds.title, description: truncate(oddsText(view), EMBED_LIMITS.description) }],
    components: [menuRow('starters', view), menuRow('needed', view)],
  };
}
