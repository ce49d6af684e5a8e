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
  // The closure keeps the id and token alone: a responder lives as long as its message's idle-component
  // timer (up to 14 minutes, ComponentExpiry), and the payload would live as long with it.
  const { id, token } = payload;
  const send = (response: InitialResponse) => callbacks.send(id, token, response);
  return new DiscordResponder({ applicationId: payload.application_id, token }, webhooks, send);
}
