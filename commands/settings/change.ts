import type { AppServices } from '../../src/app/services.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { renderSettingSaved, type SavedSetting } from '../../src/render/settings.js';
import { parseIpAnswersChoice, parseLanguageChoice, parsePurityChoice } from '../../src/settings/settings.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { settingsScope } from './scope.js';

/**
 * `/settings language | inline-cards | ip-answers | wallpaper-purity`: one choice stored, for the
 * server or one of its channels (Manage Server), or for the member in DMs and user installs; a
 * value the command does not offer is refused before anything is stored.
 */
export async function change(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const { scope, service } = settingsScope(ctx, app);
  if (scope.kind === 'server' && !ctx.memberPermissions.manageServer) throw new UserError((t) => t.settings.needsManageServer);
  const channelId = ctx.options.getChannel('channel');
  const serverOnly = () => new UserError((t) => t.settings.serverOnly);
  let saved: SavedSetting;
  switch (ctx.options.subcommand) {
    case 'language': {
      const language = parseLanguageChoice(ctx.options.getString('language') ?? '');
      if (language === undefined) throw new UserError((t) => t.settings.unknownLanguage);
      if (scope.kind === 'user') {
        if (channelId !== null) throw serverOnly();
        await service.setUser(ctx.user.id, { language });
      } else if (channelId === null) await service.setGuild(scope.guildId, { language });
      else await service.setChannel(scope.guildId, channelId, { language });
      saved = { setting: scope.kind === 'user' ? 'yourLanguage' : 'language', language };
      break;
    }
    case 'inline-cards': {
      const enabled = ctx.options.getBoolean('enabled');
      if (enabled === null) throw new UserError((t) => t.settings.unknownValue);
      if (scope.kind === 'user') throw serverOnly();
      if (channelId === null) await service.setGuild(scope.guildId, { inlineCards: enabled });
      else await service.setChannel(scope.guildId, channelId, { inlineCards: enabled });
      saved = { setting: 'inlineCards', enabled };
      break;
    }
    case 'ip-answers': {
      const ipAnswers = parseIpAnswersChoice(ctx.options.getString('visibility') ?? '');
      if (ipAnswers === undefined) throw new UserError((t) => t.settings.unknownValue);
      if (scope.kind === 'user') await service.setUser(ctx.user.id, { ipAnswers });
      else await service.setGuild(scope.guildId, { ipAnswers });
      saved = { setting: 'ipAnswers', ipAnswers };
      break;
    }
    case 'wallpaper-purity': {
      const purity = parsePurityChoice(ctx.options.getString('purity') ?? '');
      if (purity === undefined) throw new UserError((t) => t.settings.unknownValue);
      if (scope.kind === 'user') throw serverOnly();
      if (channelId === null) await service.setGuild(scope.guildId, { wallpaperPurity: purity });
      else await service.setChannel(scope.guildId, channelId, { wallpaperPurity: purity });
      saved = { setting: 'purity', purity };
      break;
    }
    default:
      throw new UserError((t) => t.errors.commandGone);
  }
  const where = scope.kind === 'user' ? { kind: 'user' as const } : channelId === null ? { kind: 'server' as const } : { kind: 'channel' as const, channelId };
  return renderSettingSaved(saved, where, messagesFor(ctx.user.locale));
}
