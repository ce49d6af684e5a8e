import { SlashCommandBuilder } from 'discord.js';
import { parseYdke } from '../src/decks/ydke.js';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { ChatInputContext } from '../src/interaction/context.js';
import { UserError } from '../src/interaction/errors.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';
import type { Reply } from '../src/interaction/reply.js';
import type { AppServices } from '../src/app/services.js';
import { deckFromFile, readDeck, showDeck } from './deck-common.js';

/** Long enough for a ydke URL of the 200-card cap (≈1,100 characters); Discord allows 6,000. */
const MAX_URL_CHARS = 2_000;

/**
 * `/deck show` with exactly one of `url:<ydke://…>` or `file:<.ydk>`: the deck read, looked up in the
 * local card database (no request), checked per format and priced. A deck that cannot be read is
 * refused before anything else runs.
 */
async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const ephemeral = ctx.options.getBoolean('public') === false;
  const url = ctx.options.getString('url');
  const file = ctx.options.getAttachment('file');
  if ((url === null) === (file === null)) throw new UserError((t) => t.deck.oneSource);
  const deck = file === null ? readDeck(parseYdke(url ?? '')) : await deckFromFile(ctx, app, file, ephemeral);
  return showDeck(ctx, app, deck, ephemeral);
}

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
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: yes)')),
    )
    .toJSON(),
  async execute(ctx, app) {
    return show(ctx, app);
  },
};
