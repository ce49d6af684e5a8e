import {
  DiscordAPIError,
  GatewayDispatchEvents,
  MessageType,
  PermissionFlagsBits,
  Routes,
  type APIMessage,
  type Client,
  type GatewayDispatchPayload,
  type GatewayMessageUpdateDispatchData,
} from 'discord.js';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { toApiReply } from './api-message.js';
import type { ChannelPermissions } from './channel-permissions.js';
import { messageRequest } from './rest-request.js';
import { routeId } from './route-parts.js';
import type { ChannelAccess, ChatChannels, ChatMessage, ChatMessageHandler, ChatMessageRef } from '../inline/chat.js';
import type { MessagePayload } from '../interaction/reply.js';
import { wellFormed } from '../interaction/well-formed.js';

/**
 * The gateway's side of messages (`MESSAGE_SEARCH=true`): its message dispatches as chat messages,
 * and posting, editing and deleting answers in channels over REST.
 *
 * The raw dispatches are read, not discord.js's message events: discord.js keeps no message or
 * channel here (src/discord/client.ts), and emits a message, its edit or deletion in a channel it
 * does not hold only with partials; the raw payload has everything, for all three alike.
 */

/** Kinds of message people write; joins, pins, boosts and the like are never answered. */
const WRITTEN = new Set<number>([MessageType.Default, MessageType.Reply]);
/** How long a channel that refused a post (403) is left alone, whatever the cache says about it. */
const REFUSED_FOR_MS = 10 * 60_000;

type MessageData = Pick<APIMessage, 'id' | 'channel_id' | 'content'> &
  Partial<Pick<APIMessage, 'author' | 'webhook_id' | 'type'>> &
  Pick<GatewayMessageUpdateDispatchData, 'guild_id'>;

function refOf(data: { id: string; channel_id: string; guild_id?: string }): ChatMessageRef {
  return { id: data.id, channelId: data.channel_id, guildId: data.guild_id ?? null };
}

/**
 * A listener for discord.js's `raw` event that hands each message dispatch to `handler`. An edit
 * without text (an embed unfurled) or without its author is no edit of what was written. The text
 * is made well-formed here, at the transport boundary, as the router does for interactions: a name
 * read from it is quoted back in a public reply.
 */
export function messageDispatchListener(client: Client, handler: ChatMessageHandler): (packet: GatewayDispatchPayload) => void {
  const chatMessage = (data: MessageData): ChatMessage | undefined => {
    if (data.author === undefined || typeof data.content !== 'string') return undefined;
    if (data.type !== undefined && !WRITTEN.has(data.type)) return undefined;
    const byBot = data.author.bot === true || data.webhook_id !== undefined || data.author.id === client.user?.id;
    return { ...refOf(data), authorId: data.author.id, byBot, content: wellFormed(data.content) };
  };
  return (packet) => {
    switch (packet.t) {
      case GatewayDispatchEvents.MessageCreate: {
        const message = chatMessage(packet.d);
        if (message) void handler.created(message);
        break;
      }
      case GatewayDispatchEvents.MessageUpdate: {
        const message = chatMessage(packet.d);
        if (message) void handler.updated(message);
        break;
      }
      case GatewayDispatchEvents.MessageDelete:
        void handler.deleted(refOf(packet.d));
        break;
      case GatewayDispatchEvents.MessageDeleteBulk:
        for (const id of packet.d.ids) void handler.deleted(refOf({ ...packet.d, id }));
        break;
      default:
        break;
    }
  };
}

/**
 * Where Almanac may post, worked out from the permission data of `ChannelPermissions` (the Guilds
 * intent's dispatches keep channels, their overwrites, roles and Almanac's own member current):
 * message dispatches carry no `app_permissions`. A channel Discord refused anyway (that data was
 * behind) is left alone for ten minutes: every refused post counts towards Discord's 10,000 invalid
 * requests in 10 minutes.
 */
export class DiscordChatChannels implements ChatChannels {
  private readonly refused = new LRUCache<string, true>({ max: 10_000, ttl: REFUSED_FOR_MS });

  constructor(
    private readonly client: Client,
    private readonly permissions: ChannelPermissions,
    private readonly logger: Logger,
  ) {}

  access(message: ChatMessageRef): ChannelAccess | null {
    if (this.refused.has(message.channelId)) return null;
    // A DM: the person just wrote to Almanac, which may answer and attach there.
    if (message.guildId === null) return { attachFiles: true };
    const permissions = this.permissionsIn(message);
    if (permissions === null) return null;
    const { ViewChannel, EmbedLinks, AttachFiles } = PermissionFlagsBits;
    return permissions.has(ViewChannel | permissions.post | EmbedLinks) ? { attachFiles: permissions.has(AttachFiles) } : null;
  }

  locale(message: ChatMessageRef): string {
    return (message.guildId === null ? undefined : this.client.guilds.cache.get(message.guildId)?.preferredLocale) ?? 'en-US';
  }

  async send(source: ChatMessageRef, payload: MessagePayload): Promise<string> {
    const { body, files } = toApiReply(payload);
    // Replying needs Read Message History; without it the answer is posted as a plain message.
    const canReply = source.guildId === null || (this.permissionsIn(source)?.has(PermissionFlagsBits.ReadMessageHistory) ?? false);
    const reference = canReply ? { message_reference: { message_id: source.id, fail_if_not_exists: false } } : {};
    const sent = (await this.write(source.channelId, () =>
      this.client.rest.post(Routes.channelMessages(routeId(source.channelId)), messageRequest({ ...body, ...reference }, files)),
    )) as APIMessage;
    return sent.id;
  }

  async edit(channelId: string, messageId: string, payload: MessagePayload): Promise<void> {
    const { body, files } = toApiReply(payload);
    await this.write(channelId, () => this.client.rest.patch(Routes.channelMessage(routeId(channelId), routeId(messageId)), messageRequest(body, files)));
  }

  async delete(channelId: string, messageId: string): Promise<void> {
    await this.write(channelId, () => this.client.rest.delete(Routes.channelMessage(routeId(channelId), routeId(messageId))));
  }

  /** Almanac's permissions in the channel, and which of them lets it post there; null when it cannot post or cannot tell. */
  private permissionsIn(message: ChatMessageRef): { has(bits: bigint): boolean; post: bigint } | null {
    const found = message.guildId === null ? null : this.permissions.permissionsIn(message.guildId, message.channelId);
    if (found === null) return null;
    const post = found.thread ? PermissionFlagsBits.SendMessagesInThreads : PermissionFlagsBits.SendMessages;
    return { has: (bits) => (found.permissions & bits) === bits, post };
  }

  private async write<T>(channelId: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof DiscordAPIError && error.status === 403) {
        this.refused.set(channelId, true);
        this.logger.info({ channelId, code: error.code }, 'Discord refused a post in a channel; no cards named inline answered there for 10 minutes');
      }
      throw error;
    }
  }
}
