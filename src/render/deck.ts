import { ComponentType, type APIEmbed } from 'discord.js';
import type { Card } from '../cards/card.js';
import { type DeckCards, type DeckEntry, sectionSize } from '../decks/deck-cards.js';
import { DECK_SECTIONS, type DeckSection } from '../decks/deck-list.js';
import type { DeckReport } from '../decks/deck-report.js';
import type { FormatVerdict, Violation } from '../decks/legality.js';
import type { GenesysVerdict, GenesysViolation } from '../decks/genesys.js';
import { toYdk } from '../decks/ydk.js';
import { toYdke } from '../decks/ydke.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Reply } from '../interaction/reply.js';
import { money } from './card.js';
import { PRICE_SOURCE_LABELS } from './card-labels.js';
import { pricesAsOfLine } from './card-prices.js';
import { oddsButton } from './deck-odds.js';
import { smallWorldButton } from './deck-small-world.js';
import { EMBED_LIMITS, formatInteger, truncate } from './format.js';

/**
 * `/deck show`: the deck in sections as players picture it (`3× Ash Blossom & Joyous Spring`), its
 * legality per format, its price per vendor, and the deck itself as `.ydk`, `deck.txt` and ydke URL.
 * A long deck never loses a card from the embed: names shorten until every line fits, and the
 * embed then says the full list is attached.
 */
export interface DeckView {
  report: DeckReport;
  /** Card names in the player's language, by passcode, where they differ from the English ones. */
  localNames: ReadonlyMap<number, string>;
  pricesAsOf: number | null;
  messages: Catalogue;
  /** The stored Main Deck's key, for the **Opening odds** and **Small World** buttons; no buttons without one. */
  mainDeckKey?: string;
}

/** The deck's picture (a JPEG), and how many cards' art is still on its way (their tiles show names). */
export interface DeckPictureFile {
  image: Buffer;
  pendingArt: number;
}

const PICTURE_FILE = 'deck.jpg';

const VIOLATIONS_SHOWN = 3;
const SHORTEST_NAME = 12;

function nameOf(card: Card, view: DeckView): string {
  return view.localNames.get(card.id) ?? card.name;
}

function countOf(entries: readonly DeckEntry[], accept: (card: Card) => boolean): number {
  return entries.filter(({ card }) => accept(card)).reduce((sum, entry) => sum + entry.count, 0);
}

function frameIs(family: string): (card: Card) => boolean {
  return (card) => card.frameType === family || card.frameType === `${family}_pendulum`;
}

/**
 * `Main (40, of which 14 unknown: 12 monsters / …)`: the size counts every password of the section,
 * unknown ones included (a card newer than the database is still in the deck); the kinds count the known.
 */
export function sectionHeading(section: DeckSection, cards: DeckCards, t: Catalogue): string {
  const n = (value: number): string => formatInteger(value, t.intlLocale);
  const entries = cards.sections[section];
  const unknown = cards.unknownCounts[section];
  const size = n(sectionSize(cards, section));
  const total = unknown > 0 ? t.deck.withUnknown(size, n(unknown)) : size;
  if (section === 'main') {
    return t.deck.main(total, n(countOf(entries, (card) => card.kind === 'monster')), n(countOf(entries, (card) => card.kind === 'spell')), n(countOf(entries, (card) => card.kind === 'trap')));
  }
  if (section === 'extra') return t.deck.extra(total, ...(['fusion', 'synchro', 'xyz', 'link'].map((family) => n(countOf(entries, frameIs(family)))) as [string, string, string, string]));
  return t.deck.side(total);
}

function sectionsText(cards: DeckCards, view: DeckView, nameChars: number): string {
  return DECK_SECTIONS.filter((section) => sectionSize(cards, section) > 0)
    .map((section) => {
      const entries = cards.sections[section];
      const lines = entries.map(({ card, count }) => `${count}× ${truncate(nameOf(card, view), nameChars)}`);
      return [`**${sectionHeading(section, cards, view.messages)}**`, ...lines].join('\n');
    })
    .join('\n\n');
}

/** The section list with the longest names that fit, and whether any name was shortened. */
function fittedSections(view: DeckView, note: string, budget: number): { text: string; shortened: boolean } {
  const cards = view.report.cards;
  const full = sectionsText(cards, view, Number.MAX_SAFE_INTEGER);
  if (full.length <= budget) return { text: full, shortened: false };
  for (let chars = 60; chars >= SHORTEST_NAME; chars -= 4) {
    const text = `${sectionsText(cards, view, chars)}\n\n${note}`;
    if (text.length <= budget) return { text, shortened: true };
  }
  return { text: `${sectionsText(cards, view, SHORTEST_NAME)}\n\n${note}`, shortened: true };
}

function violationText(violation: Violation, format: string, t: Catalogue): string {
  const n = (value: number): string => formatInteger(value, t.intlLocale);
  switch (violation.kind) {
    case 'mainSize':
      return t.deck.mainSize(n(violation.count), n(violation.min), n(violation.max));
    case 'extraSize':
      return t.deck.extraSize(n(violation.count), n(violation.max));
    case 'sideSize':
      return t.deck.sideSize(n(violation.count), n(violation.max));
    case 'copies':
      return t.deck.copies(violation.name, n(violation.count));
    case 'limited':
      return t.deck.limited(violation.name, t.cardTerms.banStatuses[violation.status], format);
    case 'notReleased':
      return t.deck.notReleased(violation.name, format);
  }
}

function verdictText(verdict: FormatVerdict, unknownTotal: number, t: Catalogue): string {
  if (verdict.status === 'legal') return `✅ **${verdict.format}**: ${t.deck.legal}`;
  if (verdict.status === 'unknown') {
    const why = verdict.unknownBecause === 'unknownCards' ? t.deck.unknownCardsFormat(formatInteger(unknownTotal, t.intlLocale)) : t.deck.unknownFormat;
    return `❔ **${verdict.format}**: ${why}`;
  }
  const shown = verdict.violations.slice(0, VIOLATIONS_SHOWN).map((violation) => `  • ${violationText(violation, verdict.format, t)}`);
  const hidden = verdict.violations.length - shown.length;
  return [`❌ **${verdict.format}**`, ...shown, ...(hidden > 0 ? [`  • ${t.deck.moreViolations(formatInteger(hidden, t.intlLocale))}`] : [])].join('\n');
}

function genesysViolationText(violation: GenesysViolation, t: Catalogue): string {
  const n = (value: number): string => formatInteger(value, t.intlLocale);
  if (violation.kind === 'overCap') return t.genesys.overCap(n(violation.total), n(violation.cap));
  if (violation.kind === 'notAllowed') return t.genesys.notAllowed(violation.name);
  // Genesys cards are TCG releases: a card that is not one is "not released in TCG".
  return violationText(violation, 'TCG', t);
}

/** The Genesys line of the legality field: the verdict and the deck's points against the cap. */
function genesysVerdictText(verdict: GenesysVerdict, unknownTotal: number, t: Catalogue): string {
  const name = `**${t.genesys.label}**`;
  const points = t.genesys.total(formatInteger(verdict.total, t.intlLocale), formatInteger(verdict.cap, t.intlLocale));
  if (verdict.status === 'legal') return `✅ ${name}: ${t.deck.legal} · ${points}`;
  if (verdict.status === 'unknown') {
    if (verdict.unknownBecause === 'noPoints') return `❔ ${name}: ${t.genesys.noPoints}`;
    const why = verdict.unknownBecause === 'unknownCards' ? t.deck.unknownCardsFormat(formatInteger(unknownTotal, t.intlLocale)) : t.deck.unknownFormat;
    return `❔ ${name}: ${why} · ${points}`;
  }
  const shown = verdict.violations.slice(0, VIOLATIONS_SHOWN).map((violation) => `  • ${genesysViolationText(violation, t)}`);
  const hidden = verdict.violations.length - shown.length;
  return [`❌ ${name} · ${points}`, ...shown, ...(hidden > 0 ? [`  • ${t.deck.moreViolations(formatInteger(hidden, t.intlLocale))}`] : [])].join('\n');
}

/** The deck's cards that carry Genesys points, dearest first; null when none does. */
function pointedField(view: DeckView): { name: string; value: string } | null {
  const t = view.messages;
  const { pointed, total, cap } = view.report.genesys;
  if (pointed.length === 0) return null;
  const n = (value: number): string => formatInteger(value, t.intlLocale);
  const lines = pointed.map((entry) => t.genesys.pointed(n(entry.count), nameOf(entry.card, view), n(entry.points)));
  return { name: t.genesys.pointedTitle(n(total), n(cap)), value: truncate(lines.join('\n'), EMBED_LIMITS.fieldValue) };
}

function priceText(view: DeckView): string {
  const t = view.messages;
  const { vendors, dearest } = view.report.price;
  const lines = vendors.map(({ source, total, unpriced }) => {
    const label = PRICE_SOURCE_LABELS[source];
    const missing = unpriced > 0 ? ` (${t.deck.unpriced(formatInteger(unpriced, t.intlLocale))})` : '';
    return `**${label.name}** ${money(total, label.currency, t.intlLocale)}${missing}`;
  });
  if (dearest.length > 0) {
    const dollars = PRICE_SOURCE_LABELS.tcgplayer.currency;
    lines.push(t.deck.dearest(dearest.map((card) => `${nameOf(card, view)} ${money(card.prices.tcgplayer ?? 0, dollars, t.intlLocale)}`).join(', ')));
  }
  const asOf = pricesAsOfLine(view.pricesAsOf, t);
  if (asOf !== null) lines.push(asOf);
  return lines.join('\n');
}

/** One line per password the card database does not know, with how many times the deck holds it. */
function unknownCardLines(cards: DeckCards, t: Catalogue): string[] {
  return cards.unknown.map(({ password, count }) => t.deck.unknownCard(String(password), formatInteger(count, t.intlLocale)));
}

/** The full list as text, one `3× Name` line per card with its password: what the shortened embed refers to. */
function deckText(view: DeckView): string {
  const { cards } = view.report;
  const blocks = DECK_SECTIONS.map((section) => {
    const entries = cards.sections[section];
    return [sectionHeading(section, cards, view.messages), ...entries.map(({ card, count }) => `${count}× ${nameOf(card, view)} (${card.id})`)].join('\n');
  });
  const unknown = unknownCardLines(cards, view.messages);
  return `${[...blocks, ...(unknown.length > 0 ? [unknown.join('\n')] : [])].join('\n\n')}\n`;
}

export function renderDeck(view: DeckView, picture: DeckPictureFile): Reply {
  const t = view.messages;
  const { report } = view;
  const fields: NonNullable<APIEmbed['fields']> = [];
  const unknownTotal = report.cards.unknown.reduce((sum, { count }) => sum + count, 0);
  if (report.cards.unknown.length > 0) {
    fields.push({ name: t.deck.unknownCards, value: truncate(unknownCardLines(report.cards, t).join('\n'), EMBED_LIMITS.fieldValue) });
  }
  const legality = [
    ...report.verdicts.map((verdict) => verdictText(verdict, unknownTotal, t)),
    genesysVerdictText(report.genesys, unknownTotal, t),
    `-# ${t.deck.speedDuelNote}`,
  ].join('\n');
  fields.push({ name: t.deck.legality, value: truncate(legality, EMBED_LIMITS.fieldValue) });
  const pointed = pointedField(view);
  if (pointed !== null) fields.push(pointed);
  fields.push({ name: t.deck.price, value: truncate(priceText(view), EMBED_LIMITS.fieldValue) });
  // The section list gets what the fields leave of the embed's 6,000 characters (and at most a description's 4,096).
  const footer = picture.pendingArt > 0 ? t.deck.artComing(formatInteger(picture.pendingArt, t.intlLocale)) : undefined;
  const otherChars = fields.reduce((sum, field) => sum + field.name.length + field.value.length, footer?.length ?? 0);
  const sections = fittedSections(view, `*${t.deck.shortened}*`, Math.min(EMBED_LIMITS.description, EMBED_LIMITS.total - otherChars));
  const ydke = toYdke(report.deck);
  return {
    // The ydke URL is at most ~1,100 characters for the 200-card cap: it fits the message content.
    content: truncate(ydke, EMBED_LIMITS.content),
    embeds: [{ description: sections.text, fields, image: { url: `attachment://${PICTURE_FILE}` }, ...(footer === undefined ? {} : { footer: { text: footer } }) }],
    ...(view.mainDeckKey === undefined
      ? {}
      : { components: [{ type: ComponentType.ActionRow, components: [oddsButton(view.mainDeckKey, t), smallWorldButton(view.mainDeckKey, t)] }] }),
    files: [
      { name: PICTURE_FILE, data: picture.image },
      { name: 'deck.ydk', data: Buffer.from(toYdk(report.deck)) },
      { name: 'deck.txt', data: Buffer.from(deckText(view)) },
    ],
  };
}
