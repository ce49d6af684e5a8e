import { SlashCommandBuilder, type SlashCommandStringOption } from 'discord.js';
import { parseBanlistPageCustomId } from '../../src/cards/banlist.js';
import { withBanlistFormatOption } from '../../src/cards/banlist-option.js';
import { CARD_LANGUAGES } from '../../src/cards/card.js';
import { CARD_COMPONENT_PREFIX, parseCardCustomId, parseCardSetCustomId } from '../../src/cards/custom-ids.js';
import { withFilterOptions, withSearchOptions } from '../../src/cards/filter-options.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import { LANGUAGE_NAMES } from '../../src/render/card-labels.js';
import type { AppServices } from '../../src/app/services.js';
import { art, turnArtPage } from './art.js';
import { showBanlist, turnBanlistPage } from './banlist.js';
import { cardAutocomplete } from './autocomplete.js';
import { openPicked } from './pick.js';
import { price, turnPricePage } from './price.js';
import { showPrintings } from './printings.js';
import { random } from './random.js';
import { search } from './search.js';
import { openPickedSet, showSet, turnSetPage } from './set.js';
import { MAX_NAME_CHARS } from './shared.js';
import { show } from './show.js';

/**
 * `/card`: its definition, and which file answers each subcommand and component (one file each,
 * what they share in `shared.ts`).
 */

const ENGLISH = 'en';

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
      withSearchOptions(
        withFilterOptions(
          sub
            .setName('search')
            .setDescription('Up to 25 cards whose name or effect matches, to pick one from')
            .addStringOption((option) =>
              option.setName('query').setDescription('Name or effect words, or filters: atk>=2500 race:dragon "destroy all"').setMaxLength(MAX_NAME_CHARS),
            ),
        ),
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
    .addSubcommand((sub) =>
      withBanlistFormatOption(sub.setName('banlist').setDescription('A format’s current ban list, or what changed in it last')).addBooleanOption((option) => option.setName('changes').setDescription('What changed against the previous list, instead of the whole list')),
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
      case 'banlist':
        return showBanlist(ctx, app);
      default:
        return show(ctx, app);
    }
  },
  async autocomplete(ctx, app) {
    return cardAutocomplete(ctx, app);
  },
  componentPrefix: CARD_COMPONENT_PREFIX,
  async handleComponent(ctx, app) {
    const banlistPage = parseBanlistPageCustomId(ctx.customId);
    if (banlistPage !== null) return turnBanlistPage(ctx, app, banlistPage.format, banlistPage.page);
    const setAction = parseCardSetCustomId(ctx.customId);
    if (setAction?.action === 'set-page') return turnSetPage(ctx, app, setAction.key, setAction.page);
    if (setAction?.action === 'set-open') return { reply: await openPickedSet(ctx, app) };
    const action = parseCardCustomId(ctx.customId);
    if (action?.action === 'printings') return showPrintings(ctx, app, action.cardId, action.page);
    if (action?.action === 'prices') return turnPricePage(ctx, app, action.cardId, action.page);
    if (action?.action === 'art') return turnArtPage(ctx, app, action.cardId, action.index);
    return { reply: await openPicked(ctx, app, action) };
  },
};
