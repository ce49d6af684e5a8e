import type { CardSearchFilters } from '../cards/search-filters.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { CATALOGUES } from '../i18n/messages.js';
import type { MessagePayload } from '../interaction/reply.js';
import { renderCardEmbed } from '../render/card.js';
import { renderRandomWallpaper } from '../render/wallpaper.js';
import type { CardService } from '../services/ygoprodeck/cards.js';
import type { WallhavenService } from '../services/wallhaven/wallhaven.js';
import type { PostedItemKind } from '../storage/schema.js';
import type { SubscriptionRow, SubscriptionsStore } from '../storage/subscriptions-store.js';
import { channelPurityScope } from '../wallpaper/gating.js';
import { highestPurity, purityFilterOf, purityUpTo } from '../wallpaper/search.js';
import type { WallpaperPurity } from '../wallpaper/wallpaper.js';
import type { BanlistFeed } from './banlist-feed.js';
import { banlistPost } from './banlist-post.js';
import { wallpaperFeedPost } from './wallpaper-feed.js';
import { newSetsPost, type NewSetsPostDeps } from './new-sets-feed.js';
import type { ChannelPreferences } from './channel-preferences.js';

/** What a subscription stores in `options` (JSON), by kind. */
export interface CardOfTheDayOptions {
  filters: CardSearchFilters;
}
export interface WallpaperOfTheDayOptions {
  /** The channel was age-restricted when subscribed (the scheduler has no channel cache to ask). */
  ageRestricted: boolean;
}

/** A post ready to send, and what it shows (for no-repeat). */
export interface PostContent {
  message: MessagePayload;
  item: { kind: PostedItemKind; id: string };
  /** Further items the same post shows (a wallpapers poll's), recorded for no-repeat too. */
  moreItems?: readonly { kind: PostedItemKind; id: string }[];
}

/** Wallpaper of the day repeats nothing the channel got in this long. */
export const WALLPAPER_NO_REPEAT_MS = 90 * 86_400_000;
/** Toplist pages read before giving up on a wallpaper not yet posted (24 a page). */
const TOPLIST_PAGES = 3;

const PURITY_ORDER: readonly WallpaperPurity[] = ['sfw', 'sketchy', 'nsfw'];

/** What a post needs besides its subscription. */
export interface PostContentDeps {
  cards: Pick<CardService, 'matchingIds' | 'byId'>;
  wallhaven: Pick<WallhavenService, 'search' | 'nsfwAvailable'>;
  store: SubscriptionsStore;
  preferences: ChannelPreferences;
  /** Ban-list history (absent: ban-list subscriptions have nothing to post). */
  banlists?: Pick<BanlistFeed, 'history' | 'recentDecks'>;
  /** The card sets seen and their images (absent: new-sets subscriptions have nothing to post). */
  newSets?: Omit<NewSetsPostDeps, 'store'>;
  random?: () => number;
}

/**
 * Makes the post of one occurrence: the card, wallpaper, ban-list change or new sets, in the channel's language.
 * Undefined when there is nothing to post (no card matches the filters any more, the toplist is empty).
 */
export async function buildPost(subscription: SubscriptionRow, now: number, deps: PostContentDeps): Promise<PostContent | undefined> {
  const preferences = await deps.preferences.forChannel(subscription.guild_id, subscription.channel_id);
  const messages = CATALOGUES[preferences.locale ?? 'en'];
  const options = JSON.parse(subscription.options) as Partial<CardOfTheDayOptions & WallpaperOfTheDayOptions>;
  if (subscription.kind === 'banlist') return deps.banlists === undefined ? undefined : banlistPost(subscription, now, messages, { banlists: deps.banlists, store: deps.store });
  if (subscription.kind === 'new-sets') return deps.newSets === undefined ? undefined : newSetsPost(subscription, now, messages, { ...deps.newSets, store: deps.store });
  if (subscription.kind === 'card-of-the-day') return cardOfTheDay(subscription.channel_id, options.filters ?? {}, messages, deps);
  // The channel's age restriction as stored at subscribing, under the settings' ceiling.
  const allowed = highestPurity(channelPurityScope({ kind: 'guild', ageRestricted: options.ageRestricted === true }, deps.wallhaven.nsfwAvailable));
  const ceiling = preferences.purityCeiling ?? 'nsfw';
  const highest = PURITY_ORDER[Math.min(PURITY_ORDER.indexOf(allowed), PURITY_ORDER.indexOf(ceiling))]!;
  if (subscription.kind === 'wallpapers') return wallpaperFeedPost(subscription, highest, now, messages, deps);
  return wallpaperOfTheDay(subscription.channel_id, highest, now, messages, deps);
}

/** A card the filters keep that the channel has not had; once it has had them all, the one it had longest ago. */
async function cardOfTheDay(channelId: string, filters: CardSearchFilters, messages: Catalogue, deps: PostContentDeps): Promise<PostContent | undefined> {
  const pool = deps.cards.matchingIds(filters);
  if (pool.length === 0) return undefined;
  const posted = await deps.store.postedIds(channelId, 'card');
  const seen = new Set(posted);
  const fresh = pool.filter((id) => !seen.has(String(id)));
  let id: number;
  if (fresh.length > 0) id = fresh[Math.floor((deps.random ?? Math.random)() * fresh.length)]!;
  else {
    const inPool = new Set(pool.map(String));
    id = Number(posted.findLast((postedId) => inPool.has(postedId)));
  }
  const card = deps.cards.byId(id);
  if (card === undefined) return undefined;
  const embed = renderCardEmbed(card, { messages });
  return { message: { content: `**${messages.subscribe.cardOfTheDay}**`, embeds: [embed] }, item: { kind: 'card', id: String(id) } };
}

/** The best of Wallhaven's 1-day toplist within the purity, skipping what the channel got in 90 days. */
async function wallpaperOfTheDay(channelId: string, highest: WallpaperPurity, now: number, messages: Catalogue, deps: PostContentDeps): Promise<PostContent | undefined> {
  const recent = new Set(await deps.store.postedIds(channelId, 'wallpaper', now - WALLPAPER_NO_REPEAT_MS));
  for (let page = 1; page <= TOPLIST_PAGES; page++) {
    const results = await deps.wallhaven.search({
      categories: { general: true, anime: true, people: true },
      purity: purityFilterOf(purityUpTo(highest)),
      sorting: 'toplist',
      topRange: '1d',
      page,
    });
    const best = results.items.find((item) => !recent.has(item.id));
    if (best !== undefined) {
      const reply = renderRandomWallpaper(best, null, messages);
      const [embed, ...rest] = reply.embeds ?? [];
      return { message: { embeds: [{ ...embed, description: messages.subscribe.wallpaperOfTheDay }, ...rest], components: reply.components }, item: { kind: 'wallpaper', id: best.id } };
    }
    if (page >= results.lastPage) break;
  }
  return undefined;
}
