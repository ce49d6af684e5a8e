import { AttachmentBuilder, MessageFlags, type BaseMessageOptions } from 'discord.js';
import type { MessagePayload, Reply } from '../command.js';

/** Converts a renderer's payload to discord.js message options. Mentions never ping. */
export function toMessageOptions(payload: MessagePayload): BaseMessageOptions {
  return {
    content: payload.content ?? '',
    embeds: payload.embeds ?? [],
    components: payload.components ?? [],
    files: (payload.files ?? []).map(
      (file) => new AttachmentBuilder(file.data, { name: file.name, ...(file.description ? { description: file.description } : {}) }),
    ),
    allowedMentions: { parse: [], repliedUser: false },
  };
}

export function toReplyOptions(reply: Reply) {
  return { ...toMessageOptions(reply), ...(reply.ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}) };
}
