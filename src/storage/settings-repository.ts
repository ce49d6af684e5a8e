import type { Kysely } from 'kysely';
import type { ChannelChoices, GuildChoices, UserChoices } from '../settings/settings.js';
import type { Database, Flag } from './schema.js';

/**
 * The settings tables (guilds, channel_settings, user_settings) read and written as the settings
 * domain sees them (src/settings/settings.ts): yes/no as booleans, a null as "not chosen here".
 * The same queries on SQLite and PostgreSQL.
 */

/** A server's choices and all of its channels', read at once: the settings cache holds a server whole. */
export interface GuildRecord {
  guild: GuildChoices;
  lastInteractionAt: number;
  channels: ReadonlyMap<string, ChannelChoices>;
}

/** A change to some of a scope's choices; absent keys stay as they are, a null clears one. */
export type ChoicesPatch<T> = Partial<T>;

function flagOf(value: boolean | null): Flag | null {
  return value === null ? null : value ? 1 : 0;
}

function booleanOf(flag: Flag | null): boolean | null {
  return flag === null ? null : flag === 1;
}

/** The columns a patch sets, with `updated_at`. */
function channelColumns(patch: ChoicesPatch<ChannelChoices>) {
  return {
    ...(patch.language === undefined ? {} : { language: patch.language }),
    ...(patch.inlineCards === undefined ? {} : { inline_cards: flagOf(patch.inlineCards) }),
    ...(patch.wallpaperPurity === undefined ? {} : { wallpaper_purity: patch.wallpaperPurity }),
  };
}

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A server's record, or null when it has none (it chose nothing, or was forgotten). */
  async guild(guildId: string): Promise<GuildRecord | null> {
    const row = await this.db.selectFrom('guilds').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
    if (row === undefined) return null;
    const channelRows = await this.db.selectFrom('channel_settings').selectAll().where('guild_id', '=', guildId).execute();
    const channels = new Map<string, ChannelChoices>();
    for (const channel of channelRows) {
      channels.set(channel.channel_id, { language: channel.language, inlineCards: booleanOf(channel.inline_cards), wallpaperPurity: channel.wallpaper_purity });
    }
    return {
      guild: { language: row.language, inlineCards: booleanOf(row.inline_cards), ipAnswers: row.ip_answers, wallpaperPurity: row.wallpaper_purity },
      lastInteractionAt: row.last_interaction_at,
      channels,
    };
  }

  async user(userId: string): Promise<UserChoices | null> {
    const row = await this.db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return row === undefined ? null : { language: row.language, ipAnswers: row.ip_answers };
  }

  /**
   * Changes a server's choices, making its row when it has none (an interaction now: the 180-day
   * expiry starts over).
   */
  async setGuild(guildId: string, patch: ChoicesPatch<GuildChoices>, now: number): Promise<void> {
    const columns = { ...channelColumns(patch), ...(patch.ipAnswers === undefined ? {} : { ip_answers: patch.ipAnswers }) };
    await this.db
      .insertInto('guilds')
      .values({ guild_id: guildId, language: null, inline_cards: null, ip_answers: null, wallpaper_purity: null, ...columns, last_interaction_at: now, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.column('guild_id').doUpdateSet({ ...columns, last_interaction_at: now, updated_at: now }))
      .execute();
  }

  /** Changes one channel's choices (its server's row made first when missing: the channel's hangs off it). */
  async setChannel(guildId: string, channelId: string, patch: ChoicesPatch<ChannelChoices>, now: number): Promise<void> {
    const columns = channelColumns(patch);
    await this.db.transaction().execute(async (trx) => {
      await new SettingsRepository(trx).setGuild(guildId, {}, now);
      await trx
        .insertInto('channel_settings')
        .values({ channel_id: channelId, guild_id: guildId, language: null, inline_cards: null, wallpaper_purity: null, ...columns, updated_at: now })
        .onConflict((conflict) => conflict.column('channel_id').doUpdateSet({ ...columns, guild_id: guildId, updated_at: now }))
        .execute();
    });
  }

  async setUser(userId: string, patch: ChoicesPatch<UserChoices>, now: number): Promise<void> {
    const columns = {
      ...(patch.language === undefined ? {} : { language: patch.language }),
      ...(patch.ipAnswers === undefined ? {} : { ip_answers: patch.ipAnswers }),
    };
    await this.db
      .insertInto('user_settings')
      .values({ user_id: userId, language: null, ip_answers: null, ...columns, updated_at: now })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...columns, updated_at: now }))
      .execute();
  }

  /**
   * Records an interaction from a server that has a row, unless one was recorded since `since`
   * (so that a fleet's processes write it about once a day between them). Makes no row.
   */
  async touchGuild(guildId: string, now: number, since: number): Promise<void> {
    await this.db.updateTable('guilds').set({ last_interaction_at: now }).where('guild_id', '=', guildId).where('last_interaction_at', '<', since).execute();
  }

  /** Forgets a server: its row and, by cascade, everything hanging off it (channels, subscriptions, history). True when it had a row. */
  async deleteGuild(guildId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('guilds').where('guild_id', '=', guildId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Forgets the settings of servers with no interaction since `before` (HTTP-only deployments get
   * no event when the bot is removed). A server that still has subscriptions keeps its row and
   * them (they expire on their own terms) but loses its choices and its channels'. The servers touched.
   */
  async expireIdleGuilds(before: number, now: number): Promise<string[]> {
    // Looked for outside a transaction: most sweeps find nothing, and open none.
    const idle = await this.db.selectFrom('guilds').select('guild_id').where('last_interaction_at', '<', before).execute();
    if (idle.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const idleIds = trx.selectFrom('guilds').select('guild_id').where('last_interaction_at', '<', before);
      await trx
        .deleteFrom('guilds')
        .where('last_interaction_at', '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('subscriptions').select('subscriptions.guild_id').whereRef('subscriptions.guild_id', '=', 'guilds.guild_id'))),
        )
        .execute();
      await trx.deleteFrom('channel_settings').where('guild_id', 'in', idleIds).execute();
      await trx
        .updateTable('guilds')
        .set({ language: null, inline_cards: null, ip_answers: null, wallpaper_purity: null, updated_at: now })
        .where('last_interaction_at', '<', before)
        .execute();
      return idle.map((row) => row.guild_id);
    });
  }
}
