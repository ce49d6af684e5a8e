import { commands as defaultCommands } from '../../commands/index.js';
import type { Command } from '../interaction/command.js';
import type { Config } from '../runtime/config.js';
import { createRouter, type Router } from '../interaction/router.js';
import { shardLabel } from '../discord/shards.js';
import type { Logger } from '../runtime/logger.js';
import { createMetrics, type Metrics } from '../runtime/metrics.js';
import { startOpsServer, type OpsServer } from '../runtime/ops-server.js';
import { trimNativeMemoryAfterGc } from '../runtime/native-memory.js';
import { createServices, type AppServices, type ServiceOverrides } from './services.js';
import type { RunMode } from '../runtime/status-report.js';
import { createSharedState } from '../state/index.js';
import type { FleetMember } from '../runtime/status-report.js';
import type { SharedState } from '../state/shared-state.js';
import { startStorage } from '../storage/storage.js';

/** Most time given to interactions in flight on shutdown, unless the caller says otherwise. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 8_000;

/** What both modes (gateway and HTTP) are built from. */
export interface AppCore {
  metrics: Metrics;
  services: AppServices;
  router: Router;
  opsServer: OpsServer | undefined;
}

export interface AppCoreOptions {
  config: Config;
  logger: Logger;
  commands?: readonly Command<AppServices>[];
  overrides?: ServiceOverrides;
  /**
   * The fleet-wide state, when the caller builds it (tests and benchmarks that time-compress its
   * limiters); otherwise built here from REDIS_URL. Closed with the services either way.
   */
  state?: SharedState;
}

interface AppCoreHooks {
  isReady: () => boolean;
  gatewayPing?: () => number | null;
  /** How this process describes itself to the fleet (a gateway process knows its shards and guilds). */
  describeFleetMember?: () => Pick<FleetMember, 'shards' | 'guilds'>;
}

/**
 * The database (opened and migrated first: a bad DATABASE_URL or schema stops the start before
 * anything else is loaded), the shared state (Redis when REDIS_URL is set), services, the router
 * over the command set, and the ops server (when METRICS_PORT is set).
 */
export async function createAppCore(options: AppCoreOptions, mode: RunMode, hooks: AppCoreHooks): Promise<AppCore> {
  const { config, logger } = options;
  trimNativeMemoryAfterGc(logger);
  const storage = await startStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
  const metrics = createMetrics();
  // Until heartbeats say how many processes there are, assume one per shard: a safe (small) local share.
  const expectedFleetSize = config.shards?.count;
  let state: SharedState;
  let services: AppServices;
  try {
    state =
      options.state ??
      (await createSharedState({ redisUrl: config.redisUrl, logger, metrics, ...(expectedFleetSize === undefined ? {} : { expectedFleetSize }) }));
  } catch (error) {
    await storage.close();
    throw error;
  }
  // In a fleet every series says which process it comes from, and a sharded process which shards it runs.
  metrics.registry.setDefaultLabels({
    ...(state.backend === 'redis' ? { process: state.processId } : {}),
    ...(config.shards ? { shard: shardLabel(config.shards) } : {}),
  });
  if (hooks.describeFleetMember) state.fleet.describeWith(hooks.describeFleetMember);
  try {
    services = await createServices({ config, logger, metrics, state, storage, mode, gatewayPing: hooks.gatewayPing }, options.overrides);
  } catch (error) {
    await storage.close();
    throw error;
  }
  const router = createRouter(options.commands ?? defaultCommands, services);
  let opsServer: OpsServer | undefined;
  try {
    opsServer =
      config.metricsPort === undefined
        ? undefined
        : await startOpsServer({ port: config.metricsPort, host: config.metricsHost, registry: metrics.registry, isReady: hooks.isReady });
  } catch (error) {
    await services.close();
    throw error;
  }
  if (opsServer) logger.info({ url: opsServer.url }, `ops server listening on ${opsServer.url} (/metrics, /healthz, /readyz)`);
  return { metrics, services, router, opsServer };
}

/** Refuses new work, lets interactions in flight finish (at most `drainTimeoutMs`), then closes `release`, services and the ops server. */
export async function stopAppCore(core: AppCore, logger: Logger, drainTimeoutMs: number, release: () => Promise<void>): Promise<void> {
  const { unfinished } = await core.router.drain(drainTimeoutMs);
  if (unfinished > 0) logger.warn({ unfinished }, 'stopped with interactions still in flight');
  await release();
  await core.services.close();
  await core.opsServer?.close();
  logger.info('stopped');
}
