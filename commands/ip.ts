import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { ChatInputContext } from '../src/interaction/context.js';
import type { Reply } from '../src/interaction/reply.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError } from '../src/interaction/errors.js';
import { messagesFor } from '../src/i18n/messages.js';
import { MAX_ADDRESSES, parseAddressList } from '../src/ip/address-list.js';
import { renderLookup, renderRejectedEntries, renderTimeLine, type LookupResult } from '../src/render/ip.js';
import { describeSpecialRange } from '../src/ip/special-ranges.js';
import type { AppServices } from '../src/app/services.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';

/**
 * Looks up validated, canonical addresses and pairs each with the range it belongs to. Each address
 * that needs GeoJS (not cached, or expired) is spent from `userId`'s share.
 */
export async function lookUpAddresses(addresses: string[], app: AppServices, userId: string): Promise<LookupResult[]> {
  const records = await app.geo.lookup(addresses, app.memberShares.spenderFor(userId, 'geojs'));
  return addresses.map((address) => ({ address, record: records.get(address)!, specialRange: describeSpecialRange(address) }));
}

async function lookup(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = ctx.options.getString('addresses') ?? '';
  // Ephemeral unless asked: a location is personal data.
  const ephemeral = ctx.options.getBoolean('public') !== true;
  const list = parseAddressList(input);
  if (list.rejected.length > 0) throw new UserError((t) => renderRejectedEntries(list.rejected, [], t));
  if (list.skipped > 0) throw new UserError((t) => t.ip.tooMany(list.addresses.length + list.skipped, MAX_ADDRESSES));
  if (list.addresses.length === 0) throw new UserError((t) => t.ip.giveAddresses);
  const results = await deferWhenSlow(ctx, lookUpAddresses(list.addresses, app, ctx.user.id), { ephemeral });
  return renderLookup({ results, now: app.clock.now(), ephemeral, messages: messagesFor(ctx.user.locale) });
}

async function time(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = ctx.options.getString('address') ?? '';
  const ephemeral = ctx.options.getBoolean('public') === false;
  const list = parseAddressList(input, 1);
  if (list.rejected.length > 0) throw new UserError((t) => renderRejectedEntries(list.rejected, [], t));
  if (list.skipped > 0) throw new UserError((t) => t.ip.giveOneAddress);
  if (list.addresses.length === 0) throw new UserError((t) => t.ip.giveAddress);
  const [result] = await deferWhenSlow(ctx, lookUpAddresses(list.addresses, app, ctx.user.id), { ephemeral });
  return renderTimeLine(result!, app.clock.now(), ephemeral, messagesFor(ctx.user.locale));
}

export const ip: ChatInputCommand = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('ip')
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .setDescription('Where an IP address is, its network, and its local time')
    .addSubcommand((sub) =>
      sub
        .setName('lookup')
        .setDescription('Location, network and time zone of up to 10 IP addresses')
        .addStringOption((option) =>
          option.setName('addresses').setDescription('1–10 IPv4/IPv6 addresses, separated by commas or spaces').setRequired(true).setMaxLength(1000),
        )
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: only you see it)')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('time')
        .setDescription("The local time and UTC offset at an IP address's location")
        .addStringOption((option) => option.setName('address').setDescription('An IPv4 or IPv6 address').setRequired(true).setMaxLength(100))
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: yes)')),
    )
    .toJSON(),
  execute(ctx, app) {
    return ctx.options.subcommand === 'time' ? time(ctx, app) : lookup(ctx, app);
  },
};
