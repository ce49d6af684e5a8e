import type { Catalogue } from '../i18n/catalogue.js';
import type { MessagePayload } from '../interaction/reply.js';
import { quoteUserText } from '../render/user-text.js';
import { renderRandomWallpaper } from '../render/wallpaper.js';
import type { WallhavenService } from '../services/wallhaven/wallhaven.js';
import type { SubscriptionRow, SubscriptionsStore } from '../storage/subscriptions-store.js';
import { PURITY_LEVELS, purityFilterOf, purityUpTo } from '../wallpaper/search.js';
import type { WallpaperPurity } from '../wallpaper/wallpaper.js';

/** A poll's post: the wallpapers it shows, the first as the post's item (PostContent's shape). */
type WallpaperItem = { kind: 'wallpaper'; id: string };
export type WallpaperFeedPost = { message: MessagePayload; item: WallpaperItem; moreItems: WallpaperItem[] };

/** A wallpapers subscription is polled at most this often. */
export const POLL_INTERVAL_MS = 30 * 60_000;
/**
 * Polls are spaced this far apart across the fleet: 10 a minute, of the 43 Wallhaven requests a
 * minute Almanac allows itself, leaving the rest to members' commands.
 */
export const POLL_SPACING_MS = 6_000;
/** Wallpapers shown in one post; the rest are counted. */
export const MAX_WALLPAPERS_PER_POST = 5;

/** The query quoted in a post: whatever was typed, kept short. */
const QUOTED_CHARS = 60;

/** What a wallpapers subscription stores in `options`: Wallhaven's query (a tag as `id:N` or its name) and the channel's age restriction. */
export interface WallpapersOptions {
  source: 'query' | 'tag';
  /** What the member typed, checked like `/wallpaper search`'s query. */
  text: string;
  ageRestricted: boolean;
}

/** Wallhaven's query for a subscription: a tag's id is `id:N` (that tag exactly), anything else is searched as typed. */
export function wallhavenQueryOf(options: Pick<WallpapersOptions, 'source' | 'text'>): string {
  return options.source === 'tag' && /^\d{1,10}$/.test(options.text) ? `id:${options.text}` : options.text;
}

export interface WallpaperFeedDeps {
  wallhaven: Pick<WallhavenService, 'search'>;
  store: SubscriptionsStore;
}

/**
 * One poll: the newest uploads (`date_added`, one request) within the channel's purity, uploaded
 * after the subscription and never posted in the channel; the first five shown, the rest counted.
 * Undefined when there is nothing new. A 429 throws (the shared limiter has paused every process).
 */
export async function wallpaperFeedPost(subscription: SubscriptionRow, highest: WallpaperPurity, now: number, messages: Catalogue, deps: WallpaperFeedDeps): Promise<WallpaperFeedPost | undefined> {
  const options = JSON.parse(subscription.options) as WallpapersOptions;
  const page = await deps.wallhaven.search({
    query: wallhavenQueryOf(options),
    categories: { general: true, anime: true, people: true },
    purity: purityFilterOf(purityUpTo(highest)),
    sorting: 'date_added',
    page: 1,
  });
  await deps.store.markChecked(subscription.id, now);
  const posted = new Set(await deps.store.postedIds(subscription.channel_id, 'wallpaper'));
  const ceiling = PURITY_LEVELS.indexOf(highest);
  // The purity is checked again here: a filter is a request, not a promise.
  // Uploads arriving while Wallhaven pages can repeat one: each id once.
  const fresh = [...new Map(page.items.map((item) => [item.id, item])).values()].filter(
    (item) => item.createdAt.getTime() > subscription.created_at && !posted.has(item.id) && PURITY_LEVELS.indexOf(item.purity) <= ceiling,
  );
  if (fresh.length === 0) return undefined;
  const shown = fresh.slice(0, MAX_WALLPAPERS_PER_POST);
  const embeds = shown.map((item) => renderRandomWallpaper(item, null, messages).embeds?.[0]).filter((embed) => embed !== undefined);
  const more = fresh.length - shown.length;
  const header = messages.subscribe.newWallpapers(quoteUserText(options.text, QUOTED_CHARS)) + (more > 0 ? `\n${messages.subscribe.moreWallpapers(more)}` : '');
  const [first, ...rest] = shown.map((item) => ({ kind: 'wallpaper' as const, id: item.id }));
  return { message: { content: header, embeds }, item: first!, moreItems: rest };
}
