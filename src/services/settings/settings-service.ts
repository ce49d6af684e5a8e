import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { NO_CHOICES, resolveSettings, type ChannelChoices, type EffectiveSettings, type GuildChoices, type StoredChoices, type UserChoices } from '../../settings/settings.js';
import type { NoticeChannel, SharedState } from '../../state/shared-state.js';
import { SettingsRepository, type ChoicesPatch, type GuildRecord } from '../../storage/settings-repository.js';
import type { Storage } from '../../storage/storage.js';

/**
 * The settings of every server, channel and user, read through a cache so that answering an
 * interaction costs no database query: a server is read whole (its row and its channels') on its
 * first interaction, then served from memory. A change is written, dropped from this process's
 * cache and announced to the fleet (SharedState's notices: Redis pub/sub), whose processes drop
 * theirs; entries also expire after `CACHE_TTL_MS`, the bound on a notice lost with Redis.
 */

/** How long a cached server or user is trusted without a notice (a notice lost while Redis was down). */
const CACHE_TTL_MS = 10 * 60_000;
/** Servers and users held at once (a server without settings costs one small entry). */
const MAX_GUILDS = 50_000;
const MAX_USERS = 50_000;
/** A server's interactions are recorded at most this often (the 180-day expiry needs no finer). */
export const TOUCH_INTERVAL_MS = 24 * 60 * 60_000;
/** Servers with no interaction for this long lose their settings in HTTP-only deployments. */
export const IDLE_EXPIRY_MS = 180 * 24 * 60 * 60_000;

/** Where an interaction (or a message) happened, as far as settings care. */
export interface SettingsPlace {
  guildId: string | null;
  channelId: string;
  /** A thread's parent channel, whose choices the thread inherits. */
  parentId?: string;
  userId: string | null;
}

/** A cached server: null when it has no row. */
interface GuildEntry {
  record: GuildRecord | null;
}

interface UserEntry {
  choices: UserChoices | null;
}

type Notice = { guild: string } | { user: string };

export interface SettingsServiceOptions {
  storage: Storage;
  state: Pick<SharedState, 'notices'>;
  logger: Logger;
  now: () => number;
}

export class SettingsService {
  private readonly repository: SettingsRepository;
  private readonly guilds: LRUCache<string, GuildEntry>;
  private readonly users: LRUCache<string, UserEntry>;
  private readonly notices: NoticeChannel;
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(options: SettingsServiceOptions) {
    this.repository = new SettingsRepository(options.storage.db);
    this.now = options.now;
    this.logger = options.logger.child({ component: 'settings' });
    const perf = { now: options.now };
    this.guilds = new LRUCache({ max: MAX_GUILDS, ttl: CACHE_TTL_MS, ttlResolution: 0, perf });
    this.users = new LRUCache({ max: MAX_USERS, ttl: CACHE_TTL_MS, ttlResolution: 0, perf });
    this.notices = options.state.notices('settings');
    this.notices.subscribe(
      (text) => this.drop(text),
      () => {
        this.guilds.clear();
        this.users.clear();
      },
    );
  }

  /**
   * What applies at `place`. From memory once the server and user were read (a first read costs one
   * or two queries); records the server's interaction at most once a day, in the background.
   */
  async at(place: SettingsPlace): Promise<EffectiveSettings> {
    return resolveSettings(await this.choicesAt(place));
  }

  /**
   * A channel's settings as a post made on its own sees them (a subscription's: no member, so no
   * member's language): its language (null: Discord's default for the server) and purity ceiling.
   */
  async effectiveChannelSettings(guildId: string, channelId: string, parentId?: string): Promise<EffectiveSettings> {
    return resolveSettings(await this.choicesAt({ guildId, channelId, ...(parentId === undefined ? {} : { parentId }), userId: null }, false));
  }

  /** What a channel's scheduled posts take from its settings (the scheduler's ChannelPreferences): their language and purity ceiling, when chosen. */
  async postPreferences(
    guildId: string,
    channelId: string,
  ): Promise<{ locale?: NonNullable<EffectiveSettings['publicLanguage']['value']>; purityCeiling?: NonNullable<EffectiveSettings['purityCeiling']['value']> }> {
    const { publicLanguage, purityCeiling } = await this.effectiveChannelSettings(guildId, channelId);
    return { ...(publicLanguage.value === null ? {} : { locale: publicLanguage.value }), ...(purityCeiling.value === null ? {} : { purityCeiling: purityCeiling.value }) };
  }

  /** Every choice that bears on `place`, for `/settings show`. */
  async choicesAt(place: SettingsPlace, touch = true): Promise<StoredChoices> {
    const cachedGuild = place.guildId === null ? undefined : this.guildEntry(place.guildId);
    const cachedUser = place.userId === null ? undefined : this.userEntry(place.userId);
    // Both are usually in memory: no promise to wait for then.
    const [guild, user] = cachedGuild instanceof Promise || cachedUser instanceof Promise ? await Promise.all([cachedGuild, cachedUser]) : [cachedGuild, cachedUser];
    const record = guild?.record ?? null;
    if (record === null && (user?.choices ?? null) === null) return NO_CHOICES;
    if (touch && record !== null && place.guildId !== null) this.touch(place.guildId, record);
    const channels = record === null ? [] : [record.channels.get(place.channelId) ?? null, ...(place.parentId === undefined ? [] : [record.channels.get(place.parentId) ?? null])];
    return { guild: record?.guild ?? null, channels, user: user?.choices ?? null };
  }

  async setGuild(guildId: string, patch: ChoicesPatch<GuildChoices>): Promise<void> {
    await this.repository.setGuild(guildId, patch, this.now());
    await this.changed({ guild: guildId });
  }

  async setChannel(guildId: string, channelId: string, patch: ChoicesPatch<ChannelChoices>): Promise<void> {
    await this.repository.setChannel(guildId, channelId, patch, this.now());
    await this.changed({ guild: guildId });
  }

  async setUser(userId: string, patch: ChoicesPatch<UserChoices>): Promise<void> {
    await this.repository.setUser(userId, patch, this.now());
    await this.changed({ user: userId });
  }

  /** The bot was removed from a server: everything kept for it goes (settings, and by cascade its subscriptions). */
  async forgetGuild(guildId: string): Promise<void> {
    const had = await this.repository.deleteGuild(guildId);
    await this.changed({ guild: guildId });
    if (had) this.logger.info({ guildId }, 'removed from a server: its settings and subscriptions are deleted');
  }

  /** Forgets the settings of servers idle for 180 days (HTTP-only deployments); how many. */
  async expireIdleGuilds(): Promise<number> {
    const now = this.now();
    const expired = await this.repository.expireIdleGuilds(now - IDLE_EXPIRY_MS, now);
    for (const guildId of expired) await this.changed({ guild: guildId });
    if (expired.length > 0) this.logger.info({ servers: expired.length }, 'settings of servers without an interaction for 180 days deleted');
    return expired.length;
  }

  private guildEntry(guildId: string): GuildEntry | Promise<GuildEntry> {
    const cached = this.guilds.get(guildId);
    if (cached !== undefined) return cached;
    return this.repository.guild(guildId).then((record) => {
      const entry = { record };
      this.guilds.set(guildId, entry);
      return entry;
    });
  }

  private userEntry(userId: string): UserEntry | Promise<UserEntry> {
    const cached = this.users.get(userId);
    if (cached !== undefined) return cached;
    return this.repository.user(userId).then((choices) => {
      const entry = { choices };
      this.users.set(userId, entry);
      return entry;
    });
  }

  /**
   * Records an interaction when the last one recorded is a day old: the cached time moves at once,
   * so this process writes once a day, and the update only matches a row still a day old, so the
   * fleet's processes write about once a day between them.
   */
  private touch(guildId: string, record: GuildRecord): void {
    const now = this.now();
    if (now - record.lastInteractionAt < TOUCH_INTERVAL_MS) return;
    record.lastInteractionAt = now;
    this.repository.touchGuild(guildId, now, now - TOUCH_INTERVAL_MS).catch((error: unknown) => this.logger.warn({ err: error, guildId }, 'could not record a server\'s interaction'));
  }

  private async changed(notice: Notice): Promise<void> {
    this.forget(notice);
    await this.notices.publish(JSON.stringify(notice));
  }

  private drop(text: string): void {
    try {
      this.forget(JSON.parse(text) as Notice);
    } catch {
      // Not a notice of this version: the entries expire on their own.
    }
  }

  private forget(notice: Notice): void {
    if ('guild' in notice && typeof notice.guild === 'string') this.guilds.delete(notice.guild);
    if ('user' in notice && typeof notice.user === 'string') this.users.delete(notice.user);
  }
}
