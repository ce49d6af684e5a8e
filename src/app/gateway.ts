import { Events, GatewayDispatchEvents, type Client, type GatewayDispatchPayload } from 'discord.js';
import type { Logger } from 'pino';
import { createAppCore, DEFAULT_DRAIN_TIMEOUT_MS, stopAppCore, type AppCore, type AppCoreOptions } from './core.js';
import { AgeRestrictedChannels } from '../discord/age-restricted-channels.js';
import { ChannelPermissions } from '../discord/channel-permissions.js';
import { createDiscordClient } from '../discord/client.js';
import { fromGatewayDispatch } from '../discord/gateway-interaction.js';
import { WebhookWriter } from '../discord/webhook-writer.js';
import { InteractionCallbacks } from '../discord/interaction-callback.js';
import { logGatewayLifecycle } from '../discord/gateway-log.js';
import { DiscordChatChannels, messageDispatchListener } from '../discord/message-events.js';
import { countDiscordResponses } from '../discord/rest-responses.js';
import { registerShardGauges } from '../discord/shard-gauges.js';
import { TurnEach } from '../discord/turn-each.js';
import { LATE, raceDeadline } from '../interaction/deadline.js';
import type { Router } from '../interaction/router.js';
import { InlineCardSearch } from '../inline/inline-cards.js';
import type { OpsServer } from '../runtime/ops-server.js';
import type { AppServices } from './services.js';
import { forgetRemovedGuilds } from './settings-lifecycle.js';

export interface GatewayAppOptions extends AppCoreOptions {
  /** Extra discord.js REST options (tests lower retries and timeouts). */
  discordRest?: Parameters<typeof createDiscordClient>[0]['rest'];
  /** Most time given to interactions in flight on shutdown. */
  drainTimeoutMs?: number;
}

export interface GatewayApp {
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

/** Gateway mode: wires config, services, router and the discord.js client; shared by the entry point and the tests. */
export async function createGatewayApp(options: GatewayAppOptions): Promise<GatewayApp> {
  const { config } = options;
  if (!config.discordToken) throw new TypeError('createGatewayApp: config.discordToken is required');
  const logger = config.shards ? options.logger.child({ shards: config.shards.ids, shardCount: config.shards.count }) : options.logger;
  const client = createDiscordClient({ apiUrl: config.discordApiUrl, shards: config.shards, rest: options.discordRest, messages: config.messageSearch });
  let ready = false;
  let stopping: Promise<void> | undefined;
  let core: AppCore;
  try {
    core = await createAppCore({ ...options, logger }, 'gateway', {
      isReady: () => ready,
      gatewayPing: () => (client.ws.ping >= 0 ? Math.round(client.ws.ping) : null),
      describeFleetMember: () => ({ shards: client.ws.shards.map((shard) => shard.id), guilds: client.guilds.cache.size }),
    });
  } catch (error) {
    await client.destroy();
    throw error;
  }
  const { router, services, opsServer } = core;
  countDiscordResponses(client.rest, core.metrics);
  registerShardGauges(core.metrics, client);

  const webhooks = new WebhookWriter(client.rest);
  const callbacks = new InteractionCallbacks(client.rest.options, core.metrics);
  const ageRestricted = new AgeRestrictedChannels();
  client.on(Events.Raw, ageRestricted.remember);
  if (services.settings) client.on(Events.Raw, forgetRemovedGuilds(services.settings, logger));
  // Interactions are read from the dispatch itself: discord.js builds no objects for them (src/discord/client.ts).
  // Each is read and routed in a turn of the loop of its own: a burst comes in one socket read.
  const turns = new TurnEach((error) => logger.error({ err: error }, 'an interaction dispatch failed before it was routed'));
  client.on(Events.Raw, (packet: GatewayDispatchPayload, shardId: number) => {
    if (packet.t !== GatewayDispatchEvents.InteractionCreate) return;
    turns.push(() => {
      const routed = fromGatewayDispatch(packet.d, shardId, { callbacks, webhooks, ageRestricted });
      if (routed) void router.handle(routed);
      else logger.warn({ shardId, interactionId: packet.d.id, type: packet.d.type }, 'interaction dispatch not understood; ignored');
    });
  });
  if (config.messageSearch) {
    const permissions = new ChannelPermissions();
    client.on(Events.Raw, permissions.remember);
    client.on(Events.Raw, messageDispatchListener(client, new InlineCardSearch(services, new DiscordChatChannels(client, permissions, logger))));
  }
  // Without a listener an 'error' event would crash the process (discord.js uses captureRejections).
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, 'discord client warning'));
  logGatewayLifecycle(client, logger);

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
        await stopAppCore(core, logger, options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS, () => disconnect(client, logger));
      })();
      return stopping;
    },
  };
}

/**
 * How long a stop waits for the gateway to confirm its close. The close frame is sent at once, and
 * Discord needs no confirmation to end the session; but discord.js waits for the socket's close
 * handshake, which was seen to take 30 s in a container (podman, runc): past the 15 s a compose
 * stop grants before SIGKILL, so the process ended killed instead of with 0.
 */
const GATEWAY_CLOSE_WAIT_MS = 2_000;

async function disconnect(client: Client, logger: Logger): Promise<void> {
  if ((await raceDeadline(client.destroy(), GATEWAY_CLOSE_WAIT_MS)) === LATE) {
    logger.warn({ waitedMs: GATEWAY_CLOSE_WAIT_MS }, 'the gateway did not confirm its close in time; stopping without it');
  }
}
