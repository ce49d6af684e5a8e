import type { UpstreamName } from '../interaction/upstream-error.js';

/**
 * How much of each upstream one member may use: the README's "Each member's share of every
 * upstream", in one place. `MemberShares` (src/state) keeps the count, fleet-wide with Redis.
 */

export interface MemberShare {
  /** Upstream requests (GeoJS: addresses) one member may cause in any `windowMs`. */
  limit: number;
  windowMs: number;
}

/**
 * What one member may spend of Wallhaven's 45 requests a minute: 10 in any minute, under a quarter
 * of the 43 the limiter sends, so no single member can leave everyone else with "busy" answers.
 * Answers from the cache (pages already loaded, wallpapers already shown) cost nothing.
 */
export const WALLHAVEN_MEMBER_SHARE = { limit: 10, windowMs: 60_000 } as const;

/**
 * What one member may spend of GeoJS: 60 addresses that miss the cache in any minute (six full
 * `/ip lookup`s). Their batches then hold at most a few of the 20 queue places, so another member's
 * lookup during one member's flood still finds room and little wait. Cached addresses are free.
 */
export const GEOJS_MEMBER_SHARE = { limit: 60, windowMs: 60_000 } as const;

/**
 * What one member may spend of GeoJS on whole logs (`/ip bulk`, Locate IP on an attachment): 1,000
 * addresses not cached in any 10 minutes, apart from the 60 a minute above. A log's 1,000 addresses
 * are one question, not a flood of lookups; they are sent in batches of 50 one after another, so
 * one log holds one of GeoJS's 20 queue places at a time and another member's lookup meanwhile
 * waits at most a batch. Ten minutes: one full log each, so a member cannot send GeoJS 100
 * addresses a second for long.
 */
export const GEOJS_BULK_MEMBER_SHARE = { limit: 1_000, windowMs: 10 * 60_000 } as const;

/**
 * What one member may spend of YGOPRODeck: 12 art or translation downloads in any minute (card
 * data is local). At 8 requests a second they leave the queue within 1.5 s, so another member's card
 * is answered with its art during one member's flood; past the share a card is shown without its
 * art (or in English). Art already stored is free.
 */
export const YGOPRODECK_MEMBER_SHARE = { limit: 12, windowMs: 60_000 } as const;

/**
 * What one member may spend of the RDAP registries: 10 objects not yet cached in any minute. Each
 * registry is asked at most once a second by everyone together; ten of one member's questions to
 * one registry take ten seconds of its queue, so a second member waits at most that behind them.
 * Answers already fetched (a day) are free.
 */
export const RDAP_MEMBER_SHARE = { limit: 10, windowMs: 60_000 } as const;

/** Each upstream's per-member share, as documented in the README. */
export const MEMBER_SHARES: Readonly<Record<UpstreamName, MemberShare>> = {
  wallhaven: WALLHAVEN_MEMBER_SHARE,
  geojs: GEOJS_MEMBER_SHARE,
  ygoprodeck: YGOPRODECK_MEMBER_SHARE,
  rdap: RDAP_MEMBER_SHARE,
};
