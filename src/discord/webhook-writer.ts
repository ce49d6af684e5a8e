import { Routes, type APIMessage, type REST } from 'discord.js';
import type { Reply } from '../interaction/reply.js';
import type { MessageEdit } from '../interaction/routed-interaction.js';
import { toApiMessage, toApiReply } from './api-message.js';
import { messageRequest } from './rest-request.js';
import { routeId, routeToken } from './route-parts.js';

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
    await this.rest.patch(webhookRoute(webhook, messageId), { ...messageRequest(body, files), auth: false });
  }

  async delete(webhook: InteractionWebhook, messageId: string): Promise<void> {
    await this.rest.delete(webhookRoute(webhook, messageId), { auth: false });
  }

  async followUp(webhook: InteractionWebhook, reply: Reply): Promise<{ id: string }> {
    const { body, files } = toApiReply(reply);
    const message = (await this.rest.post(webhookRoute(webhook), {
      ...messageRequest(body, files),
      auth: false,
      query: new URLSearchParams({ wait: 'true' }),
    })) as APIMessage;
    return { id: message.id };
  }
}

/** The interaction's webhook route, or one of its messages' (`@original` or a follow-up's id), its parts checked. */
function webhookRoute(webhook: InteractionWebhook, messageId?: string): `/${string}` {
  const applicationId = routeId(webhook.applicationId);
  const token = routeToken(webhook.token);
  if (messageId === undefined) return Routes.webhook(applicationId, token);
  return Routes.webhookMessage(applicationId, token, messageId === '@original' ? messageId : routeId(messageId));
}
