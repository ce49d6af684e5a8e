import { Routes, type REST } from 'discord.js';
import type { RoutedInteraction } from '../interaction/routed-interaction.js';
import type { AgeRestrictedChannels } from './age-restricted-channels.js';
import { hasDiscordIds, parseApiInteraction, toRoutedInteraction, type ApiInteraction } from './api-interaction.js';
import { DiscordResponder, initialResponseJson, type InitialResponse } from './responder.js';
import { messageRequest } from './rest-request.js';
import { routeId, routeToken } from './route-parts.js';
import type { WebhookWriter } from './webhook-writer.js';

/** What answering a gateway interaction takes: discord.js's REST client, the webhook writer, and the age-restricted channels. */
export interface GatewayInteractionDeps {
  rest: REST;
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
function callbackResponder(payload: ApiInteraction, { rest, webhooks }: GatewayInteractionDeps): DiscordResponder {
  const send = async (response: InitialResponse) => {
    await rest.post(Routes.interactionCallback(routeId(payload.id), routeToken(payload.token)), {
      ...messageRequest(initialResponseJson(response), response.files),
      auth: false,
    });
  };
  return new DiscordResponder({ applicationId: payload.application_id, token: payload.token }, webhooks, send);
}
