import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { checkedFilters } from '../../src/render/card-filters.js';
import { quoteUserText } from '../../src/render/user-text.js';
import { canonicalTimeZone, parseTimeOfDay, type TimeOfDay } from '../../src/schedule/time-of-day.js';
import type { NewDailySubscription } from '../../src/scheduler/subscriptions.js';
import type { AppServices } from '../../src/app/services.js';
import { addedOrRefused, describeSubscription, discordTime, targetOf } from './shared.js';

/** Quoted user input in a refusal: short, whatever was typed. */
const QUOTED_INPUT_CHARS = 40;

/** `time` and `timezone`, checked: a sentence for `25:61` or a zone Intl does not know. */
function scheduleOf(ctx: ChatInputContext): { time: TimeOfDay; timeZone: string } {
  const timeInput = ctx.options.getString('time') ?? '';
  const time = parseTimeOfDay(timeInput);
  if (time === undefined) throw new UserError((t) => t.subscribe.badTime(quoteUserText(timeInput, QUOTED_INPUT_CHARS)));
  const zoneInput = ctx.options.getString('timezone') ?? '';
  const timeZone = canonicalTimeZone(zoneInput);
  if (timeZone === undefined) throw new UserError((t) => t.subscribe.badZone(quoteUserText(zoneInput, QUOTED_INPUT_CHARS)));
  return { time, timeZone };
}

async function add(ctx: ChatInputContext, app: AppServices, subscription: NewDailySubscription['subscription'] | (() => NewDailySubscription['subscription'])): Promise<Reply> {
  const target = targetOf(ctx, app);
  const schedule = scheduleOf(ctx);
  // A post needs the bot to see the channel and send embeds in it: refused now rather than paused later.
  if (ctx.appPermissions.postEmbeds !== true) throw new UserError((t) => t.subscribe.botCannotPost);
  const what = typeof subscription === 'function' ? subscription() : subscription;
  const outcome = await target.subscriptions.add({ guildId: target.guildId, channelId: target.channelId, userId: ctx.user.id, ...schedule, subscription: what });
  const messages = messagesFor(ctx.user.locale);
  const view = addedOrRefused(outcome);
  const first = view.nextDueAt === null ? '' : discordTime(view.nextDueAt);
  return { ephemeral: true, content: messages.subscribe.added(messages.subscribe.kinds[view.kind], view.timeOfDay, view.timeZone, first) + `\n-# ${describeSubscription(view, messages)}` };
}

/** `/subscribe card-of-the-day`: `/card random`'s filters, checked against the card database when it is loaded. */
export function addCardOfTheDay(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  return add(ctx, app, () => ({ kind: 'card-of-the-day', options: { filters: checkedFilters(ctx.options, app.cards.ready ? app.cards : undefined) } }));
}

/** `/subscribe wallpaper-of-the-day`: the channel's age restriction is kept, since the scheduler cannot ask Discord for it. */
export function addWallpaperOfTheDay(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  return add(ctx, app, { kind: 'wallpaper-of-the-day', options: { ageRestricted: ctx.channel.ageRestricted } });
}
