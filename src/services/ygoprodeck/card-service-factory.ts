import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { Metrics } from '../../runtime/metrics.js';
import type { SharedBlobs, SharedState } from '../../state/shared-state.js';
import type { CacheFactory } from '../../upstream/cache.js';
import { CardDatabase } from './card-database.js';
import type { CardDatabaseOptions, DownloadOnce } from './card-database-options.js';
import { CardImageStore } from './card-images.js';
import type { MatcherTablesBuild } from './card-index-keeper.js';
import { CardSetCatalog } from './card-sets.js';
import { CardService } from './cards.js';
import { offThreadJobs, type OffThreadJobs } from '../off-thread/off-thread.js';
import { STORED_TABLES_DIR } from '../off-thread/stored-tables.js';
import type { LimiterFactory } from '../../upstream/limiter.js';
import { YgoprodeckClient } from './ygoprodeck.js';
import type { YgoprodeckLimits } from './ygoprodeck-limits.js';

export interface CreateCardServiceOptions {
  /** YGOPRODeck API origin (`YGOPRODECK_URL`). */
  baseUrl: string;
  /** Card and set art base (`YGOPRODECK_IMAGES_URL`); YGOPRODeck's own by default. */
  imagesBaseUrl?: string;
  /** `DATA_DIR`: the database snapshot and the image store live under it. */
  dataDir: string;
  dispatcher?: Dispatcher;
  limiterFactory?: LimiterFactory;
  cacheFactory?: CacheFactory;
  metrics?: Metrics;
  logger?: Logger;
  /** Limiter settings, for tests only (production uses YGOPRODeck's own). */
  limits?: Partial<YgoprodeckLimits>;
  /** A lookup's or an image's deadline, for tests only (production uses `REQUEST_TIMEOUT_MS.ygoprodeck`). */
  requestTimeoutMs?: number;
  /** Card database settings, for tests only (e.g. a fake with fewer cards than the real minimum). */
  database?: Pick<CardDatabaseOptions, 'minCards' | 'pollIntervalMs' | 'retryIntervalMs' | 'random'>;
  recentPerChannel?: number;
  /** How long card commands wait for a loading database or set list (10 s by default). */
  loadWaitMs?: number;
  channelHistory?: SharedState['channelHistory'];
  /** Card and set art fetched once for the whole fleet. */
  sharedArt?: SharedBlobs;
  /** Each database version downloaded once for the whole fleet (the shared state's `downloadOnce`). */
  downloadOnce?: DownloadOnce;
  /** Where downloads are read and matchers built: the worker next to the sources by default (tests run a bundle of it). */
  offThread?: OffThreadJobs;
}

/** Builds the YGOPRODeck client, the card database, the set list, the image store and the service over them. */
export function createCardService(options: CreateCardServiceOptions): CardService {
  const logger = options.logger ?? pino({ level: 'silent' });
  const offThread = options.offThread ?? offThreadJobs();
  const client = new YgoprodeckClient({
    baseUrl: options.baseUrl,
    ...(options.imagesBaseUrl === undefined ? {} : { imagesBaseUrl: options.imagesBaseUrl }),
    dispatcher: options.dispatcher,
    limiterFactory: options.limiterFactory,
    cacheFactory: options.cacheFactory,
    metrics: options.metrics,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    requestTimeoutMs: options.requestTimeoutMs,
    readDownload: (body, kind, signal) =>
      offThread.readDownload(body, kind, signal, (error) => logger.warn({ err: error }, 'reading a card download off the event loop failed; reading it on the event loop')),
  });
  const database = new CardDatabase({ client, dataDir: options.dataDir, logger: logger.child({ component: 'card-database' }), downloadOnce: options.downloadOnce, ...options.database });
  const images = new CardImageStore({
    client,
    dataDir: options.dataDir,
    logger: logger.child({ component: 'card-images' }),
    ...(options.sharedArt === undefined ? {} : { shared: options.sharedArt }),
  });
  // Matchers' tables kept for the next start: a restart reads them instead of building them again.
  const storedAs = (name: string): MatcherTablesBuild => {
    const store = { dir: join(options.dataDir, STORED_TABLES_DIR), name, logger: logger.child({ component: 'matcher-tables' }) };
    return (cards, aliases, names, signal) => offThread.buildMatcherTables(cards, aliases, names, signal, store);
  };
  const sets = new CardSetCatalog({
    client,
    database,
    dataDir: options.dataDir,
    logger: logger.child({ component: 'card-sets' }),
    buildMatcherTables: storedAs('sets'),
  });
  return new CardService({
    database,
    images,
    client,
    sets,
    logger: logger.child({ component: 'cards' }),
    buildMatcherTables: storedAs('cards'),
    startOffThread: offThread.start,
    ...(options.recentPerChannel === undefined ? {} : { recentPerChannel: options.recentPerChannel }),
    loadWaitMs: options.loadWaitMs,
    ...(options.channelHistory === undefined ? {} : { channelHistory: options.channelHistory }),
  });
}
