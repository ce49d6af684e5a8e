import { GatewayDispatchEvents, type APIChannel, type GatewayDispatchPayload } from 'discord.js';

/**
 * The age-restricted channels of the guilds Almanac is in, kept from the gateway's raw dispatches
 * (discord.js caches no channels: src/discord/client.ts). An interaction says whether its own
 * channel is age-restricted, but a thread's restriction is its parent's, which only these
 * dispatches tell. Only restricted channels are held (few), by guild, so a guild that leaves or is
 * replaced by a fresh GUILD_CREATE takes its channels with it.
 */
export class AgeRestrictedChannels {
  /** Guild id → its age-restricted channels; guilds with none are absent. */
  private readonly byGuild = new Map<string, Set<string>>();

  /** Listener for discord.js's `raw` event. */
  readonly remember = (packet: GatewayDispatchPayload): void => {
    switch (packet.t) {
      case GatewayDispatchEvents.GuildCreate:
        this.byGuild.delete(packet.d.id);
        for (const channel of packet.d.channels) this.update(packet.d.id, channel);
        break;
      case GatewayDispatchEvents.GuildDelete:
        this.byGuild.delete(packet.d.id);
        break;
      case GatewayDispatchEvents.ChannelCreate:
      case GatewayDispatchEvents.ChannelUpdate:
        if ('guild_id' in packet.d && packet.d.guild_id !== undefined) this.update(packet.d.guild_id, packet.d);
        break;
      case GatewayDispatchEvents.ChannelDelete:
        if ('guild_id' in packet.d && packet.d.guild_id !== undefined) this.remove(packet.d.guild_id, packet.d.id);
        break;
      default:
        break;
    }
  };

  has(guildId: string, channelId: string): boolean {
    return this.byGuild.get(guildId)?.has(channelId) ?? false;
  }

  private update(guildId: string, channel: APIChannel): void {
    if (!('nsfw' in channel) || channel.nsfw !== true) {
      this.remove(guildId, channel.id);
      return;
    }
    let channels = this.byGuild.get(guildId);
    if (channels === undefined) this.byGuild.set(guildId, (channels = new Set()));
    channels.add(channel.id);
  }

  private remove(guildId: string, channelId: string): void {
    const channels = this.byGuild.get(guildId);
    if (channels?.delete(channelId) === true && channels.size === 0) this.byGuild.delete(guildId);
  }
}
