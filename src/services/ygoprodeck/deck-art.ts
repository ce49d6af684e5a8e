import { setTimeout as sleep } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { MemberShareSpent } from '../../interaction/errors.js';
import { isUpstreamError } from '../../interaction/upstream-error.js';
import type { MemberShareLedger } from '../../state/member-share-ledger.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import { YGOPRODECK_LIMITS } from './ygoprodeck-limits.js';

/**
 * The small art of a deck's cards (`cards_small/<id>.jpg`), stored like all card art (once, fleet-wide
 * with Redis). A member's share of YGOPRODeck (12 downloads a minute) cannot cover a cold deck of 35
 * new cards, so `gather` takes what is stored and what the share covers now, and `complete` fetches
 * the rest in the background, paced by the fleet-wide `background` ledger at no more than half of
 * YGOPRODeck's budget, so card commands always keep the other half.
 */

/** Half of the requests a second the YGOPRODeck limiter lets through (8/s): the background's pace. */
export const DECK_ART_BACKGROUND = { limit: Math.floor(1000 / YGOPRODECK_LIMITS.minTimeMs / 2), windowMs: 1_000 } as const;
/** Every process of the fleet takes its background turns from this one key of the ledger. */
const FLEET_KEY = 'fleet';

export interface DeckArtOptions {
  /** A card's small art: from the store, or downloaded once (spending `share` when given). */
  fetch(imageId: number, share?: MemberShareSpender): Promise<Buffer>;
  /** Background downloads, fleet-wide: `DECK_ART_BACKGROUND` uses per window. */
  background: Pick<MemberShareLedger, 'take'>;
  logger?: Logger;
  /** Waits for the next background turn (injectable: tests need no real waits). */
  wait?: (ms: number) => Promise<void>;
}

export interface GatheredArt {
  art: Map<number, Buffer>;
  /** Art to fetch in the background: the share was spent, or YGOPRODeck was busy. */
  pending: number[];
}

export class DeckArt {
  private readonly options: DeckArtOptions;
  private readonly logger: Logger;
  private readonly wait: (ms: number) => Promise<void>;
  private closed = false;

  constructor(options: DeckArtOptions) {
    this.options = options;
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.wait = options.wait ?? ((ms) => sleep(ms, undefined, { ref: false }));
  }

  /** The art stored or within the member's share now; what is left is `pending`. Art that does not exist is neither. */
  async gather(imageIds: readonly number[], share: MemberShareSpender): Promise<GatheredArt> {
    const distinct = [...new Set(imageIds)];
    const results = await Promise.allSettled(distinct.map((id) => this.options.fetch(id, share)));
    const art = new Map<number, Buffer>();
    const pending: number[] = [];
    results.forEach((result, index) => {
      const id = distinct[index]!;
      if (result.status === 'fulfilled') art.set(id, result.value);
      else if (worthRetrying(result.reason)) pending.push(id);
    });
    return { art, pending };
  }

  /**
   * `gathered` with its pending art fetched, one download per background turn (never on the
   * member's share), until one fails for a reason other than the art not existing. Art that still
   * cannot be had stays missing: the picture shows its name.
   */
  async complete(gathered: GatheredArt): Promise<Map<number, Buffer>> {
    const art = new Map(gathered.art);
    for (const id of gathered.pending) {
      if (!(await this.turn())) break;
      try {
        art.set(id, await this.options.fetch(id));
      } catch (error) {
        this.logger.debug({ err: error, imageId: id }, 'deck art: a background download failed');
        // YGOPRODeck unreachable, refusing or paused: the rest of the deck would only be more
        // requests into it, and the member would wait for each. The picture shows their names.
        if (worthRetrying(error)) break;
      }
    }
    return art;
  }

  /** Stops background downloads (at shutdown); a deck waiting for them is completed with what it has. */
  close(): void {
    this.closed = true;
  }

  /** Waits for a background turn in the fleet's ledger; false once closed. */
  private async turn(): Promise<boolean> {
    while (!this.closed) {
      const decision = await this.options.background.take(FLEET_KEY);
      if (decision.allowed) return true;
      await this.wait(decision.retryAfterMs);
    }
    return false;
  }
}

/** A spent share or a busy, paused or unreachable YGOPRODeck: the art may be had later. */
function worthRetrying(error: unknown): boolean {
  return error instanceof MemberShareSpent || isUpstreamError(error, 'busy') || isUpstreamError(error, 'rate_limited') || isUpstreamError(error, 'unavailable');
}
