import { messagesFor } from '../../src/i18n/messages.js';
import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import type { AppServices } from '../../src/app/services.js';
import { DECK_COMPONENT_PREFIX, parseOddsCustomId } from '../../src/decks/odds-custom-ids.js';
import { parseSmallWorldCustomId } from '../../src/decks/small-world-custom-ids.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { odds } from './odds.js';
import { answerOdds } from './odds-menu.js';
import { answerSmallWorld } from './small-world-menu.js';
import { show } from './show.js';
import { DEFAULT_POINTS_CAP, MAX_POINTS_CAP } from '../../src/cards/genesys.js';

/**
 * `/deck`: its definition; `show.ts` answers `/deck show`, like the **Read deck** menu
 * (`read-deck-menu.ts`), through `shared.ts`; `odds.ts` answers `/deck odds`, `odds-menu.ts` the
 * **Opening odds** button and menus, and `small-world-menu.ts` the **Small World** button and menus.
 */

/** Long enough for a ydke URL of the 200-card cap (≈1,100 characters); Discord allows 6,000. */
const MAX_URL_CHARS = 2_000;

export const deck: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('deck')
    .setDescription('Read a shared Yu-Gi-Oh! deck')
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription('A deck by sections, with its legality per format and its price')
        .addStringOption((option) => option.setName('url').setDescription('The deck as a ydke:// URL').setMaxLength(MAX_URL_CHARS))
        .addAttachmentOption((option) => option.setName('file').setDescription('The deck as a .ydk file'))
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: yes)'))
        .addIntegerOption((option) =>
          option.setName('points-cap').setDescription(`Genesys points cap (default: ${DEFAULT_POINTS_CAP})`).setMinValue(0).setMaxValue(MAX_POINTS_CAP),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('odds')
        .setDescription('The chance of opening your starters, going first and second')
        .addStringOption((option) => option.setName('url').setDescription('The deck as a ydke:// URL').setMaxLength(MAX_URL_CHARS))
        .addAttachmentOption((option) => option.setName('file').setDescription('The deck as a .ydk file')),
    )
    .toJSON(),
  async execute(ctx, app) {
    return ctx.options.subcommand === 'odds' ? odds(ctx, app) : show(ctx, app);
  },
  componentPrefix: DECK_COMPONENT_PREFIX,
  async handleComponent(ctx, app) {
    const odds = parseOddsCustomId(ctx.customId);
    if (odds !== null) return answerOdds(ctx, app, odds);
    const smallWorld = parseSmallWorldCustomId(ctx.customId);
    if (smallWorld !== null) return answerSmallWorld(ctx, app, smallWorld);
    // A custom_id Almanac never made (or a format of another version): one short sentence.
    return privateAnswer(messagesFor(ctx.user.locale).errors.buttonsExpired);
  },
};
