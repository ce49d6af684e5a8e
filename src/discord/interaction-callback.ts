import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultUserAgent, DiscordAPIError, Routes, type REST } from 'discord.js';
import { request } from 'undici';
import type { Metrics } from '../runtime/metrics.js';
import { initialResponseJson, type InitialResponse } from './responder.js';
import { messageRequest } from './rest-request.js';
import { routeId, routeToken } from './route-parts.js';

/** A 429 on a callback is waited out only this long: the acknowledgement is due 3 s after the dispatch. */
const LONGEST_RETRY_WAIT_MS = 1_000;

/** What sending a callback takes from discord.js's REST settings: the API, its timeout and retries. */
type CallbackRestSettings = Pick<REST['options'], 'api' | 'version' | 'timeout' | 'retries' | 'userAgentAppendix'>;

/**
 * Gateway mode's acknowledgements, each POSTed to its interaction's callback route directly with
 * undici rather than through discord.js's REST queue. A callback route is used once per interaction,
 * is authorised by the interaction's token and counts toward no global or shared bucket, so the
 * queue's bucket bookkeeping, its per-request AbortController and timer, and its response wrapping
 * do nothing for it yet cost about 4 % of the event loop's busy time under cached interactions (a
 * profile of the bench's mix; the busy time fell 8 % without it). The REST settings (API URL,
 * timeout, retries of a 5xx or a lost connection) are discord.js's, and failures are its `DiscordAPIError`.
 * Edits and follow-ups still go through the REST queue: webhook routes have per-token buckets.
 */
export class InteractionCallbacks {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly settings: CallbackRestSettings,
    private readonly metrics?: Metrics,
  ) {
    this.base = `${settings.api}/v${settings.version}`;
    const appendix = settings.userAgentAppendix ? ` ${settings.userAgentAppendix}` : '';
    this.headers = { 'user-agent': `${DefaultUserAgent}${appendix}` };
  }

  async send(interactionId: string, token: string, response: InitialResponse): Promise<void> {
    const url = `${this.base}${Routes.interactionCallback(routeId(interactionId), routeToken(token))}`;
    const data = messageRequest(initialResponseJson(response), response.files);
    const body = data.passThroughBody ? (data.body as Uint8Array) : JSON.stringify(data.body);
    const headers = { ...this.headers, 'content-type': data.passThroughBody ? (data.headers as Record<string, string>)['Content-Type']! : 'application/json' };
    for (let attempt = 0; ; attempt++) {
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(url, { method: 'POST', headers, body, headersTimeout: this.settings.timeout, bodyTimeout: this.settings.timeout });
      } catch (error) {
        if (attempt < this.settings.retries) continue;
        throw error;
      }
      const { statusCode } = answer;
      this.metrics?.discordResponses.labels(String(statusCode)).inc();
      if (statusCode < 300) {
        await answer.body.dump();
        return;
      }
      const text = await answer.body.text();
      const retryAfterMs = statusCode === 429 ? retryAfter(text, answer.headers['retry-after']) : undefined;
      const retry =
        attempt < this.settings.retries && (statusCode >= 500 || (retryAfterMs !== undefined && retryAfterMs <= LONGEST_RETRY_WAIT_MS));
      if (!retry) {
        const error = errorData(text, statusCode);
        throw new DiscordAPIError(error, error.code, statusCode, 'POST', url, { body: data.body, files: response.files });
      }
      if (retryAfterMs !== undefined) await sleep(retryAfterMs);
    }
  }
}

/** Discord's error body, or one made from the status when the body is not Discord's JSON. */
function errorData(text: string, status: number): { code: number; message: string } {
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'number' && typeof parsed.message === 'string') return { code: parsed.code, message: parsed.message };
  } catch {
    // Not JSON: a proxy's page; the status says enough.
  }
  return { code: status, message: `HTTP ${status}` };
}

/** A 429's wait in milliseconds: the body's `retry_after` (seconds), else the header's. */
function retryAfter(text: string, header: string | string[] | undefined): number | undefined {
  try {
    const seconds = (JSON.parse(text) as { retry_after?: unknown }).retry_after;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  } catch {
    // Fall back to the header.
  }
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}
