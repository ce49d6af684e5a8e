import { REST, type RESTOptions } from 'discord.js';
import { discordRestOptions } from '../discord/client.js';
import { DiscordResponder } from '../discord/responder.js';
import { countDiscordResponses } from '../discord/rest-responses.js';
import { WebhookWriter } from '../discord/webhook-writer.js';
import { createAppCore, DEFAULT_DRAIN_TIMEOUT_MS, stopAppCore, type AppCoreOptions } from '../app/core.js';
import type { Router } from '../interaction/router.js';
import type { OpsServer } from '../runtime/ops-server.js';
import type { AppServices } from '../app/services.js';
import { toRoutedInteraction } from '../discord/api-interaction.js';
import {
  MAX_REMEMBERED_INTERACTIONS,
  REPLAY_MEMORY_MS,
  startInteractionsServer,
  type InteractionsServer,
  type InteractionsServerOptions,
} from './interactions-server.js';
import { ed25519PublicKey } from './signature.js';
import { startIdleSweep } from '../app/settings-lifecycle.js';

export interface HttpAppOptions extends AppCoreOptions {
  /** Extra REST options for the webhook writes (tests lower retries and timeouts). */
  discordRest?: Partial<RESTOptions>;
  drainTimeoutMs?: number;
  /** Limits of the interactions server (tests shorten them). */
  server?: Pick<InteractionsServerOptions, 'maxBodyBytes' | 'requestTimeoutMs' | 'now'>;
}

export interface HttpApp {
  router: Router;
  services: AppServices;
  opsServer: OpsServer | undefined;
  /** The port `POST /interactions` is served on, once started. */
  readonly port: number;
  /** Starts serving `POST /interactions` on INTERACTIONS_PORT. */
  start(): Promise<void>;
  /** Graceful stop: no new connections, interactions in flight answered, resources released. */
  stop(): Promise<void>;
  /** Serving, with the card database loaded. */
  isReady(): boolean;
}

/**
 * HTTP mode: the same services, router and commands as the gateway mode, fed by Discord's signed
 * HTTP requests instead of a gateway connection. Needs DISCORD_PUBLIC_KEY; no bot token.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const { config, logger } = options;
  if (!config.discordPublicKey) throw new TypeError('createHttpApp: config.discordPublicKey is required');
  const publicKey = ed25519PublicKey(config.discordPublicKey);
  if (config.messageSearch) logger.warn('MESSAGE_SEARCH has no effect in HTTP mode: Discord sends an interactions endpoint no messages (cards named inline need the gateway mode)');
  let server: InteractionsServer | undefined;
  let stopSweep: (() => void) | undefined;
  let stopping: Promise<void> | undefined;
  const core = await createAppCore(options, 'http', { isReady: () => isReady() });
  const { router, services, metrics } = core;
  const isReady = () => server !== undefined && stopping === undefined && services.cards.ready;
  const rest = new REST(discordRestOptions(config.discordApiUrl, options.discordRest));
  countDiscordResponses(rest, metrics);
  const webhooks = new WebhookWriter(rest);

  return {
    router,
    services,
    opsServer: core.opsServer,
    get port() {
      if (!server) throw new Error('the HTTP app has not been started');
      return server.port;
    },
    isReady,
    async start() {
      server = await startInteractionsServer({
        ...options.server,
        port: config.interactionsPort,
        publicKey,
        logger,
        onResponse: (status) => metrics.interactionRequests.labels(String(status)).inc(),
        onDropped: (reason) => metrics.interactionRequestsDropped.labels(reason).inc(),
        deliveries: services.state.seenOnce({ name: 'interactions', ttlMs: REPLAY_MEMORY_MS, maxKeys: MAX_REMEMBERED_INTERACTIONS }),
        async dispatch(payload, send) {
          const responder = new DiscordResponder({ applicationId: payload.application_id, token: payload.token }, webhooks, send);
          const routed = toRoutedInteraction(payload, responder);
          if (!routed) return 'malformed';
          await router.handle(routed);
        },
      });
      if (services.settings) stopSweep = startIdleSweep(services.settings, logger);
      logger.info({ port: server.port, version: services.version, cardDatabaseReady: services.cards.ready }, 'serving HTTP interactions');
    },
    stop() {
      stopping ??= stopAppCore(core, logger, options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS, async () => {
        stopSweep?.();
        await server?.close(1_000);
        // The REST client's rate-limit sweepers would keep the process alive.
        rest.clearHashSweeper();
        rest.clearHandlerSweeper();
      });
      return stopping;
    },
  };
}
