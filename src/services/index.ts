import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { UserCooldownOptions } from '../cooldown.js';
import { registerSharedStateGauge, type Metrics } from '../metrics.js';
import { VERSION } from '../version.js';
import { createInProcessState } from '../state/in-process.js';
import { countRefusals, type CountedUserBudget } from '../state/counted-budget.js';
import type { SharedState } from '../state/shared-state.js';
import type { CacheFactory } from './cache.js';
import { createCardService, type CardService } from './cards.js';
import { GeoService } from './geojs.js';
import type { UpstreamHealth } from './health.js';
import { registerHealthGauges } from './health-gauges.js';
import type { LimiterFactory } from './limiter.js';
import { WALLHAVEN_USER_BUDGET, WallhavenService } from './wallhaven.js';

/** How this process receives interactions: shown by /status. */
export type RunMode = 'gateway' | 'http' | 'terminal';

export interface Clock {
  now(): Date;
}

/** Everything a command handler may use. Built once per process by `createServices`. */
export interface AppServices {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  version: string;
  startedAt: number;
  mode: RunMode;
  /** Gateway heartbeat latency in ms, when connected (the CLI has no gateway). */
  gatewayPing(): number | null;
  geo: GeoService;
  wallhaven: WallhavenService;
  /** Each user's share of the Wallhaven budget (`WALLHAVEN_USER_BUDGET`); cached answers are free. */
  wallhavenCooldown: CountedUserBudget;
  /** Fleet-wide state (in process, or shared by every process on one Redis). */
  state: SharedState;
  cards: CardService;
  /** Each upstream's health, for /status. */
  upstreamHealth(): UpstreamHealth[];
  /** Releases sockets, timers and limiters. */
  close(): Promise<void>;
}

export interface ServiceOverrides {
  clock?: Clock;
  /** HTTP dispatcher for every upstream (tests may inject a MockAgent). */
  dispatcher?: Dispatcher;
  limiterFactory?: LimiterFactory;
  cacheFactory?: CacheFactory;
  /**
   * Load the card database snapshot and keep it fresh (default). A one-shot CLI run that needs no
   * card data turns it off, so it neither reads the snapshot nor polls YGOPRODeck.
   */
  startCardDatabase?: boolean;
  /** The per-user Wallhaven budget (tests of other behaviour lift it; production uses `WALLHAVEN_USER_BUDGET`). */
  wallhavenCooldown?: Partial<Pick<UserCooldownOptions, 'limit' | 'windowMs'>>;
}

export interface ServiceDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** Default: 'terminal' (the CLI and tests that call handlers directly). */
  mode?: RunMode;
  gatewayPing?: () => number | null;
  /** Fleet-wide state; today's in-process state when absent. Closed with the services. */
  state?: SharedState;
}

/** An upstream's health with the refusals of its per-member share, for /status. */
function withMemberShareRefusals(health: UpstreamHealth, refusals: number): UpstreamHealth {
  return { ...health, details: { ...health.details, memberShareRefusals: refusals } };
}

export async function createServices(deps: ServiceDeps, overrides: ServiceOverrides = {}): Promise<AppServices> {
  const clock = overrides.clock ?? { now: () => new Date() };
  const state = deps.state ?? createInProcessState({ processId: String(process.pid), metrics: deps.metrics });
  const limiterFactory = overrides.limiterFactory ?? state.limiterFactory;
  const cacheFactory = overrides.cacheFactory ?? state.cacheFactory;
  const closers: (() => Promise<void>)[] = [];
  const healthReporters: (() => UpstreamHealth)[] = [];
  const upstream = { limiterFactory, cacheFactory, dispatcher: overrides.dispatcher, metrics: deps.metrics };

  // The app clock drives GeoJS's cache ages, so tests can age entries and see stale-if-error.
  const geo = new GeoService({ ...upstream, baseUrl: deps.config.geojsUrl, now: () => clock.now().getTime() });
  closers.push(() => geo.close());
  healthReporters.push(() => geo.health());
  const wallhaven = new WallhavenService({ ...upstream, baseUrl: deps.config.wallhavenUrl, apiKey: deps.config.wallhavenApiKey });
  closers.push(() => wallhaven.close());
  const wallhavenCooldown = countRefusals(
    state.userBudget({ name: 'wallhaven', ...WALLHAVEN_USER_BUDGET, ...overrides.wallhavenCooldown, now: () => clock.now().getTime() }),
    'wallhaven',
    deps.metrics,
  );
  healthReporters.push(() => withMemberShareRefusals(wallhaven.health(), wallhavenCooldown.refusals));
  const cards = createCardService({
    ...upstream,
    baseUrl: deps.config.ygoprodeckUrl,
    imagesBaseUrl: deps.config.ygoprodeckImagesUrl,
    dataDir: deps.config.dataDir,
    logger: deps.logger,
    channelHistory: (options) => state.channelHistory(options),
    sharedArt: state.blobs,
    downloadOnce: (key, download) => state.downloadOnce(key, download),
  });
  if (overrides.startCardDatabase !== false) await cards.start();
  closers.push(() => cards.close());
  healthReporters.push(() => cards.health());
  const upstreamHealth = () => healthReporters.map((report) => report());
  registerHealthGauges(deps.metrics, upstreamHealth);
  registerSharedStateGauge(deps.metrics, () => state.health().degraded);

  return {
    config: deps.config,
    logger: deps.logger,
    metrics: deps.metrics,
    clock,
    version: VERSION,
    startedAt: clock.now().getTime(),
    mode: deps.mode ?? 'terminal',
    gatewayPing: deps.gatewayPing ?? (() => null),
    geo,
    wallhaven,
    wallhavenCooldown,
    state,
    cards,
    upstreamHealth,
    async close() {
      await Promise.allSettled(closers.map((close) => close()));
      await state.close();
    },
  };
}
