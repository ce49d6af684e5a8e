import { GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord.js';
import { LRUCache } from 'lru-cache';

/** The channel fields Discord sends with every interaction, whether or not discord.js caches the channel. */
export interface RawInteractionChannel {
  type: number;
  nsfw?: boolean;
  /** A thread's channel, whose age restriction is the thread's. */
  parentId?: string;
}

/**
 * The channel object of each interaction as Discord sent it. discord.js resolves
 * `interaction.channel` only from its cache, which holds no channels (src/discord/client.ts) — yet
 * the channel's type, age-restricted flag and a thread's parent arrive with the interaction. The
 * gateway's raw dispatch comes just before discord.js emits the interaction, so the router takes
 * the entry at once; the bound only matters for dispatches discord.js drops.
 */
export class RawInteractionChannels {
  private readonly channels = new LRUCache<string, RawInteractionChannel>({ max: 500 });

  /** Listener for discord.js's `raw` event. */
  readonly remember = (packet: GatewayDispatchPayload): void => {
    if (packet.t !== GatewayDispatchEvents.InteractionCreate) return;
    const channel = packet.d.channel;
    if (channel === undefined) return;
    this.channels.set(packet.d.id, {
      type: channel.type,
      ...('nsfw' in channel && channel.nsfw !== undefined ? { nsfw: channel.nsfw } : {}),
      ...('parent_id' in channel && typeof channel.parent_id === 'string' ? { parentId: channel.parent_id } : {}),
    });
  };

  take(interactionId: string): RawInteractionChannel | undefined {
    const channel = this.channels.get(interactionId);
    this.channels.delete(interactionId);
    return channel;
  }
}
