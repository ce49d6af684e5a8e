import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Metrics } from '../runtime/metrics.js';
import { createInProcessState } from './in-process.js';
import { createRedisState } from './redis/index.js';
import type { SharedState } from './shared-state.js';

interface SharedStateOptions {
  /** `REDIS_URL`: a fleet's shared Redis; absent for today's single process. */
  redisUrl: string | undefined;
  logger: Logger;
  metrics?: Metrics;
  /** Names this process in the fleet registry and its metrics (default: host name, pid and a random tag). */
  processId?: string;
  /** The fleet size assumed while none is known yet, e.g. SHARD_COUNT (default 2). */
  expectedFleetSize?: number;
}

/** The one place that decides where fleet-wide state lives: Redis when `REDIS_URL` is set, else this process. */
export async function createSharedState(options: SharedStateOptions): Promise<SharedState> {
  // The random part keeps two apps in one process (tests, a CLI next to a bot) apart.
  const processId = options.processId ?? `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`;
  if (options.redisUrl === undefined) return createInProcessState({ processId, ...(options.metrics ? { metrics: options.metrics } : {}) });
  return createRedisState({
    url: options.redisUrl,
    processId,
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.expectedFleetSize === undefined ? {} : { expectedFleetSize: options.expectedFleetSize }),
  });
}
