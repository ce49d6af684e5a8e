import { SlashCommandBuilder } from 'discord.js';
import { DIG_TYPES, parseDigRefreshId } from '../../src/ip/dig-query.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import type { AppServices } from '../../src/app/services.js';
import { lookup } from './lookup.js';
import { time } from './time.js';
import { whois } from './whois.js';
import { answerOwner } from './owner-button.js';
import { bulk } from './bulk.js';
import { dig } from './dig.js';
import { refreshDig } from './dig-refresh.js';
import { digResolvers } from './dig-resolvers.js';
import { IP_COMPONENT_PREFIX } from '../../src/ip/whois-query.js';

/**
 * `/ip`: its definition; a file per subcommand answers it, `owner-button.ts` the registration
 * buttons under a lookup, `dig-refresh.ts` dig's Refresh, `dig-resolvers.ts` its resolver choices. The **Locate IP addresses** menu is `locate-menu.ts`.
 */

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
    .addSubcommand((sub) =>
      sub
        .setName('whois')
        .setDescription('Who holds an address, AS number or domain, and its abuse contact (RDAP)')
        .addStringOption((option) => option.setName('query').setDescription('An IP address, a domain or an AS number (AS13335)').setRequired(true).setMaxLength(500)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('dig')
        .setDescription('Ask DNS as dig does: records with TTLs, the DNSSEC flag, a resolver of your choice')
        .addStringOption((option) => option.setName('name').setDescription('A domain name, or an IP address for its PTR record').setRequired(true).setMaxLength(300))
        .addStringOption((option) =>
          option
            .setName('type')
            .setDescription('Record type (default: A, or PTR for an address)')
            .addChoices(...DIG_TYPES.map((type) => ({ name: type, value: type }))),
        )
        .addStringOption((option) => option.setName('resolver').setDescription('The configured DNS servers (default) or a public DNS-over-HTTPS resolver').setAutocomplete(true).setMaxLength(40)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('bulk')
        .setDescription('Every address in a log file (up to 1,000): counts by country and network, and a CSV')
        .addAttachmentOption((option) => option.setName('file').setDescription('A text file (a log), up to 1 MiB').setRequired(true)),
    )
    .toJSON(),
  execute(ctx, app) {
    if (ctx.options.subcommand === 'bulk') return bulk(ctx, app);
    if (ctx.options.subcommand === 'dig') return dig(ctx, app);
    if (ctx.options.subcommand === 'whois') return whois(ctx, app);
    return ctx.options.subcommand === 'time' ? time(ctx, app) : lookup(ctx, app);
  },
  componentPrefix: IP_COMPONENT_PREFIX,
  handleComponent(ctx, app) {
    return parseDigRefreshId(ctx.customId) !== null ? refreshDig(ctx, app) : answerOwner(ctx, app);
  },
  async autocomplete(ctx, app) {
    return digResolvers(ctx, app);
  },
};
