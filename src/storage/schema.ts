import type { Generated } from 'kysely';
import type { UiLocale } from '../i18n/catalogue.js';
import type { WallpaperPurity } from '../wallpaper/wallpaper.js';

/**
 * The tables as Kysely sees them, the same on SQLite and PostgreSQL (src/storage/migrations/ makes
 * them). Conventions that keep one typed layer for both dialects:
 * - Discord ids (snowflakes) are text: they outgrow a JavaScript number.
 * - Times are integer milliseconds since the epoch (`bigint`; PostgreSQL's int8 is read back as a
 *   number), never a dialect's own date type: SQLite has none.
 * - Yes/no is an integer 1/0, as SQLite stores it.
 * - A null setting means "not chosen here": the next scope down applies (channel, then server,
 *   then what Discord says or Almanac's default).
 * - Vocabularies (languages, kinds) are checked by the code, not by CHECK constraints, so that a
 *   new language or subscription kind needs no table rebuild on SQLite.
 */
export interface Database {
  guilds: GuildsTable;
  channel_settings: ChannelSettingsTable;
  user_settings: UserSettingsTable;
  subscriptions: SubscriptionsTable;
  post_claims: PostClaimsTable;
  posted_history: PostedHistoryTable;
  banlist_versions: BanlistVersionsTable;
  channel_decks: ChannelDecksTable;
  card_sets_seen: CardSetsSeenTable;
  poll_turns: PollTurnsTable;
}

/** 1 on, 0 off. */
export type Flag = 0 | 1;

/** Who `/ip lookup` and `/ip time` answer by default (their `public` option still wins). */
export type IpAnswers = 'public' | 'private';

/**
 * One row per server Almanac keeps anything for: the server-wide settings and when the server last
 * used Almanac. Every other row of the server hangs off it (ON DELETE CASCADE), so forgetting a
 * server (the bot removed, or 180 days without an interaction in HTTP-only deployments) is one delete.
 */
export interface GuildsTable {
  guild_id: string;
  language: UiLocale | null;
  inline_cards: Flag | null;
  ip_answers: IpAnswers | null;
  /** A ceiling: it only narrows what a channel allows. */
  wallpaper_purity: WallpaperPurity | null;
  /** Updated at most about once a day, never per interaction; the 180-day expiry reads it. */
  last_interaction_at: number;
  created_at: number;
  updated_at: number;
}

/** One channel's own settings, over its server's (same meanings; `/ip` answers are server-wide only). */
export interface ChannelSettingsTable {
  channel_id: string;
  guild_id: string;
  language: UiLocale | null;
  inline_cards: Flag | null;
  wallpaper_purity: WallpaperPurity | null;
  updated_at: number;
}

/** A user's own settings, made in DMs and user installs (no server to hold them); the user clears them. */
export interface UserSettingsTable {
  user_id: string;
  language: UiLocale | null;
  ip_answers: IpAnswers | null;
  updated_at: number;
}

/** What a subscription posts: daily ones at a time of day, feeds when their source changes (`banlist`) or a poll finds new uploads (`wallpapers`). */
export type SubscriptionKind = 'card-of-the-day' | 'wallpaper-of-the-day' | 'banlist' | 'wallpapers' | 'new-sets';

/**
 * What a channel gets on its own: a kind, its options, and when (a time of day in an IANA zone;
 * null for feeds that post on change). `next_due_at` is the next occurrence in UTC, recomputed in
 * the zone after each one (DST included) and the scheduler's only index; consecutive refusals by
 * Discord pause it (`paused_at`, `pause_reason`), which `/subscribe list` shows.
 */
export interface SubscriptionsTable {
  id: Generated<number>;
  guild_id: string;
  channel_id: string;
  kind: SubscriptionKind;
  /** JSON: the kind's options (card-of-the-day: `/card random`'s filters); `{}` when none. */
  options: string;
  /** `HH:MM`, 24-hour. */
  time_of_day: string | null;
  /** IANA time zone name, validated with Intl when stored. */
  time_zone: string | null;
  next_due_at: number | null;
  created_by: string;
  created_at: number;
  last_posted_at: number | null;
  /** Feeds: when the source was last checked, posted or not. */
  last_checked_at: number | null;
  /** Discord refusing the channel (403, 404, Unknown Channel, Missing Access) in a row; 3 pauses it. */
  consecutive_failures: Generated<number>;
  paused_at: number | null;
  pause_reason: string | null;
}

/** A claim's progress: held under a lease, or finished one way or the other. */
export type PostClaimState = 'claimed' | 'posted' | 'skipped';

/**
 * One occurrence of a subscription (its id and the UTC time it was due), claimed by one process.
 * The primary key makes the claim atomic on both dialects (an insert that only one process wins);
 * a lease of at most 2 minutes lets another process take over a crashed claim, with the same
 * `nonce` (≤ 25 characters, from the occurrence) so that Discord returns the first message rather
 * than post a second; past Discord's nonce window the occurrence is `skipped`. Kept briefly after
 * it finishes, then pruned by the scheduler.
 */
export interface PostClaimsTable {
  subscription_id: number;
  due_at: number;
  state: PostClaimState;
  /** The claiming process (SharedState's process id). */
  claimed_by: string;
  lease_expires_at: number;
  attempts: number;
  nonce: string;
  /** The message posted, once it is. */
  message_id: string | null;
  finished_at: number | null;
}

/** What a posted item is, for no-repeat. */
export type PostedItemKind = 'card' | 'wallpaper' | 'banlist' | 'card-set';

/**
 * What was posted in a channel, for no-repeat: card of the day repeats no card until the matching
 * pool is exhausted (the oldest post is then reused and its time updated), wallpaper of the day
 * skips the channel's last 90 days (older rows are pruned). Per channel, whichever subscription
 * posted it.
 */
export interface PostedHistoryTable {
  guild_id: string;
  channel_id: string;
  item_kind: PostedItemKind;
  /** A card's password, a wallpaper's id, a card set's key. */
  item_id: string;
  posted_at: number;
}

/**
 * A format's ban list as one card database version has it (YGOPRODeck keeps no past lists). Every
 * version seen is kept, so `/card banlist changes` can find the last one that differed; `digest`
 * says whether two versions' lists are the same without reading them.
 */
export interface BanlistVersionsTable {
  /** `tcg`, `ocg`, `goat`, `masterduel`, or `genesys` (a points format: its entries carry points, no status). */
  format: string;
  /** The card database's `database_version`. */
  version: string;
  /** When a process first saw this version (the list's date, as far as Almanac knows). */
  recorded_at: number;
  digest: string;
  /** JSON: `BanlistEntry[]` (src/cards/banlist.ts): id, name, status, and points for a points format. */
  entries: string;
}

/**
 * A deck shown in a channel that follows a ban list, for the post that says which of them a new
 * list makes illegal: its cards and copies only (never the message, nor who showed it), the same
 * deck once per channel with its latest time, pruned after 90 days.
 */
export interface ChannelDecksTable {
  guild_id: string;
  channel_id: string;
  /** The deck's cards, as a stable key (the same deck shown twice is one row). */
  deck_key: string;
  /** JSON: `DeckCopies` (main passcode → copies). */
  cards: string;
  shown_at: number;
}

/**
 * Every card set `cardsets.php` has listed, from the first list a process of the fleet recorded:
 * a set is "new" when it first appears in a later list. The first list ever recorded is the
 * baseline (`baseline` 1): what was there before Almanac looked is never announced.
 */
export interface CardSetsSeenTable {
  /** `CardSet.key`: a short hash of the name, stable across lists. */
  set_key: string;
  /** JSON: the `CardSet` as first listed (its name, code, date and image), for the post. */
  card_set: string;
  first_seen_at: number;
  baseline: Flag;
}

/**
 * The fleet's wallpaper-poll turns, one row per turn taken: time is cut into turns of the poll
 * spacing, and a turn is taken by an insert only one caller wins, so two processes (or two posts
 * of one process) never poll in the same turn. Past turns are pruned.
 */
export interface PollTurnsTable {
  /** The turn's start divided by the spacing. */
  turn: number;
}
