import type { RoutedInteraction } from '../interaction/routed-interaction.js';
import type { AgeRestrictedChannels } from './age-restricted-channels.js';
import { hasDiscordIds, parseApiInteraction, toRoutedInteraction, type ApiInteraction } from './api-interaction.js';
import type { InteractionCallbacks } from './interaction-callback.js';
import { DiscordResponder, type InitialResponse } from './responder.js';
import type { WebhookWriter } from './webhook-writer.js';

/** What answering a gateway interaction takes: its callback route's sender, the webhook writer, and the age-restricted channels. */
export interface GatewayInteractionDeps {
  callbacks: InteractionCallbacks;
  webhooks: WebhookWriter;
  ageRestricted: AgeRestrictedChannels;
}

/**
 * Gateway mode: an INTERACTION_CREATE dispatch's data as the router sees it, read as HTTP mode reads
 * a request's body (api-interaction.ts), or undefined for one that is malformed or of a kind Almanac
 * never gets. It is answered through its callback route and `webhooks`, as in HTTP mode.
 */
export function fromGatewayDispatch(data: unknown, shardId: number, deps: GatewayInteractionDeps): RoutedInteraction | undefined {
  const payload = parseApiInteraction(data);
  if (payload === undefined || !hasDiscordIds(payload)) return undefined;
  return toRoutedInteraction(payload, callbackResponder(payload, deps), {
    shardId,
    ageRestricted: (guildId, channelId) => deps.ageRestricted.has(guildId, channelId),
  });
}

/** The interaction's callback route takes the acknowledgement, without the bot's token (Discord authenticates it by the interaction's). */
function callbackResponder(payload: ApiInteraction, { callbacks, webhooks }: GatewayInteractionDeps): DiscordResponder {
  const send = (response: InitialResponse) => callbacks.send(payload.id, payload.token, response);
  return new DiscordResponder({ applicationId: payload.application_id, token: payload.token }, webhooks, send);
}
