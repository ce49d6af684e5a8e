import { Routes, type APIMessage, type REST } from 'discord.js';
import type { Reply } from '../interaction/reply.js';
import type { MessageEdit } from '../interaction/routed-interaction.js';
import { toApiMessage, toApiReply } from './api-message.js';
import { messageRequest } from './rest-request.js';

/** The interaction a webhook route belongs to: its application and its 15-minute token. */
export interface InteractionWebhook {
  applicationId: string;
  token: string;
}

/**
 * Edits and follow-ups of interactions, through the webhook routes on DISCORD_API_URL with the
 * mode's REST client (its per-route rate-limit buckets); webhook routes are authorised by their
 * token, so no bot token is needed.
 */
export class WebhookWriter {
  constructor(private readonly rest: REST) {}

  async edit(webhook: InteractionWebhook, messageId: string, edit: MessageEdit): Promise<void> {
    const { body, files } = toApiMessage(edit);
    await this.rest.patch(Routes.webhookMessage(webhook.applicationId, webhook.token, messageId), { ...messageRequest(body, files), auth: false });
  }

  async delete(webhook: InteractionWebhook, messageId: string): Promise<void> {
    await this.rest.delete(Routes.webhookMessage(webhook.applicationId, webhook.token, messageId), { auth: false });
  }

  async followUp(webhook: InteractionWebhook, reply: Reply): Promise<{ id: string }> {
    const { body, files } = toApiReply(reply);
    const message = (await this.rest.post(Routes.webhook(webhook.applicationId, webhook.token), {
      ...messageRequest(body, files),
      auth: false,
      query: new URLSearchParams({ wait: 'true' }),
    })) as APIMessage;
    return { id: message.id };
  }
}
