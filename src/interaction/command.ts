import type { RESTPostAPIChatInputApplicationCommandsJSONBody, RESTPostAPIContextMenuApplicationCommandsJSONBody } from 'discord.js';
import type { AutocompleteChoice, AutocompleteContext, ChatInputContext, ComponentContext, ComponentResult, MessageContextContext } from './context.js';
import type { Reply } from './reply.js';

/**
 * The transport-neutral contract between the commands and whatever delivers interactions to them
 * (discord.js in production, the terminal CLI, tests). Handlers only see these types, so the same
 * code answers Discord and the CLI. `S` is what every handler is given besides its context: the
 * app's services, which the kernel never looks into (the app supplies their type).
 */

export interface ChatInputCommand<S> {
  kind: 'chat';
  data: RESTPostAPIChatInputApplicationCommandsJSONBody;
  execute(ctx: ChatInputContext, services: S): Promise<Reply>;
  autocomplete?(ctx: AutocompleteContext, services: S): Promise<AutocompleteChoice[]>;
  /** custom_id prefix (before the first `:`) that routes components to this command. */
  componentPrefix?: string;
  handleComponent?(ctx: ComponentContext, services: S): Promise<ComponentResult>;
}

export interface MessageContextCommand<S> {
  kind: 'message';
  data: RESTPostAPIContextMenuApplicationCommandsJSONBody;
  execute(ctx: MessageContextContext, services: S): Promise<Reply>;
}

export type Command<S> = ChatInputCommand<S> | MessageContextCommand<S>;
