import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../src/command.js';
import { renderStatus } from '../src/render/status.js';
import { SERVER_INSTALL_ONLY } from '../src/install-scopes.js';

export const status: ChatInputCommand = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('status')
    .setIntegrationTypes(...SERVER_INSTALL_ONLY.integrationTypes)
    .setContexts(...SERVER_INSTALL_ONLY.contexts)
    .setDescription("Almanac's health: uptime, latency, and each upstream's state")
    .toJSON(),
  async execute(_ctx, app) {
    return renderStatus({
      version: app.version,
      uptimeMs: app.clock.now().getTime() - app.startedAt,
      gatewayPingMs: app.gatewayPing(),
      rssBytes: process.memoryUsage.rss(),
      upstreams: app.upstreamHealth(),
    });
  },
};
