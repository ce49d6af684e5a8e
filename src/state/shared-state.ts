import type { MemberShareLedger, MemberShareLedgerOptions } from './member-share-ledger.js';
import type { CacheFactory } from '../upstream/cache.js';
import type { LimiterFactory } from '../upstream/limiter.js';
import type { FleetMember, SharedStateHealth } from '../runtime/status-report.js';

/**
 * Everything that must be the same for every process of one bot (gateway shards, HTTP replicas, the
 * old and new process of a rolling deploy): upstream budgets and pauses, caches, component state and
 * per-member allowances. Services and commands receive this interface and never learn which backend
 * holds the state: in-process (one process, no `REDIS_URL`) or Redis (a fleet). See `createSharedState`.
 */
export interface SharedState {
  readonly backend: SharedStateHealth['backend'];
  /** This process's id in the fleet registry and the `process` label of its metrics. */
  readonly processId: string;
  /** Upstream limiters: the limit holds for the whole fleet, and a pause reaches every process. */
  readonly limiterFactory: LimiterFactory;
  /** Caches: in-process L1, plus a fleet-wide L2 with the same TTLs and cross-process coalescing. */
  readonly cacheFactory: CacheFactory;
  /** Bytes fetched once for the whole fleet (card and set art), see `SharedBlobs`. */
  readonly blobs: SharedBlobs;
  /**
   * Runs `download` in one process of the fleet per `key` (e.g. `cards:en:<version>`): the others
   * wait for its result and receive it through Redis (compressed, kept a day), so a new card
   * database version, or a host with an empty `DATA_DIR`, costs no second download. The result must
   * be plain data (JSON, with `Date`s, `Buffer`s and typed arrays kept). In process it simply runs `download`.
   */
  downloadOnce<T>(key: string, download: () => Promise<T>): Promise<T>;
  /** The texts of wallpaper searches too long for a button's custom_id. */
  readonly longQueries: QueryTextStore;
  /** The ledger of one upstream's member share (a sliding window per member), counted across the fleet. */
  memberShareLedger(options: MemberShareLedgerOptions): MemberShareLedger;
  /** The last picks per channel (e.g. `/card random`'s "not one of the last 10"). */
  channelHistory(options: ChannelHistoryOptions): ChannelHistory;
  /** Keys seen in the last `ttlMs` by any process (e.g. the interactions received, to drop replays). */
  seenOnce(options: SeenOnceOptions): SeenOnce;
  /**
   * Short notices between the fleet's processes under `name` (e.g. "this server's settings
   * changed", so the others drop what they cached). In process there is no other process: nothing is sent.
   */
  notices(name: string): NoticeChannel;
  /** Registry of live processes, and what each reports about itself. */
  readonly fleet: FleetRegistry;
  /** Whether sharing works right now; for /status and /metrics. */
  health(): SharedStateHealth;
  /** Stops heartbeats and closes connections (after the services that use it are closed). */
  close(): Promise<void>;
}

export interface SharedBlobs {
  /**
   * The bytes under `key`: from the fleet's store when another process already fetched them,
   * otherwise fetched by `load` in exactly one process while the others wait for its result (the
   * in-process backend just calls `load`; callers keep their own local copy and in-process coalescing).
   */
  fetch(key: string, load: () => Promise<Buffer>): Promise<Buffer>;
}

export interface QueryTextStore {
  /** Stores `text` and returns its key (10 URL-safe characters); the same text always gets the same key. */
  remember(text: string): Promise<string>;
  /** The text under `key`, undefined once forgotten (30 minutes after its last use). */
  recall(key: string): Promise<string | undefined>;
}

export interface ChannelHistoryOptions {
  /** Names the history in keys and errors. */
  name: string;
  /** How many recent picks a channel remembers. */
  length: number;
  /** Channels remembered at once in process (the Redis backend forgets a channel after a day idle). */
  maxChannels: number;
}

export interface ChannelHistory {
  recent(channelId: string): Promise<number[]>;
  add(channelId: string, id: number): Promise<void>;
}

export interface SeenOnceOptions {
  /** Names the set in keys and errors. */
  name: string;
  /** How long a key is remembered after it was first seen. */
  ttlMs: number;
  /**
   * Keys one process remembers at once (its memory bound): past it, it forgets the oldest early. The
   * Redis backend keeps every key for `ttlMs` and uses this process's memory only while Redis is lost.
   */
  maxKeys: number;
}

export interface SeenOnce {
  /** True the first time `key` is seen within `ttlMs` (in any process, with Redis), false for every repeat. */
  firstTime(key: string): Promise<boolean>;
}

export interface FleetRegistry {
  /** Sets how this process describes itself in each heartbeat (the transport knows its shards and guilds). */
  describeWith(describe: () => Pick<FleetMember, 'shards' | 'guilds'>): void;
  /** The live processes (this one included), as last reported; only this one for the in-process backend. */
  members(): Promise<FleetMember[]>;
}

export interface NoticeChannel {
  /** Sends `text` to every other process (best effort: lost while Redis is, which `resync` covers). */
  publish(text: string): Promise<void>;
  /**
   * `listener` gets each notice another process publishes; `resync` runs when notices may have been
   * missed (Redis reachable again after an outage), so that the caller drops what it cached.
   */
  subscribe(listener: (text: string) => void, resync: () => void): void;
}
