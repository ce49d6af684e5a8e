import type { AppServices } from '../../src/app/services.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { SettingsService } from '../../src/services/settings/settings-service.js';

/** Whose settings `/settings` reads and writes: a server's (installed there), or the member's own. */
export type SettingsScope = { kind: 'server'; guildId: string } | { kind: 'user' };

/** The scope of this use, and the settings service (none: this Almanac keeps no database). */
export function settingsScope(ctx: Pick<ChatInputContext, 'installation' | 'channel'>, app: Pick<AppServices, 'settings'>): { scope: SettingsScope; service: SettingsService } {
  const service = app.settings;
  if (service === undefined) throw new UserError((t) => t.settings.unavailable);
  const { installation, channel } = ctx;
  const inServer = installation.context === 'guild' && installation.byGuild;
  return { scope: inServer && channel.guildId !== undefined ? { kind: 'server', guildId: channel.guildId } : { kind: 'user' }, service };
}
