import type { LimiterOptions } from '../../upstream/limiter.js';

/** How Almanac stays within YGOPRODeck's limits, and what it does when it does not. */

/**
 * YGOPRODeck allows 20 requests/s per IP and bans the IP for an hour past it; the image hosts count
 * toward the same budget. We keep to half: at most 10 in any sliding second, as the server counts
 * them. Requests leave at most every 125 ms (8/s) because the server sees them after network
 * jitter and scheduling delays, which bunch them: with 100 ms spacing our own fake, on a busy
 * machine, counted 11 in a second. 8/s is plenty: card data is local and each image is fetched once.
 * A short queue turns bursts into `busy` answers instead of long waits. A job may be the whole
 * ≈20 MB database download, so expiration is longer than that download's own timeout.
 */
export const YGOPRODECK_LIMITS: Readonly<YgoprodeckLimits> = {
  minTimeMs: 125,
  maxConcurrent: 4,
  maxQueued: 60,
  jobExpirationMs: 150_000,
};

export type YgoprodeckLimits = Omit<LimiterOptions, 'upstream' | 'now'>;

/** The upstream's own limit, for tests and documentation: ours must stay well under it. */
export const YGOPRODECK_UPSTREAM_LIMIT = { windowMs: 1_000, maxRequests: 20 } as const;

/**
 * How long the circuit stays open. A 429/403 or an HTML page most likely means the IP is banned
 * (an hour, per the API guide), so wait for Retry-After or the whole hour; a plain 5xx is an outage
 * that deserves a short pause only. Retry-After is honoured but never shorter than `minBlockMs`,
 * so a tiny value cannot send us straight back into a ban.
 */
export const YGOPRODECK_CIRCUIT = {
  blockedMs: 60 * 60_000,
  minBlockMs: 30_000,
  maxBlockMs: 2 * 60 * 60_000,
  unavailableMs: 30_000,
} as const;

/** Card data changes rarely: a day for cards, hours for translations, an hour for "no such card". */
export const YGOPRODECK_CACHE = {
  cardTtlMs: 24 * 60 * 60_000,
  notFoundTtlMs: 60 * 60_000,
  localizedTtlMs: 6 * 60 * 60_000,
  maxEntries: 2_000,
} as const;
