import type { Card } from '../../cards/card.js';
import { pickRandomCard, type RandomCardSource } from '../../cards/random-pick.js';
import type { CardSearchFilters } from '../../cards/search-filters.js';
import { createLocalChannelHistory } from '../../state/in-process.js';
import type { ChannelHistory, SharedState } from '../../state/shared-state.js';

/** Channels whose recent picks are remembered (least recently used forgotten first). */
const REMEMBERED_CHANNELS = 10_000;

/**
 * `/card random`'s picks (the choice is the card domain's `pickRandomCard`), remembered per channel
 * (fleet-wide with Redis). Never calls upstream.
 */
export class RandomCardPicks {
  private readonly recentPicks: ChannelHistory;

  constructor(
    private readonly database: RandomCardSource,
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
    const card = pickRandomCard(this.database, await this.recentPicks.recent(channelId), filters);
    if (card === undefined) return undefined;
    await this.recentPicks.add(channelId, card.id);
    return card;
  }
}
