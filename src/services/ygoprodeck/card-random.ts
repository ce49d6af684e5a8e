import type { Card } from '../../cards/card.js';
import type { CardSummary } from '../../cards/card-summary.js';
import { hasFilters, matchesFilters, type CardSearchFilters } from '../../cards/search-filters.js';
import { createLocalChannelHistory } from '../../state/in-process.js';
import type { ChannelHistory, SharedState } from '../../state/shared-state.js';
import type { CardDatabase } from './card-database.js';

/** Channels whose recent picks are remembered (least recently used forgotten first). */
const REMEMBERED_CHANNELS = 10_000;

/**
 * `/card random`'s picks: a random card of the local database that the filters keep, never one of
 * the channel's last few picks unless the filters keep so few cards that all of them were picked
 * lately; then the least recent comes again, so they cycle. The picks are remembered per channel
 * (fleet-wide with Redis). Never calls upstream.
 */
export class RandomCardPicks {
  private readonly recentPicks: ChannelHistory;

  constructor(
    private readonly database: Pick<CardDatabase, 'random' | 'summaryById' | 'byId'>,
    options: { recentPerChannel: number; channelHistory?: SharedState['channelHistory'] },
  ) {
    const recent = options.recentPerChannel;
    if (!Number.isInteger(recent) || recent < 0) {
      throw new TypeError(`CardService: option "recentPerChannel" must be a non-negative integer, got ${recent}`);
    }
    this.recentPicks = (options.channelHistory ?? createLocalChannelHistory)({ name: 'card-random', length: recent, maxChannels: REMEMBERED_CHANNELS });
  }

  /** Undefined when no card matches the filters. */
  async pick(channelId: string, filters: CardSearchFilters): Promise<Card | undefined> {
    const recent = await this.recentPicks.recent(channelId);
    const accept = hasFilters(filters) ? (card: CardSummary) => matchesFilters(card, filters) : undefined;
    const card = this.database.random(new Set(recent), accept) ?? this.leastRecent(recent, accept);
    if (card === undefined) return undefined;
    await this.recentPicks.add(channelId, card.id);
    return card;
  }

  /** The card among the channel's picks that `accept`s and was picked longest ago (any card when `accept` is absent); `recent` is oldest first. */
  private leastRecent(recent: readonly number[], accept: ((card: CardSummary) => boolean) | undefined): Card | undefined {
    if (accept === undefined) return this.database.random();
    // A card may be in the history twice once the matches cycle: its last pick is what counts.
    const lastPicked = new Map<number, number>();
    recent.forEach((id, at) => lastPicked.set(id, at));
    let oldest: { id: number; at: number } | undefined;
    for (const [id, at] of lastPicked) {
      const summary = this.database.summaryById(id);
      if (summary !== undefined && accept(summary) && (oldest === undefined || at < oldest.at)) oldest = { id, at };
    }
    return oldest === undefined ? undefined : this.database.byId(oldest.id);
  }
}
