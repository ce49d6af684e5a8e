import { Events, type Client } from 'discord.js';
import { commands as defaultCommands } from '../commands/index.js';
import type { Command } from './command.js';
import type { Config } from './config.js';
import { createDiscordClient } from './discord/client.js';
import { fromDiscordJs } from './discord/discordjs-interaction.js';
import { createRouter, type Router } from './discord/router.js';
import type { Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { startOpsServer, type OpsServer } from './ops-server.js';
import { createServices, type AppServices, type ServiceOverrides } from './services/index.js';

export interface AppOptions {
  config: Config;
  logger: Logger;
  commands?: readonly Command[];
  overrides?: ServiceOverrides;
  /** Extra discord.js REST options (tests lower retries and timeouts). */
  discordRest?: Parameters<typeof createDiscordClient>[0]['rest'];
  /** Most time given to interactions in flight on shutdown. */
  drainTimeoutMs?: number;
}

export interface App {
  client: Client;
  router: Router;
  services: AppServices;
  opsServer: OpsServer | undefined;
  /** Resolves once logged in and ready to answer interactions. */
  start(): Promise<void>;
  /** Graceful stop: refuse new work, let in-flight interactions finish, disconnect, release resources. */
  stop(): Promise<void>;
  isReady(): boolean;
}

/** Wires config, services, router and the discord.js client; shared by the entry point and the tests. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  if (!config.discordToken) throw new TypeError('createApp: config.discordToken is required');
  const metrics = createMetrics();
  const client = createDiscordClient({ apiUrl: config.discordApiUrl, rest: options.discordRest });
  const services = await createServices(
    { config, logger, metrics, gatewayPing: () => (client.ws.ping >= 0 ? Math.round(client.ws.ping) : null) },
    options.overrides,
  );
  const router = createRouter(options.commands ?? defaultCommands, services);
  let ready = false;
  let stopping: Promise<void> | undefined;

  client.on(Events.InteractionCreate, (interaction) => {
    const routed = fromDiscordJs(interaction);
    if (routed) void router.handle(routed);
  });
  // Without a listener an 'error' event would crash the process (discord.js uses captureRejections).
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, 'discord client warning'));
  client.on(Events.ShardDisconnect, (event, shardId) => logger.warn({ code: event.code, shardId }, 'gateway disconnected'));
  client.on(Events.ShardResume, (shardId) => logger.info({ shardId }, 'gateway resumed'));

  const opsServer =
    config.metricsPort === undefined
      ? undefined
      : await startOpsServer({ port: config.metricsPort, registry: metrics.registry, isReady: () => ready });

  return {
    client,
    router,
    services,
    opsServer,
    isReady: () => ready,
    async start() {
      const readyEvent = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(config.discordToken);
      await readyEvent;
      ready = true;
      logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size, version: services.version }, 'ready');
    },
    stop() {
      stopping ??= (async () => {
        ready = false;
        const { unfinished } = await router.drain(options.drainTimeoutMs ?? 8_000);
        if (unfinished > 0) logger.warn({ unfinished }, 'stopped with interactions still in flight');
        await client.destroy();
        await services.close();
        await opsServer?.close();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}
