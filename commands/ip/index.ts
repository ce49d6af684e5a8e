import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import type { AppServices } from '../../src/app/services.js';
import { lookup } from './lookup.js';
import { time } from './time.js';
import { whois } from './whois.js';
import { answerOwner } from './owner-button.js';
import { IP_COMPONENT_PREFIX } from '../../src/ip/whois-query.js';

/**
 * `/ip`: its definition; a file per subcommand answers it, `owner-button.ts` the registration
 * buttons under a lookup. The **Locate IP addresses** menu is `locate-menu.ts`.
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
    .toJSON(),
  execute(ctx, app) {
    if (ctx.options.subcommand === 'whois') return whois(ctx, app);
    return ctx.options.subcommand === 'time' ? time(ctx, app) : lookup(ctx, app);
  },
  componentPrefix: IP_COMPONENT_PREFIX,
  handleComponent(ctx, app) {
    return answerOwner(ctx, app);
  },
};
