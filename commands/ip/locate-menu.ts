import { ApplicationCommandType, ContextMenuCommandBuilder } from 'discord.js';
import type { AppServices } from '../../src/app/services.js';
import type { MessageContextCommand } from '../../src/interaction/command.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { findLookupTargets, isLogName, MAX_ADDRESSES, MAX_ENTRIES } from '../../src/ip/address-list.js';
import { renderLookup, renderNotes } from '../../src/render/ip.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import { lookupMap } from './lookup-map.js';
import { answerLog } from './bulk.js';

/**
 * Message menu **Locate IP addresses**: the addresses and URL hosts in a message (logs, alerts),
 * at most 10 located, as `/ip lookup` shows them, privately; with an attachment, its whole text
 * as `/ip bulk` reads it.
 */
export const locateIp: MessageContextCommand<AppServices> = {
  kind: 'message',
  data: new ContextMenuCommandBuilder()
    .setName('Locate IP addresses')
    .setType(ApplicationCommandType.Message)
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .toJSON(),
  async execute(ctx, app) {
    // A log attached to the message: the whole file, up to 1,000 addresses (`bulk.ts`).
    const log = ctx.targetMessage.attachments.find((attachment) => isLogName(attachment.name));
    if (log !== undefined) return answerLog(ctx, app, log);
    const found = findLookupTargets(ctx.targetMessage.content);
    if (found.length === 0) throw new UserError((t) => t.ip.noneInMessage);
    const targets = found.slice(0, MAX_ENTRIES);
    const share = app.memberShares.spenderFor(ctx.user.id, 'geojs');
    const outcome = await deferWhenSlow(ctx, app.ipLookup.locate(targets, { max: MAX_ADDRESSES, reverse: true }, share), { ephemeral: true });
    if (outcome.results.length === 0) throw new UserError((t) => renderNotes(outcome.notes, t).join('\n'));
    return renderLookup({
      ...outcome,
      now: app.clock.now(),
      ephemeral: true,
      map: await lookupMap(outcome.results, app, ctx.appPermissions),
      skipped: found.length - targets.length,
      messages: messagesFor(ctx.user.locale),
    });
  },
};
