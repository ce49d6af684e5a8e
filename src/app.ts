import { Events, type Client } from 'discord.js';
import { commands as defaultCommands } from '../commands/index.js';
import type { Command } from './command.js';
import type { Config } from './config.js';
import { createDiscordClient } from './discord/client.js';
import { logGatewayLifecycle } from './discord/gateway-log.js';
import { createRouter, type Router } from './discord/router.js';
import { shardLabel } from './discord/shards.js';
import type { Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { startOpsServer, type OpsServer } from './ops-server.js';
import { createServices, type AppServices, type ServiceOverrides } from './services/index.js';
import { createSharedState } from './state/index.js';
import type { SharedState } from './state/shared-state.js';

export interface AppOptions {
  config: Config;
  logger: Logger;
  commands?: readonly Command[];
  overrides?: ServiceOverrides;
  /** Extra discord.js REST options (tests lower retries and timeouts). */
  discordRest?: Parameters<typeof createDiscordClient>[0]['rest'];
  /** Most time given to interactions in flight on shutdown. */
  drainTimeoutMs?: number;
  /**
   * The fleet-wide state, when the caller builds it (tests and benchmarks that time-compress its
   * limiters); otherwise built here from REDIS_URL. Closed with the services either way.
   */
  state?: SharedState;
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
  const { config } = options;
  if (!config.discordToken) throw new TypeError('createApp: config.discordToken is required');
  const logger = config.shards ? options.logger.child({ shards: config.shards.ids, shardCount: config.shards.count }) : options.logger;
  const metrics = createMetrics();
  // Until heartbeats say how many processes there are, assume one per shard: a safe (small) local share.
  const expectedFleetSize = config.shards?.count;
  const state =
    options.state ??
    (await createSharedState({ redisUrl: config.redisUrl, logger, metrics, ...(expectedFleetSize === undefined ? {} : { expectedFleetSize }) }));
  // In a fleet every series says which process it comes from, and a sharded process which shards it runs.
  metrics.registry.setDefaultLabels({
    ...(state.backend === 'redis' ? { process: state.processId } : {}),
    ...(config.shards ? { shard: shardLabel(config.shards) } : {}),
  });
  const client = createDiscordClient({ apiUrl: config.discordApiUrl, shards: config.shards, rest: options.discordRest });
  state.fleet.describeWith(() => ({ shards: client.ws.shards.map((shard) => shard.id), guilds: client.guilds.cache.size }));
  const services = await createServices(
    { config, logger, metrics, state, gatewayPing: () => (client.ws.ping >= 0 ? Math.round(client.ws.ping) : null) },
    options.overrides,
  );
  const router = createRouter(options.commands ?? defaultCommands, services);
  let ready = false;
  let stopping: Promise<void> | undefined;

  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  // Without a listener an 'error' event would crash the process (discord.js uses captureRejections).
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, 'discord client warning'));
  logGatewayLifecycle(client, logger);

  let opsServer: OpsServer | undefined;
  try {
    opsServer =
      config.metricsPort === undefined
        ? undefined
        : await startOpsServer({ port: config.metricsPort, host: config.metricsHost, registry: metrics.registry, isReady: () => ready });
  } catch (error) {
    await client.destroy();
    await services.close();
    throw error;
  }
  if (opsServer) logger.info({ url: opsServer.url }, `ops server listening on ${opsServer.url} (/metrics, /healthz, /readyz)`);

  return {
    client,
    router,
    services,
    opsServer,
    isReady: () => ready,
    async start() {
      const readyEvent = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      logger.info({ url: config.discordApiUrl }, `logging in to Discord at ${config.discordApiUrl}`);
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
