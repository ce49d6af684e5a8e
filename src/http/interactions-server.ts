import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InteractionResponseType, InteractionType } from 'discord.js';
import type { Logger } from 'pino';
import type { SeenOnce } from '../state/shared-state.js';
import { hasDiscordIds, parseApiInteraction, type ApiInteraction } from '../discord/api-interaction.js';
import { DroppedRequests, type DroppedReason } from './dropped-requests.js';
import type { InitialResponse } from '../discord/responder.js';
import { writeInitialResponse } from './initial-response.js';
import { readBody } from './read-body.js';
import { isFresh, MAX_TIMESTAMP_SKEW_MS, signatureHeaders, verifySignature } from './signature.js';

export const INTERACTIONS_PATH = '/interactions';
/** Discord's largest payloads (a context menu on a long message with embeds) stay far below this. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
/** The whole request (headers and body) must arrive within this; Discord sends it at once. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

/**
 * How long an interaction is remembered to drop replays of it: a signed timestamp is accepted up to
 * 5 minutes either side of this server's clock, so when Discord's clock runs ahead of this one, a
 * request stays acceptable for up to 10 minutes after it first arrives.
 */
export const REPLAY_MEMORY_MS = 2 * MAX_TIMESTAMP_SKEW_MS;
/** Interactions one process remembers at once (about 6 MB): over 80 a second for those 10 minutes. */
export const MAX_REMEMBERED_INTERACTIONS = 50_000;

/** Whether a request target names `INTERACTIONS_PATH`: Discord posts to exactly that, anything else goes through URL's rules. */
function isInteractionsPath(target: string | undefined): boolean {
  return target === INTERACTIONS_PATH || new URL(target ?? '/', 'http://interactions').pathname === INTERACTIONS_PATH;
}

export interface InteractionsServerOptions {
  port: number;
  host?: string;
  publicKey: KeyObject;
  logger: Logger;
  /**
   * Runs one verified interaction (never PING). `send` writes the HTTP response and must be called
   * once, within Discord's 3 s; the promise settles when the interaction is completely answered.
   * Resolves 'malformed' when the payload is not an interaction Almanac can route (answered 400).
   */
  dispatch(payload: ApiInteraction, send: (response: InitialResponse) => Promise<void>): Promise<'malformed' | void>;
  /** The interactions already received (fleet-wide with Redis), each kept `REPLAY_MEMORY_MS`. */
  deliveries: SeenOnce;
  /** Counts every request by the status it got (metrics). */
  onResponse?(status: number): void;
  /** Counts every request that ran nothing (metrics); those are logged only in one summary line a minute. */
  onDropped?(reason: DroppedReason): void;
  maxBodyBytes?: number;
  requestTimeoutMs?: number;
  now?: () => number;
}

export interface InteractionsServer {
  port: number;
  /** Stops listening; requests in flight finish (connections left after `timeoutMs` are cut). */
  close(timeoutMs: number): Promise<void>;
}

/**
 * `POST /interactions`: Discord's signed HTTP delivery. Nothing of an unsigned or badly signed
 * request is parsed or handled: the signature headers are checked before the body is read, and the
 * Ed25519 signature before the JSON is parsed.
 */
export async function startInteractionsServer(options: InteractionsServerOptions): Promise<InteractionsServer> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ component: 'interactions-server' });
  const dropped = new DroppedRequests({ log, ...(options.onDropped ? { count: options.onDropped } : {}) });

  const refuse = (res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}) => {
    log.debug({ status, reason }, 'refused an interactions request');
    options.onResponse?.(status);
    // The body of a refused request is never read: closing the connection spares reading it.
    res.writeHead(status, { 'content-type': 'text/plain', connection: 'close', ...headers }).end(`${reason}\n`);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isInteractionsPath(req.url)) return refuse(res, 404, 'not found');
    if (req.method !== 'POST') return refuse(res, 405, 'method not allowed', { allow: 'POST' });
    const signed = signatureHeaders(req.headers);
    if (!signed) return refuse(res, 401, 'invalid request signature');
    let body: Buffer | 'too_large';
    try {
      body = await readBody(req, maxBodyBytes);
    } catch (error) {
      // Aborted by the client or cut by the request timeout (Node has answered 408): no answer to write.
      return dropped.drop('incomplete', { err: error });
    }
    if (body === 'too_large') return refuse(res, 413, 'payload too large');
    if (!isFresh(signed.timestamp, now()) || !verifySignature(options.publicKey, signed, body)) {
      return refuse(res, 401, 'invalid request signature');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return refuse(res, 400, 'malformed JSON');
    }
    const interaction = parseApiInteraction(payload);
    if (!interaction) return refuse(res, 400, 'not an interaction');
    if (interaction.type === InteractionType.Ping) {
      options.onResponse?.(200);
      return writeInitialResponse(res, { type: InteractionResponseType.Pong, files: [] });
    }
    // Logged without them: a forged token is someone's attempt at a path, or a real one leaked.
    if (!hasDiscordIds(interaction)) return refuse(res, 400, 'ids or token not as Discord issues them');
    if (!(await options.deliveries.firstTime(interaction.id))) {
      // Discord never sends an interaction twice: this is a captured request sent again within its
      // window. It runs nothing, and learns nothing from the answer.
      dropped.drop('replayed', { interactionId: interaction.id });
      options.onResponse?.(200);
      res.writeHead(200, { 'content-length': 0 }).end();
      return;
    }
    let answered = false;
    const send = async (response: InitialResponse) => {
      answered = true;
      await writeInitialResponse(res, response);
      options.onResponse?.(200);
    };
    const outcome = await options.dispatch(interaction, send);
    if (outcome === 'malformed' && !answered) return refuse(res, 400, 'unsupported interaction');
    if (!answered) {
      log.error({ interactionId: interaction.id, type: interaction.type }, 'interaction finished without an answer');
      refuse(res, 500, 'no answer');
    }
  }

  const server: Server = createServer(
    // Node checks request deadlines on this interval; the default (30 s) would let a slow sender linger.
    { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs) },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // A client that vanished mid-request, or a bug: never a crash, and never details in the answer.
        log.warn({ err: error }, 'interactions request failed');
        if (!res.headersSent && !res.destroyed) refuse(res, 500, 'internal error');
        else res.destroy();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close(timeoutMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(cut);
      dropped.flush();
    },
  };
}
