import { ApplicationCommandType, ContextMenuCommandBuilder } from 'discord.js';
import type { MessageContextCommand } from '../src/interaction/command.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError } from '../src/interaction/errors.js';
import { messagesFor } from '../src/i18n/messages.js';
import { findIpAddresses, MAX_ADDRESSES } from '../src/ip/address-list.js';
import { renderLookup } from '../src/render/ip.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';
import { lookUpAddresses } from './ip.js';

export const locateIp: MessageContextCommand = {
  kind: 'message',
  data: new ContextMenuCommandBuilder()
    .setName('Locate IP addresses')
    .setType(ApplicationCommandType.Message)
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .toJSON(),
  async execute(ctx, app) {
    const found = findIpAddresses(ctx.targetMessage.content);
    if (found.length === 0) throw new UserError((t) => t.ip.noneInMessage);
    const addresses = found.slice(0, MAX_ADDRESSES);
    const results = await deferWhenSlow(ctx, lookUpAddresses(addresses, app, ctx.user.id), { ephemeral: true });
    return renderLookup({
      results,
      now: app.clock.now(),
      ephemeral: true,
      skipped: found.length - addresses.length,
      messages: messagesFor(ctx.user.locale),
    });
  },
};
