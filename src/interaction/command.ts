import type { RESTPostAPIChatInputApplicationCommandsJSONBody, RESTPostAPIContextMenuApplicationCommandsJSONBody } from 'discord.js';
import type { AppServices } from '../app/services.js';
import type { AutocompleteChoice, AutocompleteContext, ChatInputContext, ComponentContext, ComponentResult, MessageContextContext } from './context.js';
import type { Reply } from './reply.js';

/**
 * The transport-neutral contract between the commands and whatever delivers interactions to them
 * (discord.js in production, the terminal CLI, tests). Handlers only see these types, so the same
 * code answers Discord and the CLI.
 */

export interface ChatInputCommand {
  kind: 'chat';
  data: RESTPostAPIChatInputApplicationCommandsJSONBody;
  execute(ctx: ChatInputContext, app: AppServices): Promise<Reply>;
  autocomplete?(ctx: AutocompleteContext, app: AppServices): Promise<AutocompleteChoice[]>;
  /** custom_id prefix (before the first `:`) that routes components to this command. */
  componentPrefix?: string;
  handleComponent?(ctx: ComponentContext, app: AppServices): Promise<ComponentResult>;
}

export interface MessageContextCommand {
  kind: 'message';
  data: RESTPostAPIContextMenuApplicationCommandsJSONBody;
  execute(ctx: MessageContextContext, app: AppServices): Promise<Reply>;
}

export type Command = ChatInputCommand | MessageContextCommand;
