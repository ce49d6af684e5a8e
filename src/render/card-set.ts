import { ButtonStyle, ComponentType, type APIButtonComponentWithCustomId, type APIEmbed, type APISelectMenuOption } from 'discord.js';
import type { Card } from '../cards/card.js';
import type { CardSet } from '../cards/card-set.js';
import type { ActionRow, Attachment, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { PrintingView, SetListing } from '../cards/printings.js';
import { MAX_PRINTINGS_PAGE, MAX_SET_PAGE, openMenuCustomId, printingsCustomId, SET_CHOICE_CUSTOM_ID, setPageCustomId } from '../cards/custom-ids.js';
import { SELECT_LIMITS } from './format.js';
import { frameColour } from './card-labels.js';
import { fitText, quoteUserText } from './user-text.js';
import { EMBED_LIMITS, discordTimestamp, fitEmbedsToLimit, formatInteger, truncate } from './format.js';

/**
 * Card set renderers: `/card set` (the set, a page of its cards, a menu that opens any of them,
 * ◀ ▶ paging), the "Which set?" menu, and a card's printings list. Pure functions; upstream text is
 * escaped and every Discord limit is kept here.
 */

/** Cards per page of a set, and printings per page of a card: 15 lines read well and fit any limit. */
export const SET_PAGE_SIZE = 15;
export const PRINTINGS_PAGE_SIZE = 15;
const SET_COLOUR = 0xb8860b;
/** A set's other numbers shown after its first, before "+N more". */
const MAX_EXTRA_NUMBERS = 3;

// --- Paging ------------------------------------------------------------------------------------------

/**
 * The pages of `total` lines (at least one; no more than a custom_id can name) and the page to show:
 * `requested`, or the nearest that exists, since a set or a card may have shrunk since its buttons
 * were made.
 */
export function pageWindow(total: number, pageSize: number, maxPage: number, requested: number): { page: number; pages: number } {
  const pages = Math.min(Math.max(1, Math.ceil(total / pageSize)), maxPage + 1);
  return { page: Math.min(Math.max(0, Math.floor(requested)), pages - 1), pages };
}

/** ◀ ▶ that go one page back and forward. Disabled at either end, where each names the page on show, so the two ids always differ. */
export function pagerRow(page: number, pages: number, customId: (page: number) => string): ActionRow {
  const button = (label: string, target: number, disabled: boolean): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: customId(target),
    label,
    disabled,
  });
  return {
    type: ComponentType.ActionRow,
    components: [button('◀', Math.max(0, page - 1), page === 0), button('▶', Math.min(pages - 1, page + 1), page >= pages - 1)],
  };
}

// --- Text pieces -------------------------------------------------------------------------------------

/** A set number or code in a code span; a backtick in upstream text would end the span early. */
function codeSpan(text: string): string {
  return `\`${truncate(text.replace(/`/g, 'ˋ'), 20)}\``;
}

/**
 * A `YYYY-MM-DD` release date as a Discord date, rendered in each viewer's locale. Noon UTC is the
 * same calendar day in every time zone from UTC−11 to UTC+11; midnight would show the day before
 * to everyone in the Americas.
 */
export function releaseDate(isoDate: string): string {
  return discordTimestamp(Date.parse(`${isoDate}T12:00:00Z`), 'D');
}

function plural(count: number, noun: string): string {
  return `${formatInteger(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * `` `LOB-001` **Blue-Eyes White Dragon** · Ultra Rare · also `LOB-E001`, `LOB-EN001` ``. At most
 * 22 + 1 + 84 + 3 + 60 + 8 + 3 × 22 + 4 + 11 = 259 characters, so a page of 15 lines fits the
 * 4,096 of a description whatever upstream sends (real lines are about 60).
 */
function listingLine(listing: SetListing): string {
  const [first = '', ...others] = listing.numbers;
  const parts = [`${first === '' ? '' : `${codeSpan(first)} `}**${fitText(listing.card.name, 80)}**`];
  if (listing.rarities.length > 0) parts.push(fitText(listing.rarities.join(', '), 60));
  if (others.length > 0) {
    const shown = others.slice(0, MAX_EXTRA_NUMBERS).map(codeSpan).join(', ');
    parts.push(`also ${shown}${others.length > MAX_EXTRA_NUMBERS ? ` +${others.length - MAX_EXTRA_NUMBERS} more` : ''}`);
  }
  return parts.join(' · ');
}

function listingOption(listing: SetListing): APISelectMenuOption {
  return {
    label: truncate(listing.card.name, SELECT_LIMITS.label),
    value: String(listing.card.id),
    description: truncate([listing.numbers[0], listing.rarities.join(', ')].filter((part) => part).join(' · ') || listing.card.typeLine, SELECT_LIMITS.description),
  };
}

/** Attachment name of a set's image: `set-<name>.jpg` (the name is limited to `[A-Za-z0-9_-]`). */
export function setImageName(imageStem: string, format: 'jpg' | 'png' = 'jpg'): string {
  return `set-${imageStem}.${format}`;
}

// --- /card set ---------------------------------------------------------------------------------------

export interface CardSetView {
  set: CardSet;
  /** Every card of the set in the local card database, in set-number order; the page is cut from it. */
  listings: readonly SetListing[];
  /** 0-based; the nearest page that exists is shown. */
  page: number;
  /** The set's image from the local store; absent or null when it has none or it could not be had. */
  image?: { format: 'jpg' | 'png'; data: Buffer } | null;
  /** How many other sets use the same code. */
  sharedCodeWith: number;
}

/** `/card set`'s answer: the set, one page of its cards with a menu that opens them, and ◀ ▶ when there are more. */
export function renderCardSet(view: CardSetView): Reply {
  const { set, listings } = view;
  const { page, pages } = pageWindow(listings.length, SET_PAGE_SIZE, MAX_SET_PAGE, view.page);
  const shown = listings.slice(page * SET_PAGE_SIZE, (page + 1) * SET_PAGE_SIZE);
  const shared = view.sharedCodeWith > 0 ? ` (also used by ${plural(view.sharedCodeWith, 'other set')})` : '';
  const embed: APIEmbed = {
    title: fitText(set.name, EMBED_LIMITS.title),
    color: SET_COLOUR,
    fields: [
      { name: 'Set code', value: `${codeSpan(set.code)}${shared}`, inline: true },
      { name: 'TCG release', value: set.tcgDate === undefined ? 'No TCG release date listed' : releaseDate(set.tcgDate), inline: true },
      { name: 'Cards', value: set.cardCount === undefined ? 'Not listed' : formatInteger(set.cardCount), inline: true },
    ],
    description: shown.length === 0 ? 'No card of this set is in the card database yet.' : shown.map(listingLine).join('\n'),
  };
  if (listings.length > 0) {
    const first = page * SET_PAGE_SIZE + 1;
    embed.footer = { text: `Page ${page + 1} / ${pages} · cards ${first}–${first + shown.length - 1} of ${formatInteger(listings.length)} in the card database` };
  }
  const image = view.image ?? null;
  const files: Attachment[] = [];
  if (image !== null && set.imageStem !== undefined) {
    const name = setImageName(set.imageStem, image.format);
    embed.thumbnail = { url: `attachment://${name}` };
    files.push({ name, data: image.data, description: truncate(`Image of the card set ${set.name}`, 1024) });
  }
  const components: ActionRow[] = [];
  if (shown.length > 0) {
    components.push({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: openMenuCustomId(),
          placeholder: 'Open one of these cards',
          min_values: 1,
          max_values: 1,
          // One entry per card, so the values are unique as Discord requires.
          options: shown.map(listingOption),
        },
      ],
    });
  }
  if (pages > 1) components.push(pagerRow(page, pages, (target) => setPageCustomId(set.key, target)));
  return {
    embeds: fitEmbedsToLimit([embed]),
    ...(components.length > 0 ? { components } : {}),
    ...(files.length > 0 ? { files } : {}),
  };
}

/** The sentence for set input that matches no set at all. */
export function noSetMatchMessage(query: string): string {
  return `No card set matches ${quoteUserText(query)}. Pick one from the suggestions, or give a set code such as \`LOB\`.`;
}

function setOption(set: CardSet): APISelectMenuOption {
  const facts = [set.code, set.tcgDate ?? 'no TCG release date', set.cardCount === undefined ? undefined : plural(set.cardCount, 'card')];
  return {
    label: truncate(set.name, SELECT_LIMITS.label),
    value: set.key,
    description: truncate(facts.filter((fact) => fact !== undefined).join(' · '), SELECT_LIMITS.description),
  };
}

/** The ephemeral "Which set?" menu: for a code several sets share, or a name several sets match about equally. */
export function renderSetChoices(query: string, candidates: readonly CardSet[], sharedCode?: string): Reply {
  if (candidates.length === 0) return { content: noSetMatchMessage(query), ephemeral: true };
  const seen = new Set<string>();
  const options = candidates.filter((set) => !seen.has(set.key) && seen.add(set.key)).slice(0, SELECT_LIMITS.options).map(setOption);
  return {
    content:
      sharedCode === undefined
        ? `No card set is named exactly ${quoteUserText(query)}. Did you mean one of these?`
        : `${plural(candidates.length, 'card set')} use the code ${codeSpan(sharedCode)}. Which one?`,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [{ type: ComponentType.StringSelect, custom_id: SET_CHOICE_CUSTOM_ID, placeholder: 'Pick a card set to show it', min_values: 1, max_values: 1, options }],
      },
    ],
    ephemeral: true,
  };
}

// --- Printings ---------------------------------------------------------------------------------------

/** `` `LOB-001` **Legend of Blue Eyes White Dragon** (2002) · Ultra Rare (UR) · $95.11 ``: at most about 220 characters. */
export function printingLine(printing: PrintingView, money: Intl.NumberFormat): string {
  const year = printing.tcgDate === undefined ? '' : ` (${printing.tcgDate.slice(0, 4)})`;
  const parts = [`${printing.setCode === '' ? '' : `${codeSpan(printing.setCode)} `}**${fitText(printing.setName, 100)}**${year}`];
  const rarity = [printing.rarity, printing.rarityCode === '' ? '' : `(${printing.rarityCode})`].filter((part) => part !== '').join(' ');
  if (rarity !== '') parts.push(fitText(rarity, 60));
  if (printing.price !== undefined) parts.push(money.format(printing.price));
  return parts.join(' · ');
}

interface PrintingsView {
  card: Card;
  /** Every printing, in the order to list them; the page is cut from it. */
  printings: readonly PrintingView[];
  /** 0-based; the nearest page that exists is shown. */
  page: number;
  messages?: Catalogue;
}

/** A card's printings (set, number, rarity, price), one page at a time with ◀ ▶; only the presser sees it. */
export function renderPrintings(view: PrintingsView): Reply {
  const { card, printings } = view;
  const messages = view.messages ?? en;
  const labels = messages.card;
  if (printings.length === 0) return { content: labels.noPrintings(fitText(card.name, 100)), ephemeral: true };
  const money = new Intl.NumberFormat(messages.intlLocale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const { page, pages } = pageWindow(printings.length, PRINTINGS_PAGE_SIZE, MAX_PRINTINGS_PAGE, view.page);
  const shown = printings.slice(page * PRINTINGS_PAGE_SIZE, (page + 1) * PRINTINGS_PAGE_SIZE);
  const first = page * PRINTINGS_PAGE_SIZE + 1;
  const embed: APIEmbed = {
    title: truncate(labels.printingsOf(fitText(card.name, EMBED_LIMITS.title)), EMBED_LIMITS.title),
    color: frameColour(card.frameType),
    description: shown.map((printing) => printingLine(printing, money)).join('\n'),
    footer: {
      text: labels.printingsFooter(page + 1, pages, first, first + shown.length - 1, formatInteger(printings.length, messages.intlLocale)),
    },
  };
  return {
    embeds: fitEmbedsToLimit([embed]),
    ...(pages > 1 ? { components: [pagerRow(page, pages, (target) => printingsCustomId(card.id, target))] } : {}),
    ephemeral: true,
  };
}
