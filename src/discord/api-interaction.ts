import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  InteractionType,
  SnowflakeUtil,
} from 'discord.js';
import type { AttachmentRef, ChannelInfo, OptionValues } from '../interaction/context.js';
import { appPermissionsFrom, installationFrom, memberPermissionsFrom, THREAD_TYPES } from './context.js';
import { isInteractionToken, isSnowflake } from './route-parts.js';
import type { InteractionResponder, RoutedInteraction } from '../interaction/routed-interaction.js';

/**
 * An interaction as Discord sends it, read into what the router sees: in HTTP mode the verified
 * request's body, in gateway mode the INTERACTION_CREATE dispatch's (discord.js builds none of its
 * own objects for it: src/app/gateway.ts). Lenient about fields Almanac does not use; anything it
 * needs but cannot find makes the interaction malformed (HTTP 400, or dropped with a log line), never
 * a crash.
 */

/**
 * The payload's check is written out by hand rather than with a schema library: it runs on every
 * interaction, and a schema's parse (copying each object it checks) was about 4 % of a cached
 * answer's CPU. It refuses exactly what the previous zod schema refused (a property test holds the
 * two side by side): a field Almanac reads must have its type when present (`null` is not absent),
 * and fields it does not read are not looked at. The payload is used as parsed, not copied.
 */

/** One level of options; Discord nests them at most three deep (group → subcommand → option). */
interface ApiOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  focused?: boolean;
  options?: ApiOption[];
}

interface ApiUser {
  id: string;
  username: string;
}

/** An attachment as Discord describes it (in `resolved.attachments` and on messages). */
interface ApiAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
}

interface ApiResolvedMessage {
  id: string;
  content: string;
  attachments?: ApiAttachment[];
}

export interface ApiInteraction {
  id: string;
  application_id: string;
  token: string;
  type: number;
  locale?: string;
  guild_id?: string;
  user?: ApiUser;
  member?: { user: ApiUser; permissions?: string };
  channel_id?: string;
  channel?: { id: string; type: number; nsfw?: boolean; parent_id?: string | null };
  context?: number;
  authorizing_integration_owners?: Record<string, unknown>;
  app_permissions?: string;
  data?: {
    name?: string;
    type?: number;
    options?: ApiOption[];
    target_id?: string;
    resolved?: { messages?: Record<string, ApiResolvedMessage>; attachments?: Record<string, ApiAttachment> };
    custom_id?: string;
    values?: string[];
  };
  message?: { id: string; interaction_metadata?: { id: string; user: { id: string } } };
}

type Check = (value: unknown) => boolean;

/** A JSON object (never an array, nor null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const isString: Check = (value) => typeof value === 'string';
/** JSON's `1e999` parses to Infinity, which is no number Discord sends. */
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isBoolean: Check = (value) => typeof value === 'boolean';
const optional = (value: unknown, check: Check) => value === undefined || check(value);
const arrayOf = (check: Check): Check => (value) => Array.isArray(value) && value.every(check);
/** An object whose every value passes `check` (its keys are strings in JSON). */
const recordOf = (check: Check): Check => (value) => isObject(value) && Object.values(value).every(check);

/**
 * An object whose `required` fields pass their checks, and whose `optional` fields do when present;
 * its other fields are not looked at.
 */
function shape(required: Record<string, Check>, optionalFields: Record<string, Check> = {}): Check {
  const requiredChecks = Object.entries(required);
  const optionalChecks = Object.entries(optionalFields);
  return (value) =>
    isObject(value) && requiredChecks.every(([key, check]) => check(value[key])) && optionalChecks.every(([key, check]) => optional(value[key], check));
}

const isUser = shape({ id: isString, username: isString });
const isAttachment = shape({ id: isString, filename: isString, size: isNumber, url: isString });

/** The deepest level Discord nests options at: an option there has no options of its own. */
const DEEPEST_OPTION = 2;
const isOptionValue: Check = (value) => isString(value) || isNumber(value) || isBoolean(value);
const isOptionFields = shape({ name: isString, type: isNumber }, { value: isOptionValue, focused: isBoolean });

/**
 * One option at `depth` (0 at the top): a fourth level is malformed like any other bad payload,
 * and the depth is checked before going down, so options nested thousands deep never recurse.
 */
function isOption(value: unknown, depth: number): boolean {
  if (!isOptionFields(value)) return false;
  const nested = (value as Record<string, unknown>).options;
  if (nested === undefined) return true;
  return depth < DEEPEST_OPTION && Array.isArray(nested) && nested.every((child) => isOption(child, depth + 1));
}
const isOptions: Check = (value) => Array.isArray(value) && value.every((option) => isOption(option, 0));

const isData = shape(
  {},
  {
    name: isString,
    type: isNumber,
    options: isOptions,
    target_id: isString,
    resolved: shape({}, { messages: recordOf(shape({ id: isString, content: isString }, { attachments: arrayOf(isAttachment) })), attachments: recordOf(isAttachment) }),
    custom_id: isString,
    values: arrayOf(isString),
  },
);

const isApiInteraction = shape(
  { id: isString, application_id: isString, token: (value) => isString(value) && (value as string).length > 0, type: isNumber },
  {
    locale: isString,
    guild_id: isString,
    user: isUser,
    member: shape({ user: isUser }, { permissions: isString }),
    channel_id: isString,
    channel: shape({ id: isString, type: isNumber }, { nsfw: isBoolean, parent_id: (value) => value === null || isString(value) }),
    context: isNumber,
    authorizing_integration_owners: isObject,
    app_permissions: isString,
    data: isData,
    message: shape({ id: isString }, { interaction_metadata: shape({ id: isString, user: shape({ id: isString }) }) }),
  },
);

function attachmentRef(attachment: ApiAttachment): AttachmentRef {
  return { name: attachment.filename, size: attachment.size, url: attachment.url };
}

/** The payload's fields Almanac relies on, or undefined when it is not an interaction at all. */
export function parseApiInteraction(payload: unknown): ApiInteraction | undefined {
  return isApiInteraction(payload) ? (payload as ApiInteraction) : undefined;
}

/**
 * Whether the payload's ids and token are as Discord issues them. Signed does not make them so, and
 * the application id and token go into the webhook's REST routes, the ids into logs and keys: a
 * payload with any other is refused before anything runs. (PING, answered before this, uses none.)
 */
export function hasDiscordIds(payload: ApiInteraction): boolean {
  return (
    isSnowflake(payload.id) &&
    isSnowflake(payload.application_id) &&
    isInteractionToken(payload.token) &&
    [payload.guild_id, payload.channel_id, payload.channel?.id].every((id) => id === undefined || isSnowflake(id))
  );
}

const DEFAULT_LOCALE = 'en-US';

/** What the gateway knows beyond the payload: the shard it came on, and the guilds' age-restricted channels. */
export interface GatewayFacts {
  shardId: number;
  /** Whether the channel of a guild Almanac is in is age-restricted (src/discord/age-restricted-channels.ts). */
  ageRestricted(guildId: string, channelId: string): boolean;
}

/**
 * Where the interaction happened. Discord sends the channel with its age-restricted flag, the
 * freshest; a thread carries no flag of its own: its parent's restriction is its own, which only the
 * gateway's dispatches tell. In HTTP mode (no `gateway`), and for a guild Almanac is not in (a user
 * install), a thread or a channel sent without its flag counts as not age-restricted: the safe side.
 */
export function channelOf(payload: ApiInteraction, gateway?: Pick<GatewayFacts, 'ageRestricted'>): ChannelInfo {
  const channel = payload.channel;
  const guildId = payload.guild_id;
  const id = channel?.id ?? payload.channel_id ?? 'unknown';
  if (guildId === undefined || channel?.type === ChannelType.DM || channel?.type === ChannelType.GroupDM) {
    return { id, kind: 'dm', ageRestricted: false };
  }
  const known = (channelId: string | undefined) => channelId !== undefined && gateway?.ageRestricted(guildId, channelId) === true;
  if (channel && THREAD_TYPES.includes(channel.type)) {
    // A thread's parent (null or absent on other channels), read only when it is an id.
    const parentId = typeof channel.parent_id === 'string' && isSnowflake(channel.parent_id) ? channel.parent_id : undefined;
    return { id, kind: 'thread', ageRestricted: known(parentId), guildId, ...(parentId === undefined ? {} : { parentId }) };
  }
  return { id, kind: 'guild', ageRestricted: channel?.nsfw ?? known(id), guildId };
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
      getChannel: (name) => {
        const id = typed<string>(name, ApplicationCommandOptionType.Channel, 'string');
        return id !== null && isSnowflake(id) ? id : null;
      },
    },
  };
}

/**
 * The router's view of a verified payload, or undefined for an interaction Almanac never asks for
 * (PING is answered before this; modals are never opened).
 */
export function toRoutedInteraction(payload: ApiInteraction, responder: InteractionResponder, gateway?: GatewayFacts): RoutedInteraction | undefined {
  const author = payload.member?.user ?? payload.user;
  if (!author) return undefined;
  const base = {
    id: payload.id,
    ...(gateway === undefined ? {} : { shardId: gateway.shardId }),
    user: { id: author.id, username: author.username, locale: payload.locale ?? DEFAULT_LOCALE },
    channel: channelOf(payload, gateway),
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
