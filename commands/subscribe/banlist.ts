import { banlistFormatOf } from '../../src/cards/banlist.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { addedOrRefused, describeSubscription, targetOf } from './shared.js';

/** `/subscribe banlist format`: a post in this channel each time a new card database changes that format's list. */
export async function addBanlist(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const target = targetOf(ctx, app);
  // Discord offers the choices only; anything else is refused before it is stored.
  const format = banlistFormatOf(ctx.options.getString('format'));
  if (format === undefined) throw new UserError((t) => t.subscribe.noSuchFormat);
  if (ctx.appPermissions.postEmbeds !== true) throw new UserError((t) => t.subscribe.botCannotPost);
  const outcome = await target.subscriptions.addBanlist({ guildId: target.guildId, channelId: target.channelId, userId: ctx.user.id, format });
  const messages = messagesFor(ctx.user.locale);
  return { ephemeral: true, content: messages.subscribe.addedFeed(describeSubscription(addedOrRefused(outcome), messages)) };
}
