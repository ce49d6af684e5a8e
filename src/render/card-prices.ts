import type { APIEmbed } from 'discord.js';
import type { Card, CardPrinting, PriceSource } from '../cards/card.js';
import { MAX_PRINTINGS_PAGE, pricesCustomId } from '../cards/custom-ids.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { Reply } from '../interaction/reply.js';
import { money } from './card.js';
import { frameColour, PRICE_SOURCE_LABELS } from './card-labels.js';
import { pageWindow, pagerRow, PRINTINGS_PAGE_SIZE, printingLine } from './card-set.js';
import { EMBED_LIMITS, fitEmbedsToLimit, formatInteger, truncate } from './format.js';
import { fitText } from './user-text.js';

/**
 * `/card price`: what the card costs at each vendor, in the vendor's currency, and every printing
 * with its price, cheapest first, a page at a time. From the local database alone: the prices are
 * those of the day it was downloaded, and the answer says which day.
 */

export interface PricesView {
  card: Card;
  /** Every printing, cheapest first; the page is cut from it. */
  printings: readonly CardPrinting[];
  /** 0-based; the nearest page that exists is shown. */
  page: number;
  /** When the card database (and so its prices) was downloaded, ms since the epoch; null when unknown. */
  pricesAsOf: number | null;
  messages?: Catalogue;
}

/** `**TCGplayer** $0.27`, one line per vendor, "no price" where YGOPRODeck has none (it sends "0.00"). */
export function vendorPriceLines(card: Card, messages: Catalogue = en): string {
  return (Object.entries(PRICE_SOURCE_LABELS) as [PriceSource, (typeof PRICE_SOURCE_LABELS)[PriceSource]][])
    .map(([source, label]) => {
      const price = card.prices[source];
      return `**${label.name}** ${price === undefined ? messages.card.noPrice : money(price, label.currency, messages.intlLocale)}`;
    })
    .join('\n');
}

/** "Prices as of <date>" for the day YGOPRODeck's prices were read (a UTC day); null when they never were. */
export function pricesAsOfLine(pricesAsOf: number | null, messages: Catalogue): string | null {
  return pricesAsOf === null ? null : messages.card.pricesAsOf(new Intl.DateTimeFormat(messages.intlLocale, { dateStyle: 'long', timeZone: 'UTC' }).format(pricesAsOf));
}

export function renderPrices(view: PricesView): Reply {
  const { card, printings } = view;
  const messages = view.messages ?? en;
  const labels = messages.card;
  const dollars = new Intl.NumberFormat(messages.intlLocale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const { page, pages } = pageWindow(printings.length, PRINTINGS_PAGE_SIZE, MAX_PRINTINGS_PAGE, view.page);
  const shown = printings.slice(page * PRINTINGS_PAGE_SIZE, (page + 1) * PRINTINGS_PAGE_SIZE);
  const first = page * PRINTINGS_PAGE_SIZE + 1;
  const asOf = pricesAsOfLine(view.pricesAsOf, messages);
  const footer = [
    shown.length === 0 ? null : labels.pricesFooter(page + 1, pages, first, first + shown.length - 1, formatInteger(printings.length, messages.intlLocale)),
    asOf,
  ].filter((part) => part !== null);
  const embed: APIEmbed = {
    title: truncate(labels.pricesOf(fitText(card.name, EMBED_LIMITS.title)), EMBED_LIMITS.title),
    color: frameColour(card.frameType),
    // A page of 15 printing lines (at most about 260 characters each) fits a description, not a field.
    description: shown.length === 0 ? labels.noneListed : shown.map((printing) => printingLine(printing, dollars)).join('\n'),
    fields: [{ name: labels.vendorPrices, value: vendorPriceLines(card, messages), inline: false }],
    ...(footer.length === 0 ? {} : { footer: { text: truncate(footer.join(' · '), EMBED_LIMITS.footer) } }),
  };
  return {
    embeds: fitEmbedsToLimit([embed]),
    ...(pages > 1 ? { components: [pagerRow(page, pages, (target) => pricesCustomId(card.id, target))] } : {}),
  };
}
