import { ComponentType, type APIEmbed, type APISelectMenuOption, type APIStringSelectComponent } from 'discord.js';
import type { Card, CardLanguage } from '../cards/card.js';
import type { CardSummary } from '../cards/card-summary.js';
import { openMenuCustomId, type CardView } from '../cards/custom-ids.js';
import type { CardSearchFilters } from '../cards/search-filters.js';
import { CARD_TYPE_FILTERS, FORMAT_FILTERS } from '../cards/search-filters.js';
import type { UnknownFilter } from '../cards/search-options.js';
import type { ActionRow, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import { statLine } from './card.js';
import { FRAME_COLOURS } from './card-labels.js';
import { bilingualCardName } from './card-name.js';
import { localizedAttribute, localizedTypeLine } from './card-terms.js';
import { EMBED_LIMITS, formatInteger, SELECT_LIMITS, truncate } from './format.js';
import { fitText, quoteUserText } from './user-text.js';

/** The menus that open a card: "Did you mean…" for a name that matches several, and `/card search`'s list. */

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
  view: CardView = 'show',
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
    custom_id: openMenuCustomId(language, view),
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
  /** What a pick opens: the card, its prices or its artworks. */
  view: CardView = 'show',
): Reply {
  if (candidates.length === 0) return { content: noMatchMessage(query, messages), ephemeral: true };
  return {
    content: messages.card.noExactName(quoteUserText(query)),
    components: [openMenu(candidates, messages.card.pickCard, language, localNames, messages, view)],
    ephemeral: true,
  };
}

interface SearchView {
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
    title: truncate(view.query.trim() === '' ? labels.filteredTitle : labels.searchTitle(quoteUserText(view.query)), EMBED_LIMITS.title),
    description: truncate(shown.map((card, index) => searchLine(card, index, view.localNames?.get(card.id), messages)).join('\n'), EMBED_LIMITS.description),
    color: FRAME_COLOURS.spell,
    footer: { text: truncate(`${summary}${filters}`, EMBED_LIMITS.footer) },
  };
  return { embeds: [embed], components: [openMenu(shown, labels.openOne, view.language, view.localNames, messages)], ephemeral: true };
}

/** The filters of a search as its list's footer names them, e.g. `Spell, LIGHT, Archetype: Sky Striker`. */
export function filterLabels(filters: CardSearchFilters, messages: Catalogue = en): string[] {
  const labels: string[] = [];
  if (filters.type !== undefined) labels.push(CARD_TYPE_FILTERS[filters.type]);
  if (filters.attribute !== undefined) labels.push(localizedAttribute(filters.attribute, messages.cardTerms));
  if (filters.archetype !== undefined) labels.push(messages.card.archetypeFilter(filters.archetype));
  if (filters.level !== undefined) labels.push(messages.card.levelFilter(filters.level));
  if (filters.format !== undefined) labels.push(FORMAT_FILTERS[filters.format]);
  return labels;
}

/** The refusal of a type, attribute, level or format that is no filter. */
export function unknownFilterSentence(unknown: UnknownFilter, messages: Catalogue = en): string {
  const value = quoteUserText(unknown.value);
  switch (unknown.option) {
    case 'type':
      return messages.card.unknownType(value);
    case 'attribute':
      return messages.card.unknownAttribute(value);
    case 'level':
      return messages.card.unknownLevel(value);
    case 'format':
      return messages.card.unknownFormat(value);
  }
}
