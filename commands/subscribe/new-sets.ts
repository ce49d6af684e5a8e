import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { addedOrRefused, describeSubscription, targetOf } from './shared.js';

/** `/subscribe new-sets`: each card set YGOPRODeck lists from now on, posted here once with its image. */
export async function addNewSets(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const target = targetOf(ctx, app);
  if (ctx.appPermissions.postEmbeds !== true) throw new UserError((t) => t.subscribe.botCannotPost);
  // The posts attach the sets' images: without Attach Files Discord would refuse every one.
  if (!ctx.appPermissions.attachFiles) throw new UserError((t) => t.subscribe.botCannotAttach);
  const outcome = await target.subscriptions.addNewSets({ guildId: target.guildId, channelId: target.channelId, userId: ctx.user.id });
  const messages = messagesFor(ctx.user.locale);
  return { ephemeral: true, content: messages.subscribe.addedNewSets(describeSubscription(addedOrRefused(outcome), messages)) };
}
