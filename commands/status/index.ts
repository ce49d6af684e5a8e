import { SlashCommandBuilder } from 'discord.js';
import type { AppServices } from '../../src/app/services.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { renderStatus } from '../../src/render/status.js';
import { SERVER_INSTALL_ONLY } from '../../src/interaction/install-scopes.js';

export const status: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('status')
    .setIntegrationTypes(...SERVER_INSTALL_ONLY.integrationTypes)
    .setContexts(...SERVER_INSTALL_ONLY.contexts)
    .setDescription("Almanac's health: uptime, latency, and each upstream's state")
    .toJSON(),
  async execute(ctx, app) {
    // Registered for server installs only; should Discord still deliver it elsewhere (a user
    // install, a DM), operators' figures stay out of it.
    if (!ctx.installation.byGuild || ctx.installation.context !== 'guild') {
      return { content: messagesFor(ctx.user.locale).install.statusNeedsServerInstall, ephemeral: true };
    }
    const fleet = app.state.backend === 'redis' ? { health: app.state.health(), members: await app.state.fleet.members() } : undefined;
    // The host's public address is a target: only the server's managers and the bot's operators see it.
    const operator = ctx.memberPermissions.manageServer || app.config.operatorIds.includes(ctx.user.id);
    const egress = operator
      ? await deferWhenSlow(
          ctx,
          app.geo.egress().catch((error: unknown) => {
            ctx.log.warn({ err: error }, 'egress address unknown');
            return null;
          }),
          { ephemeral: true },
        )
      : undefined;
    return renderStatus({
      version: app.version,
      uptimeMs: app.clock.now().getTime() - app.startedAt,
      mode: app.mode,
      gatewayPingMs: app.gatewayPing(),
      rssBytes: process.memoryUsage.rss(),
      upstreams: app.upstreamHealth(),
      ...(fleet ? { fleet } : {}),
      ...(egress === undefined ? {} : { egress }),
      messages: messagesFor(ctx.user.locale),
    });
  },
};
