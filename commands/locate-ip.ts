import { ApplicationCommandType, ContextMenuCommandBuilder, InteractionContextType } from 'discord.js';
import type { MessageContextCommand } from '../src/command.js';
import { deferWhenSlow } from '../src/defer-when-slow.js';
import { UserError } from '../src/errors.js';
import { findIpAddresses, MAX_ADDRESSES } from '../src/ip/address-list.js';
import { renderLookup } from '../src/render/ip.js';
import { lookUpAddresses } from './ip.js';

export const locateIp: MessageContextCommand = {
  kind: 'message',
  data: new ContextMenuCommandBuilder()
    .setName('Locate IP addresses')
    .setType(ApplicationCommandType.Message)
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel)
    .toJSON(),
  async execute(ctx, app) {
    const found = findIpAddresses(ctx.targetMessage.content);
    if (found.length === 0) throw new UserError('I found no IPv4 or IPv6 address in that message.');
    const addresses = found.slice(0, MAX_ADDRESSES);
    const results = await deferWhenSlow(ctx, lookUpAddresses(addresses, app, ctx.user.id), { ephemeral: true });
    return renderLookup({ results, now: app.clock.now(), ephemeral: true, skipped: found.length - addresses.length });
  },
};
