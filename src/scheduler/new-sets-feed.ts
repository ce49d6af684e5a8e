import type { Logger } from 'pino';
import type { CardArt } from '../cards/card.js';
import type { CardSet } from '../cards/card-set.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { MessagePayload } from '../interaction/reply.js';
import { MAX_SETS_SHOWN, renderNewSets } from '../render/new-sets.js';
import type { CardService } from '../services/ygoprodeck/cards.js';
import type { CardSetStore } from '../storage/card-set-store.js';
import type { SubscriptionRow, SubscriptionsStore } from '../storage/subscriptions-store.js';

/** A new set is announced when released at most this long ago (or not dated yet): a set YGOPRODeck adds years late is not news. */
export const NEW_SET_MAX_AGE_MS = 30 * 86_400_000;

type FeedSets = Pick<CardService, 'cardSets' | 'onCardSetsLoad'>;

/**
 * Records every card set list a process loads (`cardsets.php`, fetched once a day or when the card
 * database changes), so that the sets first listed later make `/subscribe new-sets` due, once
 * across a fleet (CardSetStore.record).
 */
export class NewSetsFeed {
  private unsubscribe: (() => void) | undefined;
  private recording: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: CardSetStore,
    private readonly sets: FeedSets,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  /** Records the list loaded now (if any) and each one loaded later. */
  start(): void {
    this.unsubscribe = this.sets.onCardSetsLoad(() => void this.record());
    if (this.sets.cardSets().length > 0) void this.record();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.recording;
  }

  /** Records the list in memory now (one recording at a time); resolves when done. */
  record(): Promise<void> {
    this.recording = this.recording.then(() =>
      this.recordNow().catch((error: unknown) => this.logger.error({ err: error }, 'new sets: recording the card set list failed')),
    );
    return this.recording;
  }

  private async recordNow(): Promise<void> {
    const sets = this.sets.cardSets();
    if (sets.length === 0) return;
    const added = await this.store.record(sets, this.now());
    if (added > 0) this.logger.info({ added }, `new sets: ${added} set(s) first listed`);
  }
}

/** A new-sets post: the sets it shows, the first as the post's item (PostContent's shape). */
type SetItem = { kind: 'card-set'; id: string };
export type NewSetsPost = { message: MessagePayload; item: SetItem; moreItems: SetItem[] };

export interface NewSetsPostDeps {
  sets: Pick<CardSetStore, 'seenSince'>;
  store: Pick<SubscriptionsStore, 'postedIds'>;
  /** A set's image from the local store (downloaded once), or null: the set is then posted without it. */
  art(set: CardSet): Promise<CardArt | null>;
}

/** Whether a set's TCG release is recent enough to announce (undated sets are). */
export function isRecentRelease(set: Pick<CardSet, 'tcgDate'>, now: number): boolean {
  if (set.tcgDate === undefined) return true;
  const released = Date.parse(`${set.tcgDate}T00:00:00Z`);
  return Number.isNaN(released) || released >= now - NEW_SET_MAX_AGE_MS;
}

/**
 * A new-sets post: the sets first listed after the subscription (within the last 30 days), recent
 * or undated, that the channel has not had, each with its image. Undefined when there are none.
 */
export async function newSetsPost(subscription: SubscriptionRow, now: number, messages: Catalogue, deps: NewSetsPostDeps): Promise<NewSetsPost | undefined> {
  const seen = await deps.sets.seenSince(Math.max(subscription.created_at, now - NEW_SET_MAX_AGE_MS));
  const posted = new Set(await deps.store.postedIds(subscription.channel_id, 'card-set'));
  const fresh = seen.map((entry) => entry.set).filter((set) => !posted.has(set.key) && isRecentRelease(set, now));
  // In release order, undated sets (announced, not yet released) last.
  fresh.sort((left, right) => (left.tcgDate ?? '9999').localeCompare(right.tcgDate ?? '9999') || left.name.localeCompare(right.name, 'en'));
  if (fresh.length === 0) return undefined;
  const views = await Promise.all(fresh.map(async (set, index) => ({ set, image: index < MAX_SETS_SHOWN ? await deps.art(set) : null })));
  const [first, ...rest] = fresh.map((set) => ({ kind: 'card-set' as const, id: set.key }));
  return { message: renderNewSets(views, messages), item: first!, moreItems: rest };
}
