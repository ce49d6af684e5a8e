import type { RunMode } from '../runtime/status-report.js';
import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Config } from '../runtime/config.js';
import { registerFleetGauges, registerSharedStateGauge, type Metrics } from '../runtime/metrics.js';
import { VERSION } from '../runtime/version.js';
import { createInProcessState } from '../state/in-process.js';
import type { MemberShare } from '../runtime/member-shares.js';
import { MemberShares } from '../state/member-shares.js';
import type { SharedState } from '../state/shared-state.js';
import type { Storage } from '../storage/storage.js';
import { SubscriptionsStore } from '../storage/subscriptions-store.js';
import { NO_PREFERENCES, type ChannelPreferences } from '../scheduler/channel-preferences.js';
import { RestChannelPoster, type ChannelPoster } from '../scheduler/channel-poster.js';
import { buildPost } from '../scheduler/post-content.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { Subscriptions } from '../scheduler/subscriptions.js';
import { BanlistFeed } from '../scheduler/banlist-feed.js';
import { BanlistStore } from '../storage/banlist-store.js';
import { NewSetsFeed } from '../scheduler/new-sets-feed.js';
import { CardSetStore } from '../storage/card-set-store.js';
import type { CacheFactory } from '../upstream/cache.js';
import { createCardService, type CreateCardServiceOptions } from '../services/ygoprodeck/card-service-factory.js';
import type { CardService } from '../services/ygoprodeck/cards.js';
import { DiscordAttachments, type AttachmentSource } from '../services/discord-cdn/attachments.js';
import { DECK_ART_BACKGROUND, DeckArt } from '../services/ygoprodeck/deck-art.js';
import { createDeckPictures, type DeckPictures, type DeckPicturesOptions } from '../services/deck-pictures/deck-pictures.js';
import { DnsDig } from '../services/dns/dig.js';
import { DnsResolver } from '../services/dns/dns.js';
import { GeoService } from '../services/geojs/geojs.js';
import { RdapService } from '../services/rdap/rdap.js';
import { IpLookup } from '../services/geojs/ip-lookup.js';
import type { UpstreamHealth } from '../runtime/status-report.js';
import { registerHealthGauges } from '../upstream/health-gauges.js';
import type { LimiterFactory } from '../upstream/limiter.js';
import type { UpstreamName } from '../interaction/upstream-error.js';
import { WallhavenService } from '../services/wallhaven/wallhaven.js';
import { WorldMap } from '../services/world-map/world-map.js';
import { ArtColours } from '../services/art-colours/art-colours.js';
import { WallpaperListings } from '../services/wallhaven/wallpaper-listings.js';
import { SettingsService } from '../services/settings/settings-service.js';
import type { RouterServices } from '../interaction/router.js';
import { settleWith } from './settle.js';


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
  /** `/ip` and Locate IP: names resolved through DNS_SERVERS, addresses located by GeoJS. */
  ipLookup: IpLookup;
  /** `/ip dig`: the wire format to `DNS_SERVERS` or a `DOH_RESOLVERS` resolver, flags and TTLs shown. */
  dig: DnsDig;
  /** Maps of located addresses, drawn locally (`/ip bulk`, Locate IP on a log). */
  worldMap: WorldMap;
  /** A card artwork's dominant colour, for wallpapers in its colours. */
  artColours: ArtColours;
  /** `/ip whois` and the registration button: RDAP registries found through IANA's bootstrap. */
  rdap: RdapService;
  wallhaven: WallhavenService;
  /** The listings `/wallpaper` pages through: their queries in the buttons, and which result a press lands on. */
  wallpaperListings: WallpaperListings;
  /** Each member's share of every upstream (`MEMBER_SHARES`); fresh cached answers are free. */
  memberShares: MemberShares;
  /** Fleet-wide state (in process, or shared by every process on one Redis). */
  state: SharedState;
  /** The database (settings, subscriptions, history) when the app started one; the CLI and handler tests run without. */
  storage: Storage | undefined;
  /**
   * `/subscribe`'s channel subscriptions; undefined without a database or a bot token (HTTP-only
   * deployments without DISCORD_TOKEN cannot post on their own).
   */
  subscriptions: Subscriptions | undefined;
  /** Ban-list history (`/card banlist`) and the decks kept for `/subscribe banlist`; undefined without a database. */
  banlists: BanlistFeed | undefined;
  /** What servers, channels and members chose with `/settings`, cached; absent without a database (the CLI, handler tests). */
  settings: SettingsService | undefined;
  /** The router's reading of the settings where an interaction happened (absent without a database). */
  settleInteraction: RouterServices['settleInteraction'];
  cards: CardService;
  /** Deck pictures' art: what is stored or on the member's share now, the rest in the background. */
  deckArt: DeckArt;
  /** Deck pictures composed in turn, away from the event loop and the bot's memory. */
  deckPictures: DeckPictures;
  /** Files members attach (`.ydk` decks), read only from Discord's CDN. */
  attachments: AttachmentSource;
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
  /** Per-member shares other than `MEMBER_SHARES` (tests of other behaviour lift them). */
  memberShares?: Partial<Record<UpstreamName, Partial<MemberShare>>>;
  /** Where attachments are read from: Discord's CDN (default), or the terminal's own files. */
  attachments?: AttachmentSource;
  /** Card database settings (tests: a fake with fewer cards than the real minimum). */
  cardDatabase?: CreateCardServiceOptions['database'];
  /** Where card downloads are read and matchers built (tests: the worker's bundle). */
  offThread?: CreateCardServiceOptions['offThread'];
  /** How long card commands wait for a loading card database (10 s; tests of the wait shorten it). */
  cardLoadWaitMs?: number;
  /** Request deadlines other than `REQUEST_TIMEOUT_MS` (tests of a timeout wait less for it). */
  requestTimeoutMs?: Partial<Record<UpstreamName, number>>;
  /** How deck pictures are composed and queued (tests: a composition held until released). */
  deckPictures?: DeckPicturesOptions;
  /** Run the scheduler of subscriptions (default, with a database and a bot token); tests that drive it by hand turn it off. */
  startScheduler?: boolean;
  /** Where scheduled posts go (default: Discord's REST API with the bot token). */
  channelPoster?: ChannelPoster;
  /** A channel's chosen language and purity ceiling (default: nothing chosen); the settings service plugs in here. */
  channelPreferences?: ChannelPreferences;
}

interface ServiceDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** Default: 'terminal' (the CLI and tests that call handlers directly). */
  mode?: RunMode;
  gatewayPing?: () => number | null;
  /** Fleet-wide state; today's in-process state when absent. Closed with the services. */
  state?: SharedState;
  /** The database, opened and migrated by the app's start. Closed with the services, last. */
  storage?: Storage;
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
  const timeouts = overrides.requestTimeoutMs ?? {};
  const geo = new GeoService({ ...upstream, baseUrl: deps.config.geojsUrl, requestTimeoutMs: timeouts.geojs, now: () => clock.now().getTime() });
  const memberShares = new MemberShares({ state, metrics: deps.metrics, now: () => clock.now().getTime(), overrides: overrides.memberShares });
  const withRefusals = (health: UpstreamHealth) => withMemberShareRefusals(health, memberShares.ledger(health.upstream).refusals);
  closers.push(() => geo.close());
  const dns = new DnsResolver({ servers: deps.config.dnsServers, now: () => clock.now().getTime() });
  closers.push(async () => dns.close());
  healthReporters.push(() => withRefusals(geo.health()));
  const rdap = new RdapService({ ...upstream, bootstrapUrl: deps.config.rdapBootstrapUrl, requestTimeoutMs: timeouts.rdap, now: () => clock.now().getTime() });
  closers.push(() => rdap.close());
  healthReporters.push(() => withRefusals(rdap.health()));
  const wallhaven = new WallhavenService({ ...upstream, baseUrl: deps.config.wallhavenUrl, apiKey: deps.config.wallhavenApiKey, requestTimeoutMs: timeouts.wallhaven });
  closers.push(() => wallhaven.close());
  healthReporters.push(() => withRefusals(wallhaven.health()));
  const cards = createCardService({
    ...upstream,
    baseUrl: deps.config.ygoprodeckUrl,
    imagesBaseUrl: deps.config.ygoprodeckImagesUrl,
    dataDir: deps.config.dataDir,
    logger: deps.logger,
    channelHistory: (options) => state.channelHistory(options),
    sharedArt: state.blobs,
    downloadOnce: (key, download) => state.downloadOnce(key, download),
    ...(overrides.cardDatabase === undefined ? {} : { database: overrides.cardDatabase }),
    ...(overrides.offThread === undefined ? {} : { offThread: overrides.offThread }),
    requestTimeoutMs: timeouts.ygoprodeck,
    loadWaitMs: overrides.cardLoadWaitMs,
  });
  if (overrides.startCardDatabase !== false) await cards.start();
  closers.push(() => cards.close());
  const deckArt = new DeckArt({
    fetch: (imageId, share) => cards.smallArt(imageId, share),
    background: state.memberShareLedger({ name: 'deck-art-background', ...DECK_ART_BACKGROUND, now: () => clock.now().getTime() }),
    logger: deps.logger,
  });
  closers.push(async () => deckArt.close());
  const deckPictures = createDeckPictures({ ...overrides.deckPictures, logger: deps.logger });
  closers.push(() => deckPictures.close());
  healthReporters.push(() => withRefusals(cards.health()));
  const upstreamHealth = () => healthReporters.map((report) => report());
  registerHealthGauges(deps.metrics, upstreamHealth);
  registerSharedStateGauge(deps.metrics, () => state.health().degraded);
  registerFleetGauges(deps.metrics, () => state.fleet.members());
  const settings = deps.storage === undefined ? undefined : new SettingsService({ storage: deps.storage, state, logger: deps.logger, now: () => clock.now().getTime() });
  const banlists = startBanlists(deps, cards, clock, closers);
  const subscriptions = startSubscriptions(deps, overrides, { clock, state, cards, wallhaven, closers, settings, banlists });

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
    ipLookup: new IpLookup(geo, dns),
    rdap,
    worldMap: new WorldMap(),
    artColours: new ArtColours(),
    dig: new DnsDig({ servers: deps.config.dnsServers, doh: deps.config.dohResolvers, dispatcher: overrides.dispatcher }),
    wallhaven,
    wallpaperListings: new WallpaperListings(wallhaven, state.longQueries),
    memberShares,
    state,
    storage: deps.storage,
    subscriptions,
    banlists,
    settings,
    settleInteraction: settings === undefined ? undefined : settleWith(settings),
    cards,
    deckArt,
    deckPictures,
    attachments: overrides.attachments ?? new DiscordAttachments({ cdnUrl: deps.config.discordCdnUrl, dispatcher: overrides.dispatcher }),
    upstreamHealth,
    async close() {
      await Promise.allSettled(closers.map((close) => close()));
      await state.close();
      await deps.storage?.close();
    },
  };
}

/**
 * Ban-list history, whenever the app has a database (a bot without a token still answers
 * `/card banlist`): every process records each card database version it puts in use, once across
 * the fleet. Stops before the database closes.
 */
function startBanlists(deps: ServiceDeps, cards: CardService, clock: Clock, closers: (() => Promise<void>)[]): BanlistFeed | undefined {
  if (deps.storage === undefined) return undefined;
  const feed = new BanlistFeed(new BanlistStore(deps.storage.db), cards, () => clock.now().getTime(), deps.logger);
  feed.start();
  closers.push(() => feed.stop());
  return feed;
}

/**
 * `/subscribe` and its scheduler, when the app has a database and a bot token to post with (both
 * modes post through REST). The scheduler stops before the database closes (closers run first).
 */
function startSubscriptions(
  deps: ServiceDeps,
  overrides: ServiceOverrides,
  parts: {
    clock: Clock;
    state: SharedState;
    cards: CardService;
    wallhaven: WallhavenService;
    closers: (() => Promise<void>)[];
    settings: SettingsService | undefined;
    banlists: BanlistFeed | undefined;
  },
): Subscriptions | undefined {
  const token = deps.config.discordToken;
  if (deps.storage === undefined || (token === undefined && overrides.channelPoster === undefined)) return undefined;
  const store = new SubscriptionsStore(deps.storage.db);
  const now = () => parts.clock.now().getTime();
  if (overrides.startScheduler !== false) {
    const preferences = overrides.channelPreferences ?? (parts.settings === undefined ? NO_PREFERENCES : { forChannel: (guildId, channelId) => parts.settings!.postPreferences(guildId, channelId) });
    const setStore = new CardSetStore(deps.storage.db);
    const newSets = new NewSetsFeed(setStore, parts.cards, now, deps.logger);
    newSets.start();
    parts.closers.push(() => newSets.stop());
    const scheduler = new Scheduler({
      store,
      poster: overrides.channelPoster ?? new RestChannelPoster({ apiUrl: deps.config.discordApiUrl, token: token! }),
      content: (subscription, at) =>
        buildPost(subscription, at, {
          cards: parts.cards,
          wallhaven: parts.wallhaven,
          store,
          preferences,
          banlists: parts.banlists,
          newSets: { sets: setStore, art: (set) => parts.cards.art(set) },
        }),
      now,
      processId: parts.state.processId,
      logger: deps.logger,
      metrics: {
        onPost: (result, lagMs) => {
          deps.metrics.scheduledPosts.inc({ result });
          if (result === 'posted') deps.metrics.scheduledPostLag.observe(lagMs / 1000);
        },
      },
      deletePausedAfterRetention: deps.mode === 'http',
    });
    scheduler.start();
    parts.closers.push(() => scheduler.stop());
  }
  return new Subscriptions(store, now);
}
