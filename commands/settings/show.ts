import type { AppServices } from '../../src/app/services.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { renderSettingsShown } from '../../src/render/settings.js';
import { resolveSettings } from '../../src/settings/settings.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { settingsScope } from './scope.js';

/** `/settings show [channel]`: what applies here (or in that channel of the server), and where each value comes from. */
export async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const { scope, service } = settingsScope(ctx, app);
  const asked = ctx.options.getChannel('channel');
  if (asked !== null && scope.kind === 'user') throw new UserError((t) => t.settings.serverOnly);
  const channelId = asked ?? ctx.channel.id;
  const parentId = asked === null ? ctx.channel.parentId : undefined;
  const choices = await service.choicesAt({
    guildId: scope.kind === 'server' ? scope.guildId : null,
    channelId,
    ...(parentId === undefined ? {} : { parentId }),
    userId: ctx.user.id,
  });
  const where = scope.kind === 'user' ? { kind: 'user' as const } : { kind: 'channel' as const, channelId };
  return renderSettingsShown(resolveSettings(choices), where, messagesFor(ctx.user.locale));
}
