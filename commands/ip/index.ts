import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { ChatInputContext } from '../src/interaction/context.js';
import type { Reply } from '../src/interaction/reply.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError } from '../src/interaction/errors.js';
import { messagesFor } from '../src/i18n/messages.js';
import { MAX_ADDRESSES, MAX_ENTRIES, parseLookupList } from '../src/ip/address-list.js';
import type { LookupTarget } from '../src/ip/lookup-entry.js';
import type { LookupOutcome } from '../src/ip/resolution.js';
import { renderLookup, renderNotes, renderRejectedEntries, renderTimeLine } from '../src/render/ip.js';
import type { AppServices } from '../src/app/services.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';

const FULL_LOOKUP = { max: MAX_ADDRESSES, reverse: true };

/**
 * Resolves the names among `targets` and locates at most `options.max` addresses, with their reverse
 * names. Each name resolved and each address sent to GeoJS is spent from `userId`'s share.
 */
export function locateTargets(
  targets: readonly LookupTarget[],
  app: AppServices,
  userId: string,
  options: { max: number; reverse: boolean } = FULL_LOOKUP,
): Promise<LookupOutcome> {
  return app.ipLookup.locate(targets, options, app.memberShares.spenderFor(userId, 'geojs'));
}

async function lookup(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = ctx.options.getString('addresses') ?? '';
  // Ephemeral unless asked: a location is personal data.
  const ephemeral = ctx.options.getBoolean('public') !== true;
  const list = parseLookupList(input);
  if (list.rejected.length > 0) throw new UserError((t) => renderRejectedEntries(list.rejected, [], t));
  if (list.skipped > 0) throw new UserError((t) => t.ip.tooMany(list.targets.length + list.skipped, MAX_ENTRIES));
  if (list.targets.length === 0) throw new UserError((t) => t.ip.giveAddresses);
  const outcome = await deferWhenSlow(ctx, locateTargets(list.targets, app, ctx.user.id), { ephemeral });
  if (outcome.results.length === 0) throw new UserError((t) => renderNotes(outcome.notes, t).join('\n'));
  return renderLookup({ ...outcome, now: app.clock.now(), ephemeral, messages: messagesFor(ctx.user.locale) });
}

async function time(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = ctx.options.getString('address') ?? '';
  const ephemeral = ctx.options.getBoolean('public') === false;
  const list = parseLookupList(input, 1);
  if (list.rejected.length > 0) throw new UserError((t) => renderRejectedEntries(list.rejected, [], t));
  if (list.skipped > 0) throw new UserError((t) => t.ip.giveOneAddress);
  if (list.targets.length === 0) throw new UserError((t) => t.ip.giveAddress);
  // A name's first address (its first A record, else its first AAAA), named in the answer.
  const outcome = await deferWhenSlow(ctx, locateTargets(list.targets, app, ctx.user.id, { max: 1, reverse: false }), { ephemeral });
  const [result] = outcome.results;
  if (!result) throw new UserError((t) => renderNotes(outcome.notes, t).join('\n'));
  return renderTimeLine(result, app.clock.now(), ephemeral, messagesFor(ctx.user.locale));
}

export const ip: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('ip')
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .setDescription('Where an IP address is, its network, and its local time')
    .addSubcommand((sub) =>
      sub
        .setName('lookup')
        .setDescription('Location, network and time zone of up to 10 IP addresses, host names or URLs')
        .addStringOption((option) =>
          option
            .setName('addresses')
            .setDescription('1–10 addresses, host names or URLs, separated by commas or spaces')
            .setRequired(true)
            // Ten URLs of up to 500 characters each, with their separators.
            .setMaxLength(5000),
        )
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: only you see it)')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('time')
        .setDescription("The local time and UTC offset at an IP address's location")
        .addStringOption((option) => option.setName('address').setDescription('An IPv4/IPv6 address, a host name or a URL').setRequired(true).setMaxLength(2000))
        .addBooleanOption((option) => option.setName('public').setDescription('Post in the channel (default: yes)')),
    )
    .toJSON(),
  execute(ctx, app) {
    return ctx.options.subcommand === 'time' ? time(ctx, app) : lookup(ctx, app);
  },
};
