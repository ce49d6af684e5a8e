import { InteractionResponseType, MessageFlags, type RawFile } from 'discord.js';
import type { AutocompleteChoice } from '../interaction/context.js';
import type { MessagePayload, Reply } from '../interaction/reply.js';
import { completeMessage, type InteractionResponder, type MessageEdit } from '../interaction/routed-interaction.js';
import { toApiMessage, toApiReply } from './api-message.js';
import type { InteractionWebhook, WebhookWriter } from './webhook-writer.js';

/** An interaction's acknowledgement: the HTTP response body in HTTP mode, the callback route's body in gateway mode. */
export interface InitialResponse {
  type: InteractionResponseType;
  data?: object;
  files: RawFile[];
}

/** The JSON Discord reads an acknowledgement from, in both modes (its files go beside it). */
export function initialResponseJson({ type, data }: InitialResponse): { type: InteractionResponseType; data?: object } {
  return data ? { type, data } : { type };
}

/**
 * Answers one interaction in Discord's own terms, in both modes: the acknowledgement goes through
 * `send` — the body of the pending HTTP response in HTTP mode, the interaction's callback route in
 * gateway mode — and every later write through the interaction's webhook. discord.js's own
 * responses were built through its MessagePayload and a snake-casing of every option: about a
 * quarter of what a cached interaction allocated.
 */
export class DiscordResponder implements InteractionResponder {
  deferred = false;
  replied = false;
  private acknowledged = false;

  constructor(
    private readonly webhook: InteractionWebhook,
    private readonly writer: WebhookWriter,
    private readonly send: (response: InitialResponse) => Promise<void>,
  ) {}

  async reply(reply: Reply): Promise<void> {
    const { body, files } = toApiReply(reply);
    await this.acknowledge({ type: InteractionResponseType.ChannelMessageWithSource, data: body, files });
    this.replied = true;
  }

  async deferReply({ ephemeral }: { ephemeral: boolean }): Promise<void> {
    await this.acknowledge({
      type: InteractionResponseType.DeferredChannelMessageWithSource,
      ...(ephemeral ? { data: { flags: MessageFlags.Ephemeral } } : {}),
      files: [],
    });
    this.deferred = true;
  }

  async deferUpdate(): Promise<void> {
    await this.acknowledge({ type: InteractionResponseType.DeferredMessageUpdate, files: [] });
    this.deferred = true;
  }

  async update(payload: MessagePayload): Promise<void> {
    const { body, files } = toApiMessage(completeMessage(payload));
    await this.acknowledge({ type: InteractionResponseType.UpdateMessage, data: body, files });
    this.replied = true;
  }

  async respond(choices: AutocompleteChoice[]): Promise<void> {
    await this.acknowledge({ type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices }, files: [] });
    this.replied = true;
  }

  async editReply(edit: MessageEdit): Promise<void> {
    this.requireAcknowledged();
    await this.writer.edit(this.webhook, '@original', edit);
  }

  async deleteReply(): Promise<void> {
    this.requireAcknowledged();
    await this.writer.delete(this.webhook, '@original');
  }

  followUp(reply: Reply): Promise<{ id: string }> {
    this.requireAcknowledged();
    return this.writer.followUp(this.webhook, reply);
  }

  async editFollowUp(messageId: string, edit: MessageEdit): Promise<void> {
    await this.writer.edit(this.webhook, messageId, edit);
  }

  private async acknowledge(response: InitialResponse): Promise<void> {
    // As discord.js refuses a second acknowledgement, so does this transport: Discord would reject it.
    if (this.acknowledged) throw new Error('The interaction has already been acknowledged');
    this.acknowledged = true;
    await this.send(response);
  }

  private requireAcknowledged(): void {
    if (!this.acknowledged) throw new Error('The interaction has not been acknowledged yet');
  }
}
