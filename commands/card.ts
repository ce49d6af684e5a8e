import { SlashCommandBuilder } from 'discord.js';
import { CARD_LANGUAGES, type Card, type CardLanguage } from '../src/cards/card.js';
import type { CardSet } from '../src/cards/card-set.js';
import { cardLanguageFor } from '../src/cards/user-language.js';
import type { ChatInputCommand, ChatInputContext, ComponentContext, ComponentResult, Reply } from '../src/command.js';
import { deferWhenSlow } from '../src/defer-when-slow.js';
import { UserError } from '../src/errors.js';
import {
  CARD_COMPONENT_PREFIX,
  LANGUAGE_NAMES,
  noMatchMessage,
  parseCardCustomId,
  renderCard,
  renderDidYouMean,
  renderSearchResults,
  type CardComponentAction,
} from '../src/render/card.js';
import { cardDatabaseFailureMessage } from '../src/render/card-database.js';
import { quoteUserText } from '../src/render/user-text.js';
import { noSetMatchMessage, parseCardSetCustomId, renderCardSet, renderPrintings, renderSetChoices } from '../src/render/card-set.js';
import { CARD_ATTRIBUTES, CARD_TYPE_FILTERS, type CardAttribute, type CardSearchFilters, type CardTypeFilter } from '../src/services/cards.js';
import type { AppServices } from '../src/services/index.js';
import { cardAutocomplete } from './card-autocomplete.js';

/** Longest a card name (68 characters today) or a search query may be. */
const MAX_NAME_CHARS = 100;
/**
 * How long `/card search` and `/card random` wait for a card database that is still loading (a
 * first start downloads ≈20 MB) before saying so; the interaction is deferred meanwhile.
 */
const DATABASE_WAIT_MS = 10_000;
const DATABASE_LOADING = 'The card database is still loading; try again in a minute.';
const SET_LIST_LOADING = 'The card set list is still loading; try again in a minute.';
const ENGLISH = 'en';


/** The card's embed and attached art, in `language` when asked; a missing translation or art never fails it. */
/** Art and translation downloads are charged to the member who asked; past their share the card comes without. */
async function cardReply(app: AppServices, card: Card, language: CardLanguage | undefined, ctx: Pick<ChatInputContext, 'log' | 'user'>): Promise<Reply> {
  const { log } = ctx;
  const charge = app.memberShares.chargeTo(ctx.user.id, 'ygoprodeck');
  const translation =
    language === undefined
      ? null
      : app.cards
          .localize(card, language, charge)
          .then((translated) => {
            if (translated === undefined) log.info({ cardId: card.id, language }, 'card shown in English: not translated upstream');
            return translated;
          })
          .catch((error: unknown) => {
            log.info({ err: error, cardId: card.id, language }, 'card shown in English: no translation');
            return undefined;
          });
  const [translated, art] = await Promise.all([translation, app.cards.art(card, charge)]);
  return renderCard({
    card: translated ?? card,
    image: art,
    ...(language !== undefined && translated === undefined ? { translationUnavailable: language } : {}),
  });
}

/** Why there are no cards: a failed download (with its next attempt) or a load still under way. */
function databaseMissing(app: AppServices): string {
  const failure = app.cards.loadFailure;
  return failure ? cardDatabaseFailureMessage(failure, app.clock.now().getTime()) : DATABASE_LOADING;
}

async function waitForDatabase(ctx: ChatInputContext, app: AppServices, ephemeral: boolean): Promise<void> {
  if (app.cards.ready) return;
  // A failed download is not worth waiting for: the next attempt is minutes away.
  if (app.cards.loadFailure) throw new UserError(databaseMissing(app));
  if (!(await deferWhenSlow(ctx, app.cards.whenReady(DATABASE_WAIT_MS), { ephemeral }))) throw new UserError(databaseMissing(app));
}

async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = (ctx.options.getString('name') ?? '').trim();
  if (input === '') throw new UserError('Give a card name, for example `Dark Magician`.');
  const explicitLanguage = ctx.options.getString('language');
  const language = cardLanguageFor(explicitLanguage, ctx.user.locale);
  // Local and immediate once the database is loaded; before that, an exact lookup upstream, on the member's share.
  let resolution = await deferWhenSlow(ctx, app.cards.resolve(input, language, app.memberShares.chargeTo(ctx.user.id, 'ygoprodeck')), { ephemeral: false });
  if (
    resolution.kind === 'none' &&
    !app.cards.ready &&
    !app.cards.loadFailure &&
    (await deferWhenSlow(ctx, app.cards.whenReady(DATABASE_WAIT_MS), { ephemeral: false }))
  ) {
    // Not an exact name: worth the wait for a first download, which brings fuzzy matching.
    resolution = await app.cards.resolve(input, language);
  }
  switch (resolution.kind) {
    case 'none':
      throw new UserError(app.cards.ready ? noMatchMessage(input) : `No card is named exactly ${quoteUserText(input)}. ${databaseMissing(app)}`);
    case 'choices':
      return renderDidYouMean(
        input,
        resolution.candidates,
        explicitLanguage === null ? undefined : language,
        app.cards.localNames(resolution.candidates, language),
      );
    case 'card':
      return deferWhenSlow(ctx, cardReply(app, resolution.card, language, ctx), { ephemeral: false });
  }
}

function typeFilter(value: string | null): CardTypeFilter | undefined {
  if (value === null) return undefined;
  if (!Object.hasOwn(CARD_TYPE_FILTERS, value)) throw new UserError(`Unknown card type ${quoteUserText(value)}.`);
  return value as CardTypeFilter;
}

function attributeFilter(value: string | null): CardAttribute | undefined {
  if (value === null) return undefined;
  const upper = value.toUpperCase();
  if (!(CARD_ATTRIBUTES as readonly string[]).includes(upper)) throw new UserError(`Unknown attribute ${quoteUserText(value)}.`);
  return upper as CardAttribute;
}

async function search(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const query = (ctx.options.getString('query') ?? '').trim();
  if (query === '') throw new UserError('Give some words of a card name to search for.');
  const filters: CardSearchFilters = {};
  const labels: string[] = [];
  const type = typeFilter(ctx.options.getString('type'));
  if (type !== undefined) {
    filters.type = type;
    labels.push(CARD_TYPE_FILTERS[type]);
  }
  const attribute = attributeFilter(ctx.options.getString('attribute'));
  if (attribute !== undefined) {
    filters.attribute = attribute;
    labels.push(attribute);
  }
  await waitForDatabase(ctx, app, true);
  const archetypeInput = ctx.options.getString('archetype')?.trim();
  if (archetypeInput) {
    const archetype = app.cards.archetype(archetypeInput);
    if (archetype === undefined) throw new UserError(`No archetype is named ${quoteUserText(archetypeInput)}; pick one from the suggestions.`);
    filters.archetype = archetype;
    labels.push(`Archetype: ${archetype}`);
  }
  // Names in the user's language match too (the command has no language option: the locale decides).
  const language = cardLanguageFor(null, ctx.user.locale);
  const result = app.cards.search(query, filters, 25, language);
  if (result.cards.length === 0) {
    throw new UserError(`No card matches ${quoteUserText(query)}${labels.length > 0 ? ' with those filters' : ''}.`);
  }
  return renderSearchResults({ query, filters: labels, cards: result.cards, total: result.total, localNames: app.cards.localNames(result.cards, language) });
}

async function random(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  await waitForDatabase(ctx, app, false);
  const card = await app.cards.random(ctx.channel.id);
  if (card === undefined) throw new UserError(databaseMissing(app));
  // English only: a random pick is served from the local database without any upstream lookup.
  return deferWhenSlow(ctx, cardReply(app, card, undefined, ctx), { ephemeral: false });
}

/** The set with one page of its cards, and its image attached when the store has it or can get it. */
async function setReply(app: AppServices, userId: string, set: CardSet, page: number): Promise<Reply> {
  const image = await app.cards.setArt(set, app.memberShares.chargeTo(userId, 'ygoprodeck'));
  return renderCardSet({ set, listings: app.cards.setListing(set), page, image, sharedCodeWith: app.cards.setsWithCode(set.code).length - 1 });
}

async function showSet(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = (ctx.options.getString('name') ?? '').trim();
  if (input === '') throw new UserError('Give a card set name or code, for example `Legend of Blue Eyes White Dragon` or `LOB`.');
  // The set list and its cards are local; they are waited for only on a first start.
  if (!app.cards.setsReady && !(await deferWhenSlow(ctx, app.cards.whenSetsReady(DATABASE_WAIT_MS), { ephemeral: false }))) {
    throw new UserError(SET_LIST_LOADING);
  }
  await waitForDatabase(ctx, app, false);
  const resolution = app.cards.resolveSet(input);
  switch (resolution.kind) {
    case 'none':
      throw new UserError(noSetMatchMessage(input));
    case 'choices':
      return renderSetChoices(input, resolution.candidates, resolution.sharedCode);
    case 'set':
      return deferWhenSlow(ctx, setReply(app, ctx.user.id, resolution.set, 0), { ephemeral: false });
  }
}

/** ◀ ▶ under a set: its owner turns the page in place; anyone else gets the page in a reply of their own. */
async function pageSet(ctx: ComponentContext, app: AppServices, key: string, page: number): Promise<ComponentResult> {
  const set = app.cards.setByKey(key);
  if (set === undefined) throw new UserError('That card set is not in the set list any more. Run `/card set` again.');
  const reply = await deferWhenSlow({ defer: () => ctx.deferUpdate() }, setReply(app, ctx.user.id, set, page), { ephemeral: false });
  return ctx.message.ownerId === ctx.user.id ? { update: reply } : { reply: { ...reply, ephemeral: true } };
}

/** A pick from a "Which set?" menu: posts the set as `/card set` would. */
async function openPickedSet(ctx: ComponentContext, app: AppServices): Promise<Reply> {
  const [key] = ctx.values;
  const set = key === undefined ? undefined : app.cards.setByKey(key);
  if (set === undefined) throw new UserError('This menu has expired. Run `/card set` again.');
  return deferWhenSlow({ defer: () => ctx.deferUpdate() }, setReply(app, ctx.user.id, set, 0), { ephemeral: false });
}

/**
 * The Printings button under a card opens its printings in a reply only the presser sees; that
 * reply's ◀ ▶ turn its pages in place. Local only.
 */
function showPrintings(app: AppServices, cardId: number, page: number | null): ComponentResult {
  const found = app.cards.byId(cardId);
  if (found === undefined) throw new UserError('That card is not in the card database any more. Run the command again.');
  const reply = renderPrintings({ card: found, printings: app.cards.printings(found), page: page ?? 0 });
  return page === null ? { reply } : { update: reply };
}

/** A pick from a "Did you mean", search or set menu: posts the card as `/card show` would. */
async function openPicked(ctx: ComponentContext, app: AppServices, action: CardComponentAction | null): Promise<Reply> {
  const [value] = ctx.values;
  if (action?.action !== 'open' || value === undefined || !/^\d{1,12}$/.test(value)) throw new UserError('This menu has expired. Run the command again.');
  const card = app.cards.byId(Number(value));
  if (card === undefined) throw new UserError('That card is not in the card database any more. Run the command again.');
  const language = action.language ?? cardLanguageFor(null, ctx.user.locale);
  return deferWhenSlow({ defer: () => ctx.deferUpdate() }, cardReply(app, card, language, ctx), { ephemeral: false });
}

export const card: ChatInputCommand = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('card')
    .setDescription('Yu-Gi-Oh! card lookup')
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription('A card with its text, stats, ban-list status, price and art')
        .addStringOption((option) =>
          option.setName('name').setDescription('Card name or passcode').setRequired(true).setAutocomplete(true).setMaxLength(MAX_NAME_CHARS),
        )
        .addStringOption((option) =>
          option
            .setName('language')
            .setDescription('Language of the card text (default: yours, when available)')
            .addChoices({ name: 'English', value: ENGLISH }, ...CARD_LANGUAGES.map((language) => ({ name: LANGUAGE_NAMES[language], value: language }))),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('search')
        .setDescription('Up to 25 cards whose names match, to pick one from')
        .addStringOption((option) => option.setName('query').setDescription('Words of the card name').setRequired(true).setMaxLength(MAX_NAME_CHARS))
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
        .addStringOption((option) =>
          option.setName('archetype').setDescription('Only cards of this archetype').setAutocomplete(true).setMaxLength(MAX_NAME_CHARS),
        ),
    )
    .addSubcommand((sub) => sub.setName('random').setDescription('A random card'))
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
    if (action?.action === 'printings') return showPrintings(app, action.cardId, action.page);
    return { reply: await openPicked(ctx, app, action) };
  },
};
