import type { ChatInputContext } from '../../src/interaction/context.js';
import { chatAcknowledger } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { isUpstreamError } from '../../src/interaction/upstream-error.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { renderWallpaperDetail } from '../../src/render/wallpaper.js';
import type { AppServices } from '../../src/app/services.js';
import { purityAllowed } from '../../src/wallpaper/gating.js';
import { parseWallpaperId } from '../../src/wallpaper/wallhaven-site.js';
import { waitForWallhaven } from './listing.js';

/**
 * `/wallpaper show id`: a wallpaper by id or link, with uploader and tags, shown only where the
 * channel allows its purity.
 */
export async function showWallpaper(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const parsed = parseWallpaperId(ctx.options.getString('id') ?? '');
  if (!parsed.ok) throw new UserError((t) => t.wallpaper.notAWallpaper(parsed.reason));
  const messages = messagesFor(ctx.settings.publicLocale);
  const hasKey = app.wallhaven.nsfwAvailable;
  let result;
  try {
    result = await waitForWallhaven(app, chatAcknowledger(ctx, false), messages, () =>
      app.wallhaven.detail(parsed.id, app.memberShares.spenderFor(ctx.user.id, 'wallhaven')),
    );
  } catch (error) {
    if (isUpstreamError(error, 'not_found')) throw new UserError((t) => t.wallpaper.noSuchWallpaper(`\`${parsed.id}\``));
    if (isUpstreamError(error, 'unauthorized')) {
      // Only NSFW wallpapers need a key: say first whether this channel could show one at all.
      const channelDecision = purityAllowed('nsfw', ctx.channel, true, messages);
      if (!channelDecision.allowed) throw new UserError(channelDecision.reason);
      throw new UserError((t) => (hasKey ? t.wallpaper.keyRefused : t.wallpaper.needsKey));
    }
    throw error;
  }
  const decision = purityAllowed(result.purity, ctx.channel, hasKey, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  return renderWallpaperDetail(result, messages);
}
