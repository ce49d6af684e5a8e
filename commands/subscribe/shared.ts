import { BANLIST_FORMAT_NAMES } from '../../src/cards/banlist.js';
import type { ChatInputContext, AutocompleteContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Catalogue } from '../../src/i18n/catalogue.js';
import { quoteUserText } from '../../src/render/user-text.js';
import { SUBSCRIPTION_LIMITS } from '../../src/schedule/limits.js';
import type { AddOutcome, SubscriptionView, Subscriptions } from '../../src/scheduler/subscriptions.js';
import type { AppServices } from '../../src/app/services.js';

/** The channel `/subscribe` is used in, once it may be: a server's, with a bot that can post and a member who manages it. */
export interface SubscribeTarget {
  subscriptions: Subscriptions;
  guildId: string;
  channelId: string;
}

/**
 * Checks, in this order, that subscriptions exist here at all (a database and a bot token), that
 * this is a server channel, and that the member has Manage Channels in it: each refusal is a
 * private sentence, before anything is read or stored.
 */
export function targetOf(ctx: Pick<ChatInputContext | AutocompleteContext, 'channel' | 'memberPermissions'>, app: AppServices): SubscribeTarget {
  const subscriptions = app.subscriptions;
  if (subscriptions === undefined) throw new UserError((t) => t.subscribe.unavailable);
  const guildId = ctx.channel.guildId;
  if (ctx.channel.kind === 'dm' || guildId === undefined) throw new UserError((t) => t.subscribe.notInServer);
  if (ctx.memberPermissions.manageChannels !== true) throw new UserError((t) => t.subscribe.needsManageChannels);
  return { subscriptions, guildId, channelId: ctx.channel.id };
}

/** The subscription added, or the sentence saying the channel or the server is full. */
export function addedOrRefused(outcome: AddOutcome): SubscriptionView {
  if ('refused' in outcome) {
    throw new UserError((t) => (outcome.refused === 'channel-full' ? t.subscribe.channelFull(SUBSCRIPTION_LIMITS.perChannel) : t.subscribe.guildFull(SUBSCRIPTION_LIMITS.perGuild)));
  }
  return outcome.added;
}

/** A wallpapers subscription's search or tag, quoted: short enough for an autocomplete choice. */
const QUOTED_SOURCE_CHARS = 40;

/** `Card of the day, every day at 09:30 (Europe/Paris)`; `Ban-list changes: TCG, posted when it changes`. */
export function describeSubscription(view: SubscriptionView, messages: Catalogue): string {
  if (view.wallpapers !== undefined) {
    const text = quoteUserText(view.wallpapers.text, QUOTED_SOURCE_CHARS);
    return messages.subscribe.wallpapersEntry(messages.subscribe.kinds[view.kind], view.wallpapers.source === 'tag' ? messages.subscribe.sourceTag(text) : messages.subscribe.sourceQuery(text));
  }
  if (view.kind === 'new-sets') return messages.subscribe.newSetsEntry(messages.subscribe.kinds[view.kind]);
  if (view.format !== undefined) return messages.subscribe.feedEntry(messages.subscribe.kinds[view.kind], BANLIST_FORMAT_NAMES[view.format]);
  return messages.subscribe.entry(messages.subscribe.kinds[view.kind], view.timeOfDay, view.timeZone);
}

/** A Discord timestamp: each member's client shows it in their own language and zone. */
export function discordTime(at: number): string {
  const seconds = Math.floor(at / 1000);
  return `<t:${seconds}:f> (<t:${seconds}:R>)`;
}
