import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import type { AppServices } from '../../src/app/services.js';
import { show } from './show.js';

/** `/deck`: its definition; `show.ts` answers it, like the **Read deck** menu (`read-deck-menu.ts`) through `shared.ts`. */

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
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: yes)')),
    )
    .toJSON(),
  async execute(ctx, app) {
    return show(ctx, app);
  },
};
