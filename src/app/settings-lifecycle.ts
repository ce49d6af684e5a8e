import { GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord.js';
import type { Logger } from 'pino';
import type { SettingsService } from '../services/settings/settings-service.js';

/** How often an HTTP-only deployment looks for servers idle for 180 days (the first look is at start). */
export const IDLE_SWEEP_INTERVAL_MS = 6 * 60 * 60_000;

/**
 * A listener for discord.js's `raw` event: the bot removed from a server (a GUILD_DELETE that is not
 * an outage: `unavailable` not true) deletes what was kept for it. An outage keeps everything.
 */
export function forgetRemovedGuilds(settings: SettingsService, logger: Logger): (packet: GatewayDispatchPayload) => void {
  return (packet) => {
    if (packet.t !== GatewayDispatchEvents.GuildDelete || packet.d.unavailable === true) return;
    settings.forgetGuild(packet.d.id).catch((error: unknown) => logger.error({ err: error, guildId: packet.d.id }, 'could not delete the settings of a server the bot left'));
  };
}

/**
 * HTTP-only deployments receive no GUILD_DELETE: there a server's settings go after 180 days without
 * an interaction, checked at start and every six hours. Idempotent, so every replica of a fleet may
 * run it. Returns the stop.
 */
export function startIdleSweep(settings: SettingsService, logger: Logger, intervalMs = IDLE_SWEEP_INTERVAL_MS): () => void {
  const sweep = () => {
    settings.expireIdleGuilds().catch((error: unknown) => logger.warn({ err: error }, 'could not delete the settings of idle servers; trying again later'));
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
