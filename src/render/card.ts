import {
  ButtonStyle,
  ComponentType,
  type APIEmbed,
  type APIEmbedField,
  type APISelectMenuOption,
  type APIStringSelectComponent,
} from 'discord.js';
import {
  CARD_LANGUAGES,
  type BanlistFormat,
  type Card,
  type CardLanguage,
  type LinkMarker,
  type LocalizedCard,
  type PriceSource,
  type StatValue,
} from '../cards/card.js';
import type { CardSummary } from '../cards/card-summary.js';
import type { ActionRow, Attachment, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import { localizedAttribute, localizedTypeLine } from './card-terms.js';
import { EMBED_LIMITS, embedCharacterCount, formatInteger, truncate } from './format.js';
import { bilingualCardName } from './card-name.js';
import { fitInert, fitText, inertText, quoteUserText } from './user-text.js';

/**
 * Card renderers: pure functions from `Card`s to Discord payloads (the card embed with its attached
 * art, the "Did you mean" menu, the search list). Every text from upstream is escaped and every
 * length is kept within Discord's limits here.
 */

/** Discord's limits on select menus and their options. */
export const SELECT_LIMITS = { options: 25, label: 100, value: 100, description: 100, placeholder: 150, customId: 100 } as const;

/** Components whose custom_id starts with this belong to `/card` (the router splits on the first `:`). */
export const CARD_COMPONENT_PREFIX = 'card';
const OPEN_ACTION = 'open';
const PRINTINGS_ACTION = 'pr';
/** Pages of a card's printings list that a custom_id can name (the most printed card has 72 today). */
export const MAX_PRINTINGS_PAGE = 9_999;

/** YGOPRODeck's frame types, grouped into the colours of the physical card frames. */
const FRAME_COLOURS = {
  normal: 0xfde68a,
  effect: 0xff8b53,
  ritual: 0x9db5cc,
  fusion: 0xa086b7,
  synchro: 0xf2f2f2,
  // Colour 0 means "no colour" to Discord, so the black Xyz frame is a very dark grey.
  xyz: 0x1f1f1f,
  link: 0x00449e,
  pendulum: 0x40b5a0,
  spell: 0x1d9e74,
  trap: 0xbc5a84,
  token: 0xa0a0a0,
  skill: 0x2f73b7,
} as const;
export type FrameColour = keyof typeof FRAME_COLOURS;
const UNKNOWN_FRAME_COLOUR = 0x99aab5;

/** The colour family of a frame type: every `*_pendulum` frame is a Pendulum frame. */
export function frameColourOf(frameType: string): FrameColour | null {
  if (frameType.endsWith('_pendulum')) return 'pendulum';
  return frameType in FRAME_COLOURS ? (frameType as FrameColour) : null;
}

export function frameColour(frameType: string): number {
  const family = frameColourOf(frameType);
  return family === null ? UNKNOWN_FRAME_COLOUR : FRAME_COLOURS[family];
}

export const LANGUAGE_NAMES: Readonly<Record<CardLanguage, string>> = {
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  pt: 'Português',
};

const BANLIST_LABELS: Readonly<Record<BanlistFormat, string>> = { tcg: 'TCG', ocg: 'OCG', goat: 'GOAT' };

/** Price sources and their currencies: Cardmarket prices are euros, the American shops' dollars. */
const PRICE_SOURCE_LABELS: Readonly<Record<PriceSource, { name: string; currency: 'USD' | 'EUR' }>> = {
  tcgplayer: { name: 'TCGplayer', currency: 'USD' },
  cardmarket: { name: 'Cardmarket', currency: 'EUR' },
  ebay: { name: 'eBay', currency: 'USD' },
  amazon: { name: 'Amazon', currency: 'USD' },
  coolstuffinc: { name: 'CoolStuffInc', currency: 'USD' },
};

/** Arrows in reading order (top row, middle row, bottom row), whatever order upstream lists them in. */
const LINK_ARROWS: readonly (readonly [LinkMarker, string])[] = [
  ['Top-Left', '↖'],
  ['Top', '↑'],
  ['Top-Right', '↗'],
  ['Left', '←'],
  ['Right', '→'],
  ['Bottom-Left', '↙'],
  ['Bottom', '↓'],
  ['Bottom-Right', '↘'],
];

// --- The card embed --------------------------------------------------------------------------------

/** Attachment name of a card's art: `card-<id>.jpg` (or `.png`, the other format the image store keeps). */
export function cardImageName(cardId: number, format: 'jpg' | 'png' = 'jpg'): string {
  return `card-${cardId}.${format}`;
}

export interface CardImage {
  format: 'jpg' | 'png';
  data: Buffer;
}

export interface CardView {
  card: Card | LocalizedCard;
  /** The card art from the local image store; absent when it could not be had (the card shows without it). */
  image?: CardImage | null;
  /** Set when a translation was asked for and could not be had: the card is shown in English. */
  translationUnavailable?: CardLanguage;
  /** Almanac's own words (labels, notes); English when absent. */
  messages?: Catalogue;
  /** Discord does not let Almanac attach files where this answer goes: no art, and a note saying so. */
  artNotAttachable?: boolean;
}

function isLocalized(card: Card | LocalizedCard): card is LocalizedCard {
  return 'language' in card && (CARD_LANGUAGES as readonly string[]).includes((card as LocalizedCard).language);
}

function statText(value: StatValue): string {
  return value === '?' ? '?' : String(value);
}

/**
 * `DARK · Level 7 · ATK 2500 / DEF 2100`, `Link 3 ↙ ↓ ↘ · ATK 2300`, `Scale 4`: only what applies,
 * in the card game's terms for `messages`' language. Stats stay as printed (no digit grouping).
 */
export function statLine(card: Card, messages: Catalogue = en): string {
  const labels = messages.card;
  const parts: string[] = [];
  if (card.attribute !== undefined) parts.push(localizedAttribute(card.attribute, messages.cardTerms));
  if (card.level !== undefined) parts.push(`${labels.level} ${card.level}`);
  if (card.rank !== undefined) parts.push(`${labels.rank} ${card.rank}`);
  if (card.linkRating !== undefined) {
    const arrows = LINK_ARROWS.filter(([marker]) => card.linkMarkers?.includes(marker)).map(([, arrow]) => arrow);
    parts.push([`${labels.link} ${card.linkRating}`, ...arrows].join(' '));
  }
  if (card.scale !== undefined) parts.push(`${labels.scale} ${card.scale}`);
  if (card.atk !== undefined) {
    // Link monsters have no DEF at all, which is not the same as an unknown ("?") DEF.
    const atk = `${labels.atk} ${statText(card.atk)}`;
    parts.push(card.def === undefined ? atk : `${atk} / ${labels.def} ${statText(card.def)}`);
  }
  return parts.join(' · ');
}

/** `TCG Limited · OCG Forbidden`, or null when the card is unrestricted everywhere. */
export function banlistLine(card: Card, messages: Catalogue = en): string | null {
  const entries = (Object.keys(BANLIST_LABELS) as BanlistFormat[])
    .filter((format) => card.banlist[format] !== undefined)
    .map((format) => `${BANLIST_LABELS[format]} ${messages.cardTerms.banStatuses[card.banlist[format]!]}`);
  return entries.length > 0 ? entries.join(' · ') : null;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `$1.55` in English, `1,55 $US` in French: the amount in the conventions of `intlLocale`. */
function money(amount: number, currency: 'USD' | 'EUR', intlLocale: string): string {
  const key = `${intlLocale} ${currency}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(intlLocale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}


/**
 * The cheapest dollar price and where, plus Cardmarket's euro price (a different currency is not
 * "cheaper" or "dearer"), or null when no source knows a price.
 */
export function priceLine(card: Card, messages: Catalogue = en): string | null {
  const { intlLocale, card: labels } = messages;
  let cheapest: { source: PriceSource; price: number } | undefined;
  for (const [source, label] of Object.entries(PRICE_SOURCE_LABELS) as [PriceSource, (typeof PRICE_SOURCE_LABELS)[PriceSource]][]) {
    const price = card.prices[source];
    if (label.currency === 'USD' && price !== undefined && (cheapest === undefined || price < cheapest.price)) cheapest = { source, price };
  }
  const parts: string[] = [];
  if (cheapest !== undefined) parts.push(labels.priceAt(money(cheapest.price, 'USD', intlLocale), PRICE_SOURCE_LABELS[cheapest.source].name));
  if (card.prices.cardmarket !== undefined) parts.push(labels.priceAt(money(card.prices.cardmarket, 'EUR', intlLocale), 'Cardmarket'));
  return parts.length > 0 ? parts.join(' · ') : null;
}

function printingsLine(card: Card, messages: Catalogue): string {
  const printings = card.sets.length;
  return printings === 0 ? messages.card.noneListed : messages.card.printingCount(formatInteger(printings, messages.intlLocale), printings === 1);
}

/** The text boxes of a card, each with a heading when the card has two (Pendulum monsters). */
function textSections(card: Card, labels: Catalogue['card']): { heading: string | null; text: string }[] {
  const { pendulumEffect, monsterEffect, text } = card.description;
  if (pendulumEffect === undefined && monsterEffect === undefined) return [{ heading: null, text }];
  const sections: { heading: string | null; text: string }[] = [];
  if (pendulumEffect !== undefined) sections.push({ heading: labels.pendulumEffect, text: pendulumEffect });
  if (monsterEffect !== undefined) {
    // A Normal Pendulum monster's lower box is flavour text, not an effect.
    sections.push({ heading: card.frameType === 'normal_pendulum' ? labels.flavourText : labels.monsterEffect, text: monsterEffect });
  }
  return sections;
}

/**
 * The card text within `budget` characters. When it does not fit, the longest box is shortened
 * first and a link to the full text on YGOPRODeck closes the description.
 */
function cardTextWithin(card: Card, budget: number, labels: Catalogue['card']): string {
  const sections = textSections(card, labels).map((section) => ({
    heading: section.heading === null ? '' : `**${section.heading}**\n`,
    text: inertText(section.text),
  }));
  const join = () => sections.map((section) => section.heading + section.text).join('\n\n');
  if (join().length <= budget) return join();
  const more = card.ygoprodeckUrl === undefined ? '' : `\n[${labels.fullText}](${card.ygoprodeckUrl})`;
  const available = Math.max(0, budget - more.length);
  let excess = join().length - available;
  while (excess > 0) {
    const longest = sections.reduce((best, section) => (section.text.length > best.text.length ? section : best));
    const target = Math.max(1, longest.text.length - excess);
    const shortened = fitInert(longest.text, target);
    if (shortened.length >= longest.text.length) break;
    excess -= longest.text.length - shortened.length;
    longest.text = shortened;
  }
  return truncate(join(), available) + more;
}

function footerOf(card: Card | LocalizedCard, translationUnavailable: CardLanguage | undefined, labels: Catalogue['card']): string {
  const parts: string[] = [];
  if (isLocalized(card)) {
    parts.push(LANGUAGE_NAMES[card.language]);
    if (card.englishName !== card.name) parts.push(labels.englishName(card.englishName));
  } else if (translationUnavailable !== undefined) {
    parts.push(labels.translationUnavailable(LANGUAGE_NAMES[translationUnavailable]));
  }
  parts.push(`${labels.passcode} ${String(card.id).padStart(8, '0')}`);
  return truncate(parts.join(' · '), EMBED_LIMITS.footer);
}

/** The card's embed; `imageName` is the attachment that carries its art, when there is one. */
export function renderCardEmbed(
  card: Card | LocalizedCard,
  options: { imageName?: string; translationUnavailable?: CardLanguage; messages?: Catalogue } = {},
): APIEmbed {
  const messages = options.messages ?? en;
  const labels = messages.card;
  const fields: APIEmbedField[] = [];
  if (card.archetype !== undefined) fields.push({ name: labels.archetype, value: fitText(card.archetype, 200), inline: true });
  const banlist = banlistLine(card, messages);
  if (banlist !== null) fields.push({ name: labels.banList, value: banlist, inline: true });
  const price = priceLine(card, messages);
  if (price !== null) fields.push({ name: labels.price, value: price, inline: true });
  fields.push({ name: labels.printings, value: printingsLine(card, messages), inline: true });

  const typeLine = localizedTypeLine(card.typeLine, messages.cardTerms);
  const header = [`**${fitText(typeLine, 200)}**`, statLine(card, messages)].filter((line) => line !== '').join('\n');
  const embed: APIEmbed = {
    title: fitText(card.name, EMBED_LIMITS.title),
    color: frameColour(card.frameType),
    fields,
    footer: { text: footerOf(card, options.translationUnavailable, labels) },
  };
  if (card.ygoprodeckUrl !== undefined) embed.url = card.ygoprodeckUrl;
  if (options.imageName !== undefined) embed.image = { url: `attachment://${options.imageName}` };
  const used = embedCharacterCount({ ...embed, description: header });
  const budget = Math.min(EMBED_LIMITS.description, EMBED_LIMITS.total - used) - header.length - 2;
  const text = cardTextWithin(card, budget, labels);
  embed.description = text === '' ? header : `${header}\n\n${text}`;
  return embed;
}

/**
 * The "Printings" button under a card: it opens the card's printings (set, number, rarity, price) in
 * a reply only the presser sees. Absent for a card never printed.
 */
function printingsRow(card: Card, labels: Catalogue['card']): ActionRow[] {
  if (card.sets.length === 0) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: printingsCustomId(card.id), label: labels.printings }],
    },
  ];
}

/**
 * `/card show`'s answer: the embed, the Printings button and, when the image store had it, the art
 * as an attachment. Where Discord does not let Almanac attach files (`artNotAttachable`), the card
 * comes without art and a note says why: art is never linked from YGOPRODeck instead.
 */
export function renderCard(view: CardView): Reply {
  const messages = view.messages ?? en;
  const image = view.artNotAttachable === true ? null : (view.image ?? null);
  const imageName = image === null ? undefined : cardImageName(view.card.id, image.format);
  const embed = renderCardEmbed(view.card, {
    messages,
    ...(imageName === undefined ? {} : { imageName }),
    ...(view.translationUnavailable === undefined ? {} : { translationUnavailable: view.translationUnavailable }),
  });
  const files: Attachment[] =
    image === null || imageName === undefined
      ? []
      : [{ name: imageName, data: image.data, description: truncate(messages.card.artDescription(view.card.name), 1024) }];
  const components = printingsRow(view.card, messages.card);
  return {
    ...(view.artNotAttachable === true ? { content: messages.install.artNotAttachable } : {}),
    embeds: [embed],
    ...(components.length > 0 ? { components } : {}),
    ...(files.length > 0 ? { files } : {}),
  };
}

// --- Menus -----------------------------------------------------------------------------------------

/**
 * `card:open`, or `card:open:<language>` when the menu was made for a translated `/card show`, so a
 * pick opens in that language whoever makes it. The chosen option's value is the card's passcode.
 */
export function openMenuCustomId(language?: CardLanguage): string {
  return language === undefined ? `${CARD_COMPONENT_PREFIX}:${OPEN_ACTION}` : `${CARD_COMPONENT_PREFIX}:${OPEN_ACTION}:${language}`;
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

export type CardComponentAction =
  | { action: 'open'; language?: CardLanguage }
  /** `page` is null for the button under a card (open the list), a number for paging it. */
  | { action: 'printings'; cardId: number; page: number | null };

/** Reads a `/card` custom_id; null for anything this command never made. */
export function parseCardCustomId(customId: string): CardComponentAction | null {
  const [prefix, action, first, second, ...rest] = customId.split(':');
  if (prefix !== CARD_COMPONENT_PREFIX || rest.length > 0) return null;
  if (action === PRINTINGS_ACTION) return parsePrintingsId(first, second);
  if (action !== OPEN_ACTION || second !== undefined) return null;
  if (first === undefined) return { action: 'open' };
  return (CARD_LANGUAGES as readonly string[]).includes(first) ? { action: 'open', language: first as CardLanguage } : null;
}

/** Canonical decimals only (no sign, no leading zero), so one state has exactly one custom_id. */
function parsePrintingsId(cardIdText: string | undefined, pageText: string | undefined): CardComponentAction | null {
  if (cardIdText === undefined || !/^[1-9]\d{0,9}$/.test(cardIdText)) return null;
  if (pageText === undefined) return { action: 'printings', cardId: Number(cardIdText), page: null };
  if (!/^(0|[1-9]\d{0,3})$/.test(pageText)) return null;
  return { action: 'printings', cardId: Number(cardIdText), page: Number(pageText) };
}

function cardOption(card: CardSummary, localName: string | undefined, messages: Catalogue): APISelectMenuOption {
  return {
    label: bilingualCardName(card.name, localName, SELECT_LIMITS.label),
    value: String(card.id),
    description: truncate(localizedTypeLine(card.typeLine, messages.cardTerms), SELECT_LIMITS.description),
  };
}

/**
 * A select menu of cards, each labelled in the user's language too when `localNames` has its name
 * (by passcode); the same card never appears twice (Discord rejects duplicate values).
 */
function openMenu(
  cards: readonly CardSummary[],
  placeholder: string,
  language: CardLanguage | undefined,
  localNames: ReadonlyMap<number, string> | undefined,
  messages: Catalogue,
): ActionRow {
  const seen = new Set<number>();
  const options: APISelectMenuOption[] = [];
  for (const card of cards) {
    if (seen.has(card.id) || options.length >= SELECT_LIMITS.options) continue;
    seen.add(card.id);
    options.push(cardOption(card, localNames?.get(card.id), messages));
  }
  const menu: APIStringSelectComponent = {
    type: ComponentType.StringSelect,
    custom_id: openMenuCustomId(language),
    placeholder: truncate(placeholder, SELECT_LIMITS.placeholder),
    min_values: 1,
    max_values: 1,
    options,
  };
  return { type: ComponentType.ActionRow, components: [menu] };
}

/** The sentence for a name that matches no card at all. */
export function noMatchMessage(query: string, messages: Catalogue = en): string {
  return messages.card.noMatch(quoteUserText(query));
}

/**
 * The ephemeral "Did you mean…" menu for a name that matches several cards about equally well; the
 * cards in `localNames` (passcode → name in the user's language) show that name beside the English one.
 */
export function renderDidYouMean(
  query: string,
  candidates: readonly CardSummary[],
  language?: CardLanguage,
  localNames?: ReadonlyMap<number, string>,
  messages: Catalogue = en,
): Reply {
  if (candidates.length === 0) return { content: noMatchMessage(query, messages), ephemeral: true };
  return {
    content: messages.card.noExactName(quoteUserText(query)),
    components: [openMenu(candidates, messages.card.pickCard, language, localNames, messages)],
    ephemeral: true,
  };
}

export interface SearchView {
  query: string;
  /** Human-readable filters in use, e.g. `["Spell", "LIGHT", "Archetype: Sky Striker"]`. */
  filters: string[];
  /** The best matches, best first (at most 25 are shown). */
  cards: readonly Card[];
  /** How many cards matched in all, when more than are shown. */
  total: number;
  language?: CardLanguage;
  /** Names in the user's language by passcode, shown beside the English ones. */
  localNames?: ReadonlyMap<number, string>;
  messages?: Catalogue;
}

/** One line of the search list: `**Name** · Type line · stats`, the name in the user's language too when known. */
function searchLine(card: Card, index: number, localName: string | undefined, messages: Catalogue): string {
  const stats = statLine(card, messages);
  const typeLine = localizedTypeLine(card.typeLine, messages.cardTerms);
  return truncate(`${index + 1}. **${fitText(bilingualCardName(card.name, localName, 100), 100)}** · ${fitText(typeLine, 80)}${stats === '' ? '' : ` · ${stats}`}`, 150);
}

/** `/card search`'s answer: a numbered list and a menu that opens any of the cards. */
export function renderSearchResults(view: SearchView): Reply {
  const messages = view.messages ?? en;
  const labels = messages.card;
  const shown = view.cards.slice(0, SELECT_LIMITS.options);
  const filters = view.filters.length > 0 ? ` (${view.filters.join(', ')})` : '';
  const shownCount = formatInteger(shown.length, messages.intlLocale);
  const summary =
    view.total > shown.length ? labels.bestOf(shownCount, formatInteger(view.total, messages.intlLocale)) : labels.matchCount(shownCount, shown.length === 1);
  const embed: APIEmbed = {
    title: truncate(labels.searchTitle(quoteUserText(view.query)), EMBED_LIMITS.title),
    description: truncate(shown.map((card, index) => searchLine(card, index, view.localNames?.get(card.id), messages)).join('\n'), EMBED_LIMITS.description),
    color: FRAME_COLOURS.spell,
    footer: { text: truncate(`${summary}${filters}`, EMBED_LIMITS.footer) },
  };
  return { embeds: [embed], components: [openMenu(shown, labels.openOne, view.language, view.localNames, messages)], ephemeral: true };
}
