import { ApplicationCommandType, ContextMenuCommandBuilder } from 'discord.js';
import type { AppServices } from '../../src/app/services.js';
import { findYdkeUrl, parseYdke } from '../../src/decks/ydke.js';
import { isYdkName } from '../../src/decks/ydk.js';
import type { MessageContextCommand } from '../../src/interaction/command.js';
import { UserError } from '../../src/interaction/errors.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import { deckFromFile, readDeck, showDeck } from './shared.js';
import { DEFAULT_POINTS_CAP } from '../../src/cards/genesys.js';

/**
 * Message menu **Read deck**: the first `ydke://` URL in the message, else its first `.ydk`
 * attachment, shown like `/deck show` (public: decks are shared to be discussed). A message command
 * carries the message's text and attachments, so no privileged intent is needed.
 */
export const readDeckMenu: MessageContextCommand<AppServices> = {
  kind: 'message',
  data: new ContextMenuCommandBuilder()
    .setName('Read deck')
    .setType(ApplicationCommandType.Message)
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .toJSON(),
  async execute(ctx, app) {
    const url = findYdkeUrl(ctx.targetMessage.content);
    const file = ctx.targetMessage.attachments.find((attachment) => isYdkName(attachment.name));
    if (url === undefined && file === undefined) throw new UserError((t) => t.deck.noDeckInMessage);
    const deck = url === undefined ? await deckFromFile(ctx, app, file!, false) : readDeck(parseYdke(url));
    return showDeck(ctx, app, deck, { ephemeral: false, pointsCap: DEFAULT_POINTS_CAP });
  },
};
