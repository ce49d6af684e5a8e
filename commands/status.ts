import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../src/command.js';
import { renderStatus } from '../src/render/status.js';

export const status: ChatInputCommand = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('status')
    .setDescription("Almanac's health: uptime, latency, and each upstream's state")
    .toJSON(),
  async execute(_ctx, app) {
    const fleet = app.state.backend === 'redis' ? { health: app.state.health(), members: await app.state.fleet.members() } : undefined;
    return renderStatus({
      version: app.version,
      uptimeMs: app.clock.now().getTime() - app.startedAt,
      mode: app.mode,
      gatewayPingMs: app.gatewayPing(),
      rssBytes: process.memoryUsage.rss(),
      upstreams: app.upstreamHealth(),
      ...(fleet ? { fleet } : {}),
    });
  },
};
