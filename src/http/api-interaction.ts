import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  InteractionType,
  SnowflakeUtil,
} from 'discord.js';
import { z } from 'zod';
import type { AttachmentRef, ChannelInfo, OptionValues } from '../interaction/context.js';
import { appPermissionsFrom, installationFrom, memberPermissionsFrom, THREAD_TYPES } from '../discord/context.js';
import type { InteractionResponder, RoutedInteraction } from '../interaction/routed-interaction.js';

/**
 * HTTP mode: an interaction as Discord posts it (already verified as Discord's), read into what the
 * router sees. Lenient about fields Almanac does not use; anything it needs but cannot find makes the
 * request malformed (400), never a crash.
 */

/** What each level of options has in common. */
const optionFields = {
  name: z.string(),
  type: z.number(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  focused: z.boolean().optional(),
};

/**
 * Discord nests options at most three deep (group → subcommand → option), so the schema spells out
 * exactly three levels: a fourth is malformed (400) like any other bad payload, and no check
 * recurses, so options nested thousands deep cannot overflow the stack.
 */
const leafOption = z.object({ ...optionFields, options: z.never().optional() });
const subcommandOption = z.object({ ...optionFields, options: z.array(leafOption).optional() });
const topOption = z.object({ ...optionFields, options: z.array(subcommandOption).optional() });

type ApiOption = z.infer<typeof topOption> | z.infer<typeof subcommandOption> | z.infer<typeof leafOption>;

const apiUser = z.object({ id: z.string(), username: z.string() });

/** An attachment as Discord describes it (in `resolved.attachments` and on messages). */
const apiAttachment = z.object({ id: z.string(), filename: z.string(), size: z.number(), url: z.string() });
type ApiAttachment = z.infer<typeof apiAttachment>;

function attachmentRef(attachment: ApiAttachment): AttachmentRef {
  return { name: attachment.filename, size: attachment.size, url: attachment.url };
}

const apiInteraction = z.object({
  id: z.string(),
  application_id: z.string(),
  token: z.string().min(1),
  type: z.number(),
  locale: z.string().optional(),
  guild_id: z.string().optional(),
  user: apiUser.optional(),
  member: z.object({ user: apiUser, permissions: z.string().optional() }).optional(),
  channel_id: z.string().optional(),
  channel: z.object({ id: z.string(), type: z.number(), nsfw: z.boolean().optional() }).optional(),
  context: z.number().optional(),
  authorizing_integration_owners: z.record(z.string(), z.unknown()).optional(),
  app_permissions: z.string().optional(),
  data: z
    .looseObject({
      name: z.string().optional(),
      type: z.number().optional(),
      options: z.array(topOption).optional(),
      target_id: z.string().optional(),
      resolved: z
        .looseObject({
          messages: z.record(z.string(), z.object({ id: z.string(), content: z.string(), attachments: z.array(apiAttachment).optional() })).optional(),
          attachments: z.record(z.string(), apiAttachment).optional(),
        })
        .optional(),
      custom_id: z.string().optional(),
      values: z.array(z.string()).optional(),
    })
    .optional(),
  message: z
    .looseObject({
      id: z.string(),
      interaction_metadata: z.object({ id: z.string(), user: z.object({ id: z.string() }) }).optional(),
    })
    .optional(),
});

export type ApiInteraction = z.infer<typeof apiInteraction>;

/** The payload's fields Almanac relies on, or undefined when it is not an interaction at all. */
export function parseApiInteraction(payload: unknown): ApiInteraction | undefined {
  const parsed = apiInteraction.safeParse(payload);
  return parsed.success ? parsed.data : undefined;
}

const DEFAULT_LOCALE = 'en-US';

/**
 * Where the interaction happened. Discord sends the channel with its age-restricted flag; a thread
 * carries no flag of its own and HTTP mode has no cache of its parent, so it counts as not
 * age-restricted: the safe side for gating.
 */
function channelOf(payload: ApiInteraction): ChannelInfo {
  const channel = payload.channel;
  const id = channel?.id ?? payload.channel_id ?? 'unknown';
  if (payload.guild_id === undefined || channel?.type === ChannelType.DM || channel?.type === ChannelType.GroupDM) {
    return { id, kind: 'dm', ageRestricted: false };
  }
  if (channel && THREAD_TYPES.includes(channel.type)) return { id, kind: 'thread', ageRestricted: false };
  return { id, kind: 'guild', ageRestricted: channel?.nsfw === true };
}

/** Permission bits sent as a decimal string; none when absent or malformed: the safe side. */
function permissionBits(bits: string | undefined): bigint {
  try {
    return BigInt(bits ?? '0');
  } catch {
    return 0n;
  }
}

/** The subcommand (inside its group, if any) and the options typed for it, as discord.js resolves them. */
function commandOptions(options: ApiOption[] = []): { subcommand: string | null; leaves: ApiOption[] } {
  const group = options.find((option) => option.type === ApplicationCommandOptionType.SubcommandGroup);
  const level = group?.options ?? options;
  const subcommand = level.find((option) => option.type === ApplicationCommandOptionType.Subcommand);
  return subcommand ? { subcommand: subcommand.name, leaves: subcommand.options ?? [] } : { subcommand: null, leaves: level };
}

function optionValues(
  options: ApiOption[] | undefined,
  attachments: Readonly<Record<string, ApiAttachment>> = {},
): { values: OptionValues; leaves: ApiOption[] } {
  const { subcommand, leaves } = commandOptions(options);
  const typed = <T extends string | number | boolean>(name: string, type: ApplicationCommandOptionType, kind: string): T | null => {
    const option = leaves.find((candidate) => candidate.name === name && candidate.type === type);
    return option !== undefined && typeof option.value === kind ? (option.value as T) : null;
  };
  return {
    leaves,
    values: {
      subcommand,
      getString: (name) => typed<string>(name, ApplicationCommandOptionType.String, 'string'),
      getBoolean: (name) => typed<boolean>(name, ApplicationCommandOptionType.Boolean, 'boolean'),
      getInteger: (name) => typed<number>(name, ApplicationCommandOptionType.Integer, 'number'),
      getAttachment: (name) => {
        // The option holds the attachment's id; what it is, Discord says in `resolved.attachments`.
        const id = typed<string>(name, ApplicationCommandOptionType.Attachment, 'string');
        const attachment = id === null || !Object.hasOwn(attachments, id) ? undefined : attachments[id];
        return attachment === undefined ? null : attachmentRef(attachment);
      },
    },
  };
}

/**
 * The router's view of a verified payload, or undefined for an interaction Almanac never asks for
 * (PING is answered before this; modals are never opened).
 */
export function toRoutedInteraction(payload: ApiInteraction, responder: InteractionResponder): RoutedInteraction | undefined {
  const author = payload.member?.user ?? payload.user;
  if (!author) return undefined;
  const base = {
    id: payload.id,
    user: { id: author.id, username: author.username, locale: payload.locale ?? DEFAULT_LOCALE },
    channel: channelOf(payload),
    installation: installationFrom(payload.context, payload.guild_id !== undefined, payload.authorizing_integration_owners ?? {}),
    appPermissions: appPermissionsFrom(permissionBits(payload.app_permissions)),
    memberPermissions: memberPermissionsFrom(payload.member ? permissionBits(payload.member.permissions) : null),
    responder,
  };
  const data = payload.data;
  switch (payload.type) {
    case InteractionType.ApplicationCommand: {
      if (data?.name === undefined) return undefined;
      if (data.type === ApplicationCommandType.Message) {
        const target = data.target_id === undefined ? undefined : data.resolved?.messages?.[data.target_id];
        if (!target) return undefined;
        const targetMessage = { id: target.id, content: target.content, attachments: (target.attachments ?? []).map(attachmentRef) };
        return { ...base, kind: 'message', commandName: data.name, targetMessage };
      }
      return { ...base, kind: 'chat', commandName: data.name, options: optionValues(data.options, data.resolved?.attachments).values };
    }
    case InteractionType.ApplicationCommandAutocomplete: {
      if (data?.name === undefined) return undefined;
      const { values, leaves } = optionValues(data.options);
      const focused = leaves.find((option) => option.focused === true);
      return {
        ...base,
        kind: 'autocomplete',
        commandName: data.name,
        options: values,
        focused: focused ? { name: focused.name, value: String(focused.value ?? '') } : null,
      };
    }
    case InteractionType.MessageComponent: {
      const message = payload.message;
      if (data?.custom_id === undefined || !message) return undefined;
      return {
        ...base,
        kind: 'component',
        customId: data.custom_id,
        values: data.values ?? [],
        message: {
          id: message.id,
          createdTimestamp: snowflakeTime(message.id),
          ownerId: message.interaction_metadata?.user.id ?? null,
          rootId: message.interaction_metadata?.id ?? message.id,
        },
      };
    }
    default:
      return undefined;
  }
}

function snowflakeTime(id: string): number {
  try {
    return SnowflakeUtil.timestampFrom(id);
  } catch {
    return 0;
  }
}
