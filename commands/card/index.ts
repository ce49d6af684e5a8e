import { SlashCommandBuilder, type SlashCommandStringOption, type SlashCommandSubcommandBuilder } from 'discord.js';
import { CARD_LANGUAGES, type Card, type CardLanguage } from '../src/cards/card.js';
import type { CardSet } from '../src/cards/card-set.js';
import { CARD_COMPONENT_PREFIX, parseCardCustomId, parseCardSetCustomId, type CardComponentAction } from '../src/cards/custom-ids.js';
import { CARD_ATTRIBUTES, CARD_TYPE_FILTERS, FORMAT_FILTERS, hasFilters, MAX_LEVEL, type CardSearchFilters } from '../src/cards/search-filters.js';
import { parseSearchFilters } from '../src/cards/search-options.js';
import { cardLanguageFor } from '../src/cards/user-language.js';
import { messagesFor } from '../src/i18n/messages.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { ChatInputContext, ComponentContext, ComponentResult } from '../src/interaction/context.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError } from '../src/interaction/errors.js';
import type { Reply } from '../src/interaction/reply.js';
import { renderCard } from '../src/render/card.js';
import { LANGUAGE_NAMES } from '../src/render/card-labels.js';
import { filterLabels, renderSearchResults, unknownFilterSentence } from '../src/render/card-menus.js';
import { noSetMatchMessage, renderCardSet, renderPrintings, renderSetChoices } from '../src/render/card-set.js';
import { quoteUserText } from '../src/render/user-text.js';
import type { AppServices } from '../src/app/services.js';
import { cardAutocomplete } from './card-autocomplete.js';
import { MAX_NAME_CHARS, namedCard, presentationFor, waitForDatabase, type Presentation } from './card-common.js';
import { art, artworkReply, price, pricesReply, turnCardPage } from './card-views.js';

const ENGLISH = 'en';

/**
 * The card's embed, in `language` when asked, with its art attached where Discord allows it (else
 * not even fetched); downloads are spent from the member's share of YGOPRODeck.
 */
async function cardReply(
  app: AppServices,
  card: Card,
  language: CardLanguage | undefined,
  ctx: Pick<ChatInputContext, 'log' | 'user'>,
  presentation: Presentation,
): Promise<Reply> {
  const shown = await app.cards.present(card, language, {
    share: app.memberShares.spenderFor(ctx.user.id, 'ygoprodeck'),
    withArt: presentation.attachFiles,
    log: ctx.log,
  });
  return renderCard({
    card: shown.card,
    image: shown.art,
    messages: presentation.messages,
    ...(presentation.attachFiles ? {} : { artNotAttachable: true }),
    ...(shown.translationUnavailable === undefined ? {} : { translationUnavailable: shown.translationUnavailable }),
  });
}

async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const explicitLanguage = ctx.options.getString('language');
  const language = cardLanguageFor(explicitLanguage, ctx.user.locale);
  const named = await namedCard(ctx, app, { language, explicitLanguage, view: 'show' });
  if ('choices' in named) return named.choices;
  return deferWhenSlow(ctx, cardReply(app, named.card, language, ctx, presentationFor(ctx, explicitLanguage)), { ephemeral: false });
}

/**
 * The filters of `/card search` or `/card random`, checked: a value that is no filter, an unknown
 * archetype, or a format asked of a database that lists none are refused with a sentence. Waits
 * for a loading database (the archetype and the formats are checked against it).
 */
async function filtersOf(ctx: ChatInputContext, app: AppServices, ephemeral: boolean): Promise<CardSearchFilters> {
  const parsed = parseSearchFilters(ctx.options);
  if (!parsed.ok) throw new UserError((t) => unknownFilterSentence(parsed.unknown, t));
  const filters: CardSearchFilters = { ...parsed.filters };
  await waitForDatabase(ctx, app, ephemeral);
  const archetypeInput = ctx.options.getString('archetype')?.trim();
  if (archetypeInput) {
    const archetype = app.cards.archetype(archetypeInput);
    if (archetype === undefined) throw new UserError((t) => t.card.noArchetype(quoteUserText(archetypeInput)));
    filters.archetype = archetype;
  }
  // An imported dump may list no formats: say so rather than find nothing.
  if (filters.format !== undefined && !app.cards.knowsFormats) throw new UserError((t) => t.card.formatsUnknown);
  return filters;
}

async function search(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const query = (ctx.options.getString('query') ?? '').trim();
  const { messages } = presentationFor(ctx);
  const filters = await filtersOf(ctx, app, true);
  if (query === '' && !hasFilters(filters)) throw new UserError((t) => t.card.giveQueryOrFilter);
  // Names in the user's language match too (the command has no language option: the locale decides).
  const language = cardLanguageFor(null, ctx.user.locale);
  const result = app.cards.search(query, filters, 25, language);
  if (result.cards.length === 0) {
    throw new UserError((t) => (query === '' ? t.card.noFilterMatch : t.card.noSearchMatch(quoteUserText(query), hasFilters(filters))));
  }
  return renderSearchResults({
    query,
    filters: filterLabels(filters, messages),
    cards: result.cards,
    total: result.total,
    localNames: app.cards.localNames(result.cards, language),
    messages,
  });
}

async function random(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const filters = await filtersOf(ctx, app, false);
  const card = await app.cards.random(ctx.channel.id, filters);
  if (card === undefined) throw new UserError((t) => t.card.noFilterMatch);
  // English card text: a random pick is served from the local database without any upstream lookup.
  return deferWhenSlow(ctx, cardReply(app, card, undefined, ctx, presentationFor(ctx)), { ephemeral: false });
}

/** The set with one page of its cards, and its image attached when the store has it or can get it. */
async function setReply(app: AppServices, userId: string, set: CardSet, page: number, presentation: Presentation): Promise<Reply> {
  const image = presentation.attachFiles ? await app.cards.art(set, app.memberShares.spenderFor(userId, 'ygoprodeck')) : null;
  const reply = renderCardSet({ set, listings: app.cards.setListing(set), page, image, sharedCodeWith: app.cards.setsWithCode(set.code).length - 1 });
  return presentation.attachFiles ? reply : { ...reply, content: presentation.messages.install.artNotAttachable };
}

async function showSet(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = (ctx.options.getString('name') ?? '').trim();
  if (input === '') throw new UserError((t) => t.card.giveSetName);
  // The set list and its cards are local; they are waited for only on a first start.
  if (!app.cards.setsReady && !(await deferWhenSlow(ctx, app.cards.whenSetsReady(), { ephemeral: false }))) {
    throw new UserError((t) => t.card.setListLoading);
  }
  await waitForDatabase(ctx, app, false);
  const resolution = app.cards.resolveSet(input);
  switch (resolution.kind) {
    case 'none':
      throw new UserError(noSetMatchMessage(input));
    case 'choices':
      return renderSetChoices(input, resolution.candidates, resolution.sharedCode);
    case 'set':
      return deferWhenSlow(ctx, setReply(app, ctx.user.id, resolution.set, 0, presentationFor(ctx)), { ephemeral: false });
  }
}

/** ◀ ▶ under a set: its owner turns the page in place; anyone else gets the page in a reply of their own. */
async function pageSet(ctx: ComponentContext, app: AppServices, key: string, page: number): Promise<ComponentResult> {
  const set = app.cards.setByKey(key);
  if (set === undefined) throw new UserError((t) => t.card.setGone);
  const reply = await deferWhenSlow({ defer: () => ctx.deferUpdate() }, setReply(app, ctx.user.id, set, page, presentationFor(ctx)), { ephemeral: false });
  return ctx.message.ownerId === ctx.user.id ? { update: reply } : { reply: { ...reply, ephemeral: true } };
}

/** A pick from a "Which set?" menu: posts the set as `/card set` would. */
async function openPickedSet(ctx: ComponentContext, app: AppServices): Promise<Reply> {
  const [key] = ctx.values;
  const set = key === undefined ? undefined : app.cards.setByKey(key);
  if (set === undefined) throw new UserError((t) => t.card.setMenuExpired);
  return deferWhenSlow({ defer: () => ctx.deferUpdate() }, setReply(app, ctx.user.id, set, 0, presentationFor(ctx)), { ephemeral: false });
}

/**
 * The Printings button under a card opens its printings in a reply only the presser sees; that
 * reply's ◀ ▶ turn its pages in place. Local only.
 */
function showPrintings(ctx: ComponentContext, app: AppServices, cardId: number, page: number | null): ComponentResult {
  const found = app.cards.byId(cardId);
  if (found === undefined) throw new UserError((t) => t.card.cardGone);
  const reply = renderPrintings({ card: found, printings: app.cards.printings(found), page: page ?? 0, messages: messagesFor(ctx.user.locale) });
  return page === null ? { reply } : { update: reply };
}

/** A pick from a "Did you mean", search or set menu: posts the card as `/card show` would (or its prices or artworks, for a menu of those). */
async function openPicked(ctx: ComponentContext, app: AppServices, action: CardComponentAction | null): Promise<Reply> {
  const [value] = ctx.values;
  if (action?.action !== 'open' || value === undefined || !/^\d{1,12}$/.test(value)) throw new UserError((t) => t.card.menuExpired);
  const card = app.cards.byId(Number(value));
  if (card === undefined) throw new UserError((t) => t.card.cardGone);
  if (action.view === 'price') return pricesReply(app, card, 0, presentationFor(ctx));
  if (action.view === 'art') return deferWhenSlow({ defer: () => ctx.deferUpdate() }, artworkReply(app, ctx.user.id, card, 0, presentationFor(ctx)), { ephemeral: false });
  const language = action.language ?? cardLanguageFor(null, ctx.user.locale);
  const presentation = presentationFor(ctx, action.language ?? null);
  return deferWhenSlow({ defer: () => ctx.deferUpdate() }, cardReply(app, card, language, ctx, presentation), { ephemeral: false });
}

/** The filters of `/card search` and `/card random`. */
function withFilterOptions(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub
    .addStringOption((option) =>
      option
        .setName('type')
        .setDescription('Only cards of this type')
        .addChoices(...Object.entries(CARD_TYPE_FILTERS).map(([value, name]) => ({ name, value }))),
    )
    .addStringOption((option) =>
      option
        .setName('attribute')
        .setDescription('Only monsters of this attribute')
        .addChoices(...CARD_ATTRIBUTES.map((attribute) => ({ name: attribute, value: attribute }))),
    )
    .addStringOption((option) => option.setName('archetype').setDescription('Only cards of this archetype').setAutocomplete(true).setMaxLength(MAX_NAME_CHARS))
    .addIntegerOption((option) => option.setName('level').setDescription('Only monsters of this Level or Rank').setMinValue(0).setMaxValue(MAX_LEVEL))
    .addStringOption((option) =>
      option
        .setName('format')
        .setDescription('Only cards legal in this format')
        .addChoices(...Object.entries(FORMAT_FILTERS).map(([value, name]) => ({ name, value }))),
    );
}

/** The `name` option of `/card show`, `price` and `art`: a card name, autocompleted, whose value is then its passcode. */
function cardNameOption(option: SlashCommandStringOption): SlashCommandStringOption {
  return option.setName('name').setDescription('Card name or passcode').setRequired(true).setAutocomplete(true).setMaxLength(MAX_NAME_CHARS);
}

export const card: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('card')
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .setDescription('Yu-Gi-Oh! card lookup')
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription('A card with its text, stats, ban-list status, price and art')
        .addStringOption(cardNameOption)
        .addStringOption((option) =>
          option
            .setName('language')
            .setDescription('Language of the card text (default: yours, when available)')
            .addChoices({ name: 'English', value: ENGLISH }, ...CARD_LANGUAGES.map((language) => ({ name: LANGUAGE_NAMES[language], value: language }))),
        ),
    )
    .addSubcommand((sub) =>
      withFilterOptions(
        sub
          .setName('search')
          .setDescription('Up to 25 cards whose names match, to pick one from')
          .addStringOption((option) => option.setName('query').setDescription('Words of the card name (optional with a filter)').setMaxLength(MAX_NAME_CHARS)),
      ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('price')
        .setDescription('A card’s prices: per vendor, and every printing, cheapest first')
        .addStringOption(cardNameOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('art')
        .setDescription('Every artwork of a card')
        .addStringOption(cardNameOption),
    )
    .addSubcommand((sub) => withFilterOptions(sub.setName('random').setDescription('A random card, of the kind the filters give')))
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription('A card set: release date, size, image, and its cards with set numbers and rarities')
        .addStringOption((option) =>
          option.setName('name').setDescription('Set name or code, e.g. Legend of Blue Eyes White Dragon or LOB').setRequired(true).setAutocomplete(true).setMaxLength(MAX_NAME_CHARS),
        ),
    )
    .toJSON(),
  execute(ctx, app) {
    switch (ctx.options.subcommand) {
      case 'search':
        return search(ctx, app);
      case 'random':
        return random(ctx, app);
      case 'set':
        return showSet(ctx, app);
      case 'price':
        return price(ctx, app);
      case 'art':
        return art(ctx, app);
      default:
        return show(ctx, app);
    }
  },
  async autocomplete(ctx, app) {
    return cardAutocomplete(ctx, app);
  },
  componentPrefix: CARD_COMPONENT_PREFIX,
  async handleComponent(ctx, app) {
    const setAction = parseCardSetCustomId(ctx.customId);
    if (setAction?.action === 'set-page') return pageSet(ctx, app, setAction.key, setAction.page);
    if (setAction?.action === 'set-open') return { reply: await openPickedSet(ctx, app) };
    const action = parseCardCustomId(ctx.customId);
    if (action?.action === 'printings') return showPrintings(ctx, app, action.cardId, action.page);
    if (action?.action === 'prices') return turnCardPage(ctx, app, 'price', action.cardId, action.page);
    if (action?.action === 'art') return turnCardPage(ctx, app, 'art', action.cardId, action.index);
    return { reply: await openPicked(ctx, app, action) };
  },
};
