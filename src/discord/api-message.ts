import { MessageFlags, type RawFile, type RESTPatchAPIWebhookWithTokenMessageJSONBody } from 'discord.js';
import type { Reply } from '../interaction/reply.js';
import { completeMessage, type MessageEdit } from '../interaction/routed-interaction.js';

/** A message in Discord's JSON shape, plus the files to upload with it. */
export interface ApiMessage {
  body: RESTPatchAPIWebhookWithTokenMessageJSONBody & { flags?: number };
  files: RawFile[];
}

/**
 * Discord's JSON for the fields an edit sets. Files become `files[n]` uploads described by
 * `attachments` (ids are the upload indexes). Mentions never ping.
 */
export function toApiMessage(edit: MessageEdit): ApiMessage {
  const files = (edit.files ?? []).map((file): RawFile => ({ name: file.name, data: file.data }));
  const fields =
    edit.layout === undefined
      ? {
          ...(edit.content === undefined ? {} : { content: edit.content }),
          ...(edit.embeds === undefined ? {} : { embeds: edit.embeds }),
          ...(edit.components === undefined ? {} : { components: edit.components }),
        }
      : { components: edit.layout, flags: MessageFlags.IsComponentsV2 };
  return {
    body: {
      ...fields,
      ...(edit.files === undefined
        ? {}
        : {
            attachments: edit.files.map((file, index) => ({
              id: String(index),
              filename: file.name,
              ...(file.description ? { description: file.description } : {}),
            })),
          }),
      allowed_mentions: { parse: [] },
    },
    files,
  };
}

/** A new message: unset fields are empty, and only the invoker sees it when it is ephemeral. */
export function toApiReply(reply: Reply): ApiMessage {
  const message = toApiMessage(completeMessage(reply));
  return reply.ephemeral ? { ...message, body: { ...message.body, flags: (message.body.flags ?? 0) | MessageFlags.Ephemeral } } : message;
}
