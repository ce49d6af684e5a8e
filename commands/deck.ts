import { SlashCommandBuilder } from 'discord.js';
import { deckReport } from '../src/decks/deck-report.js';
import { parseYdke } from '../src/decks/ydke.js';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { ChatInputContext } from '../src/interaction/context.js';
import { UserError } from '../src/interaction/errors.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';
import type { Reply } from '../src/interaction/reply.js';
import { renderDeck } from '../src/render/deck.js';
import type { AppServices } from '../src/app/services.js';
import { localeCardLanguage, presentationFor, waitForDatabase } from './card-common.js';

/** Long enough for a ydke URL of the 200-card cap (≈1,100 characters); Discord allows 6,000. */
const MAX_URL_CHARS = 2_000;

/**
 * `/deck show url:<ydke://…>`: the deck read, looked up in the local card database (no request),
 * checked per format and priced. A deck that cannot be read is refused before anything else runs.
 */
async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const ephemeral = ctx.options.getBoolean('public') === false;
  const parsed = parseYdke(ctx.options.getString('url') ?? '');
  if (!parsed.ok) throw new UserError((t) => t.deck.problems[parsed.problem]);
  await waitForDatabase(ctx, app, ephemeral);
  const report = deckReport(parsed.deck, (password) => app.cards.byId(password));
  const cards = Object.values(report.cards.sections).flatMap((entries) => entries.map((entry) => entry.card));
  return {
    ...renderDeck({
      report,
      localNames: app.cards.localNames(cards, localeCardLanguage(ctx)),
      pricesAsOf: app.cards.pricesAsOf,
      messages: presentationFor(ctx).messages,
    }),
    ephemeral,
  };
}

export const deck: ChatInputCommand = {
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
        .addStringOption((option) => option.setName('url').setDescription('The deck as a ydke:// URL').setRequired(true).setMaxLength(MAX_URL_CHARS))
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: yes)')),
    )
    .toJSON(),
  async execute(ctx, app) {
    return show(ctx, app);
  },
};
