import type { ChatInputContext } from '../../src/interaction/context.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { describeSubscription, discordTime, targetOf } from './shared.js';

/** `/subscribe list`: each of the channel's subscriptions, its next post (or why it is paused) and its last. Private. */
export async function list(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const target = targetOf(ctx, app);
  const messages = messagesFor(ctx.user.locale);
  const views = await target.subscriptions.list(target.channelId);
  if (views.length === 0) return { ephemeral: true, content: messages.subscribe.none };
  const lines = views.map((view) => {
    const state =
      view.pauseReason !== null
        ? messages.subscribe.paused(messages.subscribe.pauseReasons[view.pauseReason])
        : view.nextDueAt === null
          ? view.kind === 'new-sets'
            ? messages.subscribe.newSetsWaiting
            : messages.subscribe.feedWaiting
          : view.wallpapers !== undefined
            ? messages.subscribe.nextCheck(discordTime(view.nextDueAt))
            : messages.subscribe.nextPost(discordTime(view.nextDueAt));
    const checked = view.lastCheckedAt === null || view.wallpapers === undefined ? '' : ` · ${messages.subscribe.lastCheck(discordTime(view.lastCheckedAt))}`;
    const last = (view.lastPostedAt === null ? '' : ` · ${messages.subscribe.lastPost(discordTime(view.lastPostedAt))}`) + checked;
    return `- ${describeSubscription(view, messages)}\n  ${state}${last}`;
  });
  return { ephemeral: true, content: `**${messages.subscribe.listTitle}**\n${lines.join('\n')}` };
}
