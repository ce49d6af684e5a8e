import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed, type APIEmbedField } from 'discord.js';
import {
  CARD_LANGUAGES,
  GAME_FORMATS,
  type Card,
  type CardArt,
  type CardLanguage,
  type LocalizedCard,
  type PriceSource,
  type StatValue,
} from '../cards/card.js';
import { konamiDatabaseUrl, ocgRulingsUrl, yugipediaUrl } from '../cards/card-links.js';
import { printingsCustomId } from '../cards/custom-ids.js';
import type { ActionRow, Attachment, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import { BANLIST_LABELS, frameColour, LANGUAGE_NAMES, LINK_ARROWS, PRICE_SOURCE_LABELS } from './card-labels.js';
import { localizedAttribute, localizedTypeLine } from './card-terms.js';
import { EMBED_LIMITS, embedCharacterCount, formatInteger, truncate } from './format.js';
import { fitInert, fitText, inertText } from './user-text.js';

/**
 * The card embed: a pure function from a `Card` to a Discord payload with its attached art. Every
 * text from upstream is escaped and every length is kept within Discord's limits here.
 */

/** Attachment name of a card's art: `card-<id>.jpg` (or `.png`, the other format the image store keeps). */
export function cardImageName(cardId: number, format: 'jpg' | 'png' = 'jpg'): string {
  return `card-${cardId}.${format}`;
}

interface CardView {
  card: Card | LocalizedCard;
  /** The card art from the local image store; absent when it could not be had (the card shows without it). */
  image?: CardArt | null;
  /** Set when a translation was asked for and could not be had: the card is shown in English. */
  translationUnavailable?: CardLanguage;
  /** Almanac's own words (labels, notes); English when absent. */
  messages?: Catalogue;
  /** Discord does not let Almanac attach files where this answer goes: no art, and a note saying so. */
  artNotAttachable?: boolean;
  /** The card's Genesys points when it is in the pool (0 included); absent for a card outside it. */
  genesysPoints?: number;
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

/** `TCG Limited · OCG Forbidden` (the paper formats), or null when the card is unrestricted in all of them. */
export function banlistLine(card: Card, messages: Catalogue = en): string | null {
  const entries = PAPER_BANLISTS.filter((format) => card.banlist[format] !== undefined).map(
    (format) => `${BANLIST_LABELS[format]} ${messages.cardTerms.banStatuses[card.banlist[format]!]}`,
  );
  return entries.length > 0 ? entries.join(' · ') : null;
}

const PAPER_BANLISTS = ['tcg', 'ocg', 'goat'] as const;

/**
 * `Limited · Ultra Rare`: the card's Master Duel status and rarity, as far as they are known; null
 * for a card that is not in Master Duel (or of which nothing about it is known).
 */
export function masterDuelLine(card: Card, messages: Catalogue = en): string | null {
  const status = card.banlist.masterduel;
  const inGame = status !== undefined || card.mdRarity !== undefined || card.formats.includes('Master Duel');
  if (!inGame) return null;
  return [status === undefined ? messages.card.unlimited : messages.cardTerms.banStatuses[status], card.mdRarity]
    .filter((part) => part !== undefined)
    .map((part) => fitText(part, 60))
    .join(' · ');
}

/** `TCG · OCG · Master Duel · Common Charity`: the formats the card is legal in (the ones offered as filters first), or null when none is known. */
export function formatsLine(card: Card): string | null {
  if (card.formats.length === 0) return null;
  const known = GAME_FORMATS.filter((format) => card.formats.includes(format));
  const others = card.formats.filter((format) => !(GAME_FORMATS as readonly string[]).includes(format));
  return fitText([...known, ...others].join(' · '), 300);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `$1.55` in English, `1,55 $US` in French: the amount in the conventions of `intlLocale`. */
export function money(amount: number, currency: 'USD' | 'EUR', intlLocale: string): string {
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

/**
 * The card's embed; `imageName` is the attachment that carries its art, when there is one.
 * `maxChars`: the most characters it may count towards Discord's total (a message of several cards
 * shares the 6,000); the card text is shortened to fit.
 */
export function renderCardEmbed(
  card: Card | LocalizedCard,
  options: { imageName?: string; translationUnavailable?: CardLanguage; messages?: Catalogue; maxChars?: number; genesysPoints?: number } = {},
): APIEmbed {
  const messages = options.messages ?? en;
  const labels = messages.card;
  const fields: APIEmbedField[] = [];
  if (card.archetype !== undefined) fields.push({ name: labels.archetype, value: fitText(card.archetype, 200), inline: true });
  const banlist = banlistLine(card, messages);
  if (banlist !== null) fields.push({ name: labels.banList, value: banlist, inline: true });
  const masterDuel = masterDuelLine(card, messages);
  if (masterDuel !== null) fields.push({ name: labels.masterDuel, value: masterDuel, inline: true });
  if (options.genesysPoints !== undefined) {
    fields.push({ name: messages.genesys.label, value: messages.genesys.cardPoints(formatInteger(options.genesysPoints, messages.intlLocale)), inline: true });
  }
  const price = priceLine(card, messages);
  if (price !== null) fields.push({ name: labels.price, value: price, inline: true });
  fields.push({ name: labels.printings, value: printingsLine(card, messages), inline: true });
  const formats = formatsLine(card);
  if (formats !== null) fields.push({ name: labels.formats, value: formats, inline: false });

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
  const budget = Math.min(EMBED_LIMITS.description, (options.maxChars ?? EMBED_LIMITS.total) - used) - header.length - 2;
  const text = cardTextWithin(card, budget, labels);
  embed.description = text === '' ? header : `${header}\n\n${text}`;
  return embed;
}

/** Card art as an attachment (never a link to YGOPRODeck), described by the card's name for screen readers. */
export function artAttachment(imageId: number, image: CardArt, cardName: string, messages: Catalogue): Attachment {
  return { name: cardImageName(imageId, image.format), data: image.data, description: truncate(messages.card.artDescription(cardName), 1024) };
}

/** The card's embed showing `image` as its art, and the attachment that carries it (none without art). */
export function cardEmbedWithArt(
  card: Card | LocalizedCard,
  image: CardArt | null,
  options: { translationUnavailable?: CardLanguage; messages: Catalogue; maxChars?: number; genesysPoints?: number },
): { embed: APIEmbed; files: Attachment[] } {
  const file = image === null ? null : artAttachment(card.id, image, card.name, options.messages);
  const embed = renderCardEmbed(card, { ...options, ...(file === null ? {} : { imageName: file.name }) });
  return { embed, files: file === null ? [] : [file] };
}

/**
 * The buttons under a card: "Printings" (its printings, in a reply only the presser sees; absent for
 * a card never printed), then links to its pages on YGOPRODeck, Yugipedia and, when its Konami id is
 * known, Konami's database in the reader's language and its OCG rulings (in Japanese): five at most,
 * one action row.
 */
function cardButtons(card: Card | LocalizedCard, messages: Catalogue): ActionRow[] {
  const labels = messages.card;
  const buttons: APIButtonComponent[] = [];
  if (card.sets.length > 0) {
    buttons.push({ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: printingsCustomId(card.id), label: labels.printings });
  }
  const link = (label: string, url: string): APIButtonComponent => ({ type: ComponentType.Button, style: ButtonStyle.Link, label, url });
  if (card.ygoprodeckUrl !== undefined) buttons.push(link('YGOPRODeck', card.ygoprodeckUrl));
  buttons.push(link('Yugipedia', yugipediaUrl(isLocalized(card) ? card.englishName : card.name)));
  if (card.konamiId !== undefined) {
    buttons.push(link(labels.konamiDatabase, konamiDatabaseUrl(card.konamiId, messages.intlLocale)));
    buttons.push(link(labels.ocgRulings, ocgRulingsUrl(card.konamiId)));
  }
  return [{ type: ComponentType.ActionRow, components: buttons }];
}

/**
 * `/card show`'s answer: the embed, the Printings button and, when the image store had it, the art
 * as an attachment. Where Discord does not let Almanac attach files (`artNotAttachable`), the card
 * comes without art and a note says why: art is never linked from YGOPRODeck instead.
 */
export function renderCard(view: CardView): Reply {
  const messages = view.messages ?? en;
  const image = view.artNotAttachable === true ? null : (view.image ?? null);
  const { embed, files } = cardEmbedWithArt(view.card, image, {
    messages,
    translationUnavailable: view.translationUnavailable,
    ...(view.genesysPoints === undefined ? {} : { genesysPoints: view.genesysPoints }),
  });
  return {
    ...(view.artNotAttachable === true ? { content: messages.install.artNotAttachable } : {}),
    embeds: [embed],
    components: cardButtons(view.card, messages),
    ...(files.length > 0 ? { files } : {}),
  };
}
