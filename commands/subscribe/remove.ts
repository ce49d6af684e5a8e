import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { describeSubscription, targetOf } from './shared.js';

/** `/subscribe remove`: the value is a subscription's id (autocomplete offers the channel's); another channel's is not found. */
export async function remove(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const target = targetOf(ctx, app);
  const input = (ctx.options.getString('subscription') ?? '').trim();
  const id = /^\d{1,15}$/.test(input) ? Number(input) : undefined;
  const removed = id === undefined ? undefined : await target.subscriptions.remove(target.channelId, id);
  if (removed === undefined) throw new UserError((t) => t.subscribe.noSuchSubscription);
  const messages = messagesFor(ctx.user.locale);
  return { ephemeral: true, content: messages.subscribe.removed(describeSubscription(removed, messages)) };
}
