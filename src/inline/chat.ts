import type { MessagePayload } from '../interaction/reply.js';

/**
 * Messages as cards named inline see them, whatever transport delivers them (today the gateway's
 * message dispatches, src/discord/message-events.ts), and what that transport must do for them.
 */

/** Which message: enough to answer it, edit or delete the answer. */
export interface ChatMessageRef {
  id: string;
  channelId: string;
  /** Null in a DM. */
  guildId: string | null;
}

export interface ChatMessage extends ChatMessageRef {
  authorId: string;
  /** Written by a bot, a webhook or Almanac itself: never answered. */
  byBot: boolean;
  content: string;
}

/** What Almanac may do where a message was written, as far as the transport knows. */
export interface ChannelAccess {
  attachFiles: boolean;
}

export interface ChatChannels {
  /**
   * Whether Almanac may post its answer in the channel (null: it may not, or it cannot tell, and so
   * stays silent: every refused post is an invalid request Discord counts against the bot).
   */
  access(message: ChatMessageRef): ChannelAccess | null;
  /** The Discord locale answers there are written in: the server's preferred locale (English in DMs). */
  locale(message: ChatMessageRef): string;
  /** Posts `payload` as a reply to `source`; resolves to the new message's id. */
  send(source: ChatMessageRef, payload: MessagePayload): Promise<string>;
  edit(channelId: string, messageId: string, payload: MessagePayload): Promise<void>;
  delete(channelId: string, messageId: string): Promise<void>;
}

/** What a transport tells about messages (the gateway's MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE). */
export interface ChatMessageHandler {
  created(message: ChatMessage): Promise<void>;
  updated(message: ChatMessage): Promise<void>;
  deleted(message: ChatMessageRef): Promise<void>;
}
