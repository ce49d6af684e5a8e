import { banlistFormatOf, genesysOffencesOf, offencesOf } from '../cards/banlist.js';
import { DEFAULT_POINTS_CAP } from '../cards/genesys.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { MessagePayload } from '../interaction/reply.js';
import { renderBanlistPost, type FlaggedDeck } from '../render/banlist.js';
import type { SubscriptionRow, SubscriptionsStore } from '../storage/subscriptions-store.js';
import type { BanlistFeed } from './banlist-feed.js';

/**
 * A ban-list subscription's post: what changed in its format's latest list, and the decks shown in
 * the channel in the last 90 days that the change makes illegal. Undefined when there is nothing to
 * say, or when the channel already got this version (two subscriptions of one format post once).
 */
export async function banlistPost(
  subscription: SubscriptionRow,
  now: number,
  messages: Catalogue,
  deps: { banlists: Pick<BanlistFeed, 'history' | 'recentDecks'>; store: Pick<SubscriptionsStore, 'postedIds'> },
): Promise<{ message: MessagePayload; item: { kind: 'banlist'; id: string } } | undefined> {
  const format = banlistFormatOf((JSON.parse(subscription.options) as { format?: unknown }).format);
  if (format === undefined) return undefined;
  const history = await deps.banlists.history(format);
  if (history.kind !== 'changes') return undefined;
  const id = `${format}:${history.after.version}`;
  if ((await deps.store.postedIds(subscription.channel_id, 'banlist')).includes(id)) return undefined;
  const decks = (await deps.banlists.recentDecks(subscription.channel_id, now)).flatMap((deck): FlaggedDeck[] => {
    if (format === 'genesys') {
      // Judged at Konami's cap: the channel's own cap is not known.
      const over = genesysOffencesOf(deck.cards, history.before.entries, history.after.entries, DEFAULT_POINTS_CAP);
      return over === null ? [] : [{ shownAt: deck.shownAt, offences: over.offences, points: { total: over.total, cap: DEFAULT_POINTS_CAP } }];
    }
    const offences = offencesOf(deck.cards, history.changes);
    return offences.length === 0 ? [] : [{ shownAt: deck.shownAt, offences }];
  });
  return { message: renderBanlistPost(format, history.before, history.after, history.changes, decks, messages), item: { kind: 'banlist', id } };
}
