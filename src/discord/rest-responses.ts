import { RESTEvents, type REST } from 'discord.js';
import type { Metrics } from '../runtime/metrics.js';

/**
 * Counts every answer of Discord's REST API by status, for the gateway client and the HTTP mode's
 * webhook writes alike: 401, 403 and 429 answers are what Discord counts toward its ban of an
 * application at 10,000 invalid requests in 10 minutes, and an operator wants the alert long before.
 */
export function countDiscordResponses(rest: REST, metrics: Metrics): void {
  rest.on(RESTEvents.Response, (_request, response) => metrics.discordResponses.labels(String(response.status)).inc());
}
