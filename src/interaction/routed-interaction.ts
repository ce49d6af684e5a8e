import type { AppPermissions, MemberPermissions, AutocompleteChoice, ChannelInfo, Installation, Invoker, OptionValues, PlaceSettings, TargetMessage } from './context.js';
import type { MessagePayload, Reply } from './reply.js';

/**
 * What the router sees of an interaction, whichever transport delivered it: the gateway's dispatch
 * or a signed HTTP request, both read by `src/discord/api-interaction.ts`.
 */

/** Fields to set on an existing message; absent fields stay as they are. */
export type MessageEdit = Pick<MessagePayload, 'content' | 'embeds' | 'components' | 'layout' | 'files'>;

/**
 * How one interaction is acknowledged and its messages written. The first call among `reply`,
 * `deferReply`, `deferUpdate`, `update` and `respond` is the acknowledgement Discord waits 3 s for;
 * the others write through the interaction's webhook (valid 15 minutes).
 */
export interface InteractionResponder {
  /** Acknowledged with a deferral (nothing shown yet but "thinking…" or the untouched message). */
  readonly deferred: boolean;
  /** Acknowledged with a message (a reply or an update). */
  readonly replied: boolean;
  reply(reply: Reply): Promise<void>;
  deferReply(options: { ephemeral: boolean }): Promise<void>;
  /** Components only: acknowledges the press, the message is edited later. */
  deferUpdate(): Promise<void>;
  /** Components only: edits the message the component sits on, as the acknowledgement. */
  update(payload: MessagePayload): Promise<void>;
  /** Autocomplete only. */
  respond(choices: AutocompleteChoice[]): Promise<void>;
  /** Edits the original response (the reply, or the message a component sits on). */
  editReply(edit: MessageEdit): Promise<void>;
  /** Deletes the original response (a public placeholder a refusal must not stay in). */
  deleteReply(): Promise<void>;
  followUp(reply: Reply): Promise<{ id: string }>;
  editFollowUp(messageId: string, edit: MessageEdit): Promise<void>;
}

interface InteractionBase {
  id: string;
  /** The gateway shard it came on (Discord's rule: by guild, DMs on shard 0); absent in HTTP mode. */
  shardId?: number;
  user: Invoker;
  channel: ChannelInfo;
  installation: Installation;
  appPermissions: AppPermissions;
  memberPermissions: MemberPermissions;
  /** What `/settings` chose for this place; set by the router (absent: nothing chosen). */
  settings?: PlaceSettings;
  responder: InteractionResponder;
}

export interface ChatInputInteraction extends InteractionBase {
  kind: 'chat';
  commandName: string;
  options: OptionValues;
}

export interface AutocompleteInteraction extends InteractionBase {
  kind: 'autocomplete';
  commandName: string;
  options: OptionValues;
  /** The option being typed in; null when Discord named none (the request is then answered with no choices). */
  focused: { name: string; value: string } | null;
}

export interface MessageCommandInteraction extends InteractionBase {
  kind: 'message';
  commandName: string;
  targetMessage: TargetMessage;
}

export interface ComponentInteraction extends InteractionBase {
  kind: 'component';
  customId: string;
  /** Selected values for select menus; empty for buttons. */
  values: string[];
  message: {
    id: string;
    createdTimestamp: number;
    /** Who ran the command that created the message, when Discord says. */
    ownerId: string | null;
    /** The interaction that created the message (its idle clock is keyed by it), else the message id. */
    rootId: string;
  };
}

export type RoutedInteraction = ChatInputInteraction | AutocompleteInteraction | MessageCommandInteraction | ComponentInteraction;

/** A full message: what a reply leaves unset is cleared, as a new message would have it (a layout is the whole message). */
export function completeMessage(payload: MessagePayload): MessageEdit {
  if (payload.layout !== undefined) return { layout: payload.layout, files: payload.files ?? [] };
  return { content: payload.content ?? '', embeds: payload.embeds ?? [], components: payload.components ?? [], files: payload.files ?? [] };
}
