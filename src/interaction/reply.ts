import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed, APIMessageTopLevelComponent } from 'discord.js';

/**
 * What a command answers, whatever the transport: the type renderers build. It depends on nothing
 * of Almanac's (only on Discord's payload types), so a renderer never reaches a service through it.
 */

export interface Attachment {
  name: string;
  data: Buffer;
  description?: string;
}

export type ActionRow = APIActionRowComponent<APIComponentInMessageActionRow>;

export interface MessagePayload {
  content?: string;
  embeds?: APIEmbed[];
  components?: ActionRow[];
  /**
   * A Components V2 message (flag `IS_COMPONENTS_V2`): its whole layout, in place of `content`,
   * `embeds` and `components`, which the transport then leaves out (Discord refuses them beside the
   * flag, and a message keeps the flag once set).
   */
  layout?: APIMessageTopLevelComponent[];
  files?: Attachment[];
  /**
   * Disable this message's buttons and menus after this long without another press on them (the
   * transport edits the message; each new press on it restarts the clock). Not part of Discord's
   * payload.
   */
  disableComponentsAfterMs?: number;
}

export interface Reply extends MessagePayload {
  /** Only the invoking user sees the message. Ignored when the interaction was already deferred. */
  ephemeral?: boolean;
  /**
   * A fuller version of this message still being made (a deck picture waiting for art downloaded in
   * the background): the transport replaces the message with it once it resolves. Not part of
   * Discord's payload.
   */
  completion?: Promise<MessagePayload>;
}
