import { banlistFormatOf, type ListFormat } from '../cards/banlist.js';
import { banlistOptions } from '../storage/banlist-store.js';
import type { SubscriptionKind } from '../storage/schema.js';
import type { SubscriptionRow, SubscriptionsStore } from '../storage/subscriptions-store.js';
import { SUBSCRIPTION_LIMITS } from '../schedule/limits.js';
import { formatTimeOfDay, nextOccurrence, type TimeOfDay } from '../schedule/time-of-day.js';
import type { RefusalReason } from './channel-poster.js';
import type { CardOfTheDayOptions, WallpaperOfTheDayOptions } from './post-content.js';
import { POLL_SPACING_MS, type WallpapersOptions } from './wallpaper-feed.js';


/** A subscription as `/subscribe list` and `remove` show it. */
export interface SubscriptionView {
  id: number;
  kind: SubscriptionKind;
  timeOfDay: string;
  timeZone: string;
  /** A ban-list subscription's format; undefined for daily ones. */
  format?: ListFormat;
  /** A wallpapers subscription's query or tag, as typed. */
  wallpapers?: { source: 'query' | 'tag'; text: string };
  nextDueAt: number | null;
  lastPostedAt: number | null;
  /** A polled feed's last check of its source, or null. */
  lastCheckedAt: number | null;
  /** Why it is paused (Discord refused the channel), or null. */
  pauseReason: RefusalReason | null;
}

export interface NewDailySubscription {
  guildId: string;
  channelId: string;
  userId: string;
  time: TimeOfDay;
  /** A zone `canonicalTimeZone` accepted. */
  timeZone: string;
  subscription: { kind: 'card-of-the-day'; options: CardOfTheDayOptions } | { kind: 'wallpaper-of-the-day'; options: WallpaperOfTheDayOptions };
}

export type AddOutcome = { added: SubscriptionView } | { refused: 'channel-full' | 'guild-full' };

function wallpapersOf(row: SubscriptionRow): { source: 'query' | 'tag'; text: string } {
  const options = JSON.parse(row.options) as Partial<WallpapersOptions>;
  return { source: options.source === 'tag' ? 'tag' : 'query', text: options.text ?? '' };
}

function viewOf(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    kind: row.kind,
    timeOfDay: row.time_of_day ?? '',
    timeZone: row.time_zone ?? '',
    ...(row.kind === 'banlist' ? { format: banlistFormatOf((JSON.parse(row.options) as { format?: unknown }).format) } : {}),
    ...(row.kind === 'wallpapers' ? { wallpapers: wallpapersOf(row) } : {}),
    nextDueAt: row.next_due_at,
    lastPostedAt: row.last_posted_at,
    lastCheckedAt: row.last_checked_at,
    pauseReason: row.paused_at === null ? null : (row.pause_reason as RefusalReason),
  };
}

/** What `/subscribe` does with a channel's subscriptions (the command checks who may, and what they typed). */
export class Subscriptions {
  constructor(
    private readonly store: SubscriptionsStore,
    private readonly now: () => number,
  ) {}

  async add(request: NewDailySubscription): Promise<AddOutcome> {
    const now = this.now();
    const result = await this.store.add(
      {
        guildId: request.guildId,
        channelId: request.channelId,
        kind: request.subscription.kind,
        options: JSON.stringify(request.subscription.options),
        timeOfDay: formatTimeOfDay(request.time),
        timeZone: request.timeZone,
        nextDueAt: nextOccurrence(request.time, request.timeZone, now),
        createdBy: request.userId,
      },
      SUBSCRIPTION_LIMITS,
      now,
    );
    return 'added' in result ? { added: viewOf(result.added) } : result;
  }

  /**
   * A ban-list subscription: nothing due until a new card database changes the format's list (the
   * list in use now is not posted), then one post per change.
   */
  async addBanlist(request: { guildId: string; channelId: string; userId: string; format: ListFormat }): Promise<AddOutcome> {
    const now = this.now();
    const result = await this.store.add(
      { guildId: request.guildId, channelId: request.channelId, kind: 'banlist', options: banlistOptions(request.format), timeOfDay: null, timeZone: null, nextDueAt: null, createdBy: request.userId },
      SUBSCRIPTION_LIMITS,
      now,
    );
    return 'added' in result ? { added: viewOf(result.added) } : result;
  }

  /** A new-sets subscription: nothing due until a card set list brings a set not listed before. */
  async addNewSets(request: { guildId: string; channelId: string; userId: string }): Promise<AddOutcome> {
    const result = await this.store.add(
      { guildId: request.guildId, channelId: request.channelId, kind: 'new-sets', options: '{}', timeOfDay: null, timeZone: null, nextDueAt: null, createdBy: request.userId },
      SUBSCRIPTION_LIMITS,
      this.now(),
    );
    return 'added' in result ? { added: viewOf(result.added) } : result;
  }

  /**
   * A wallpapers subscription: its first poll at the fleet's next free turn, then every 30 minutes
   * at the earliest; uploads from before it are never posted.
   */
  async addWallpapers(request: { guildId: string; channelId: string; userId: string; options: WallpapersOptions }): Promise<AddOutcome> {
    const now = this.now();
    const nextDueAt = await this.store.nextPollSlot(now, POLL_SPACING_MS);
    const result = await this.store.add(
      { guildId: request.guildId, channelId: request.channelId, kind: 'wallpapers', options: JSON.stringify(request.options), timeOfDay: null, timeZone: null, nextDueAt, createdBy: request.userId },
      SUBSCRIPTION_LIMITS,
      now,
    );
    return 'added' in result ? { added: viewOf(result.added) } : result;
  }

  async list(channelId: string): Promise<SubscriptionView[]> {
    return (await this.store.forChannel(channelId)).map(viewOf);
  }

  /** The removed subscription, or undefined when the channel has none with that id. */
  async remove(channelId: string, id: number): Promise<SubscriptionView | undefined> {
    const row = await this.store.byId(id);
    if (row === undefined || row.channel_id !== channelId) return undefined;
    return (await this.store.remove(channelId, id)) ? viewOf(row) : undefined;
  }
}
