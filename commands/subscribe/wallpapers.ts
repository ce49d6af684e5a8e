import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { parseQuery } from '../../src/wallpaper/search-options.js';
import type { AppServices } from '../../src/app/services.js';
import { addedOrRefused, describeSubscription, targetOf } from './shared.js';

/**
 * `/subscribe wallpapers query|tag`: new Wallhaven uploads of a search or a tag, posted here. The
 * text is checked as `/wallpaper search` checks its query; the channel's age restriction is kept
 * (the scheduler cannot ask Discord for it).
 */
export async function addWallpapers(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const target = targetOf(ctx, app);
  const query = parseQuery(ctx.options.getString('query'));
  const tag = parseQuery(ctx.options.getString('tag'));
  if (!query.ok) throw new UserError(query.reason);
  if (!tag.ok) throw new UserError(tag.reason);
  if ((query.value === undefined) === (tag.value === undefined)) throw new UserError((t) => t.subscribe.wallpapersSource);
  if (ctx.appPermissions.postEmbeds !== true) throw new UserError((t) => t.subscribe.botCannotPost);
  const options = query.value !== undefined ? { source: 'query' as const, text: query.value } : { source: 'tag' as const, text: tag.value! };
  const outcome = await target.subscriptions.addWallpapers({
    guildId: target.guildId,
    channelId: target.channelId,
    userId: ctx.user.id,
    options: { ...options, ageRestricted: ctx.channel.ageRestricted },
  });
  const messages = messagesFor(ctx.user.locale);
  return { ephemeral: true, content: messages.subscribe.addedWallpapers(describeSubscription(addedOrRefused(outcome), messages)) };
}
