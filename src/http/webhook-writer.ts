import { REST, Routes, type APIMessage, type RESTOptions } from 'discord.js';
import type { Reply } from '../interaction/reply.js';
import { discordRestOptions } from '../discord/client.js';
import { countDiscordResponses } from '../discord/rest-responses.js';
import type { Metrics } from '../runtime/metrics.js';
import type { MessageEdit } from '../interaction/routed-interaction.js';
import { toApiMessage, toApiReply } from './api-message.js';

/** The interaction a webhook route belongs to: its application and its 15-minute token. */
export interface InteractionWebhook {
  applicationId: string;
  token: string;
}

/**
 * Edits and follow-ups of HTTP-mode interactions, through the webhook routes on DISCORD_API_URL.
 * @discordjs/rest keeps the same per-route rate-limit buckets as the gateway mode's client; webhook
 * routes are authorised by their token, so no bot token is needed.
 */
export class WebhookWriter {
  private readonly rest: REST;

  constructor(apiUrl: string, metrics: Metrics, restOptions?: Partial<RESTOptions>) {
    this.rest = new REST(discordRestOptions(apiUrl, restOptions));
    countDiscordResponses(this.rest, metrics);
  }

  async edit(webhook: InteractionWebhook, messageId: string, edit: MessageEdit): Promise<void> {
    const { body, files } = toApiMessage(edit);
    await this.rest.patch(Routes.webhookMessage(webhook.applicationId, webhook.token, messageId), { body, files, auth: false });
  }

  async delete(webhook: InteractionWebhook, messageId: string): Promise<void> {
    await this.rest.delete(Routes.webhookMessage(webhook.applicationId, webhook.token, messageId), { auth: false });
  }

  async followUp(webhook: InteractionWebhook, reply: Reply): Promise<{ id: string }> {
    const { body, files } = toApiReply(reply);
    const message = (await this.rest.post(Routes.webhook(webhook.applicationId, webhook.token), {
      body,
      files,
      auth: false,
      query: new URLSearchParams({ wait: 'true' }),
    })) as APIMessage;
    return { id: message.id };
  }

  /** Stops the REST client's timers (rate-limit sweepers). */
  close(): void {
    this.rest.clearHashSweeper();
    this.rest.clearHandlerSweeper();
  }
}
