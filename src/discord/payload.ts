import { AttachmentBuilder, MessageFlags, type BaseMessageOptions } from 'discord.js';
import type { Attachment, MessagePayload, Reply } from '../interaction/reply.js';
import { completeMessage, type MessageEdit } from '../interaction/routed-interaction.js';

const NO_MENTIONS = { parse: [], repliedUser: false } satisfies BaseMessageOptions['allowedMentions'];

function toAttachmentBuilder(file: Attachment): AttachmentBuilder {
  return new AttachmentBuilder(file.data, { name: file.name, ...(file.description ? { description: file.description } : {}) });
}

/** Converts the fields an edit sets to discord.js message options. Mentions never ping. */
export function toEditOptions(edit: MessageEdit): BaseMessageOptions {
  return {
    ...(edit.content === undefined ? {} : { content: edit.content }),
    ...(edit.embeds === undefined ? {} : { embeds: edit.embeds }),
    ...(edit.components === undefined ? {} : { components: edit.components }),
    ...(edit.files === undefined ? {} : { files: edit.files.map(toAttachmentBuilder) }),
    allowedMentions: NO_MENTIONS,
  };
}

/** Converts a renderer's payload to discord.js message options. Mentions never ping. */
export function toMessageOptions(payload: MessagePayload): BaseMessageOptions {
  return toEditOptions(completeMessage(payload));
}

export function toReplyOptions(reply: Reply) {
  return { ...toMessageOptions(reply), ...(reply.ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}) };
}
