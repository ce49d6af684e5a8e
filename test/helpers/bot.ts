import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawCard } from '../../src/cards/normalise-card.js';
import { createGatewayApp, type GatewayApp, type GatewayAppOptions } from '../../src/app/gateway.js';
import { loadConfig, secretsOf, type Config } from '../../src/runtime/config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from '../fakes/discord.js';
import { writeCardFormat2Snapshot, writeCardSnapshot } from './card-snapshot.js';
import { destroyClientWhenSettled } from './discord-client.js';
import { LogCapture } from './log-capture.js';
import { testComposerEntry } from './deck-composer.js';
import { testOffThread } from './off-thread.js';

/** Canary secrets: any test may assert they never leave the process. */
export const CANARY_TOKEN = 'canary-discord-token.MTAxMDEwMTAxMDEw.secretpart0123456789';
export const CANARY_WALLHAVEN_KEY = 'canary-wallhaven-key-9f8e7d6c5b4a';

export interface TestBot {
  discord: FakeDiscord;
  app: GatewayApp;
  config: Config;
  logs: LogCapture;
  stop(): Promise<void>;
}

export interface StartBotOptions {
  /** Extra environment, e.g. upstream URLs of the fakes. */
  env?: NodeJS.ProcessEnv;
  commands?: GatewayAppOptions['commands'];
  overrides?: GatewayAppOptions['overrides'];
  /** A fleet-wide state built by the test (e.g. on a test Redis, to time-compress its limiters). */
  state?: GatewayAppOptions['state'];
  drainTimeoutMs?: number;
  /** Fake Discord settings, e.g. a short heartbeat interval for zombie-connection tests. */
  discord?: Omit<FakeDiscordOptions, 'token'>;
  /** A fake Discord to join instead of starting one (several bots of one fleet, each with its own
   * shards); it must accept CANARY_TOKEN, and the caller closes it. */
  joinDiscord?: FakeDiscord;
  /** A card database to start with (e.g. a fake YGOPRODeck's cards and version), so no download is needed. */
  cardSnapshot?: { cards: readonly RawCard[]; version: string; /** 2: as main 9f0f9b6 wrote it (English only). */ cardFormat?: 2 };
}

/**
 * A test bot's config (debug logs; upstreams and DNS on a closed port unless `env` points them at
 * fakes, so a test that forgets one fails instead of going online) and its logger, every line captured.
 */
export function offlineTestSetup(env: NodeJS.ProcessEnv): { config: Config; logs: LogCapture; logger: ReturnType<typeof createLogger> } {
  const config = loadConfig({
    LOG_LEVEL: 'debug',
    GEOJS_URL: 'http://127.0.0.1:9',
    WALLHAVEN_URL: 'http://127.0.0.1:9',
    YGOPRODECK_URL: 'http://127.0.0.1:9',
    YGOPRODECK_IMAGES_URL: 'http://127.0.0.1:9/images',
    RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9',
    DNS_SERVERS: '127.0.0.1:9',
    DISCORD_CDN_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const logs = new LogCapture();
  return { config, logs, logger: createLogger({ level: config.logLevel, secrets: secretsOf(config), destination: logs }) };
}

/**
 * Starts the real app wiring (the same `createGatewayApp` the entry point uses) against a fresh fake
 * Discord, with every log line captured, and a temporary DATA_DIR.
 */
export async function startTestBot(options: StartBotOptions = {}): Promise<TestBot> {
  const discord = options.joinDiscord ?? (await startFakeDiscord({ ...options.discord, token: CANARY_TOKEN }));
  const dataDir = await mkdtemp(join(tmpdir(), 'almanac-test-'));
  if (options.cardSnapshot) {
    const { cards, version, cardFormat } = options.cardSnapshot;
    await (cardFormat === 2 ? writeCardFormat2Snapshot : writeCardSnapshot)(dataDir, cards, version);
  }
  const { config, logs, logger } = offlineTestSetup({ DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: discord.apiUrl, DISCORD_CDN_URL: discord.cdnUrl, DATA_DIR: dataDir, ...options.env });
  const app = await createGatewayApp({
    config,
    logger,
    commands: options.commands,
    overrides: { offThread: testOffThread(), ...options.overrides, deckPictures: { ...testComposerEntry(), ...options.overrides?.deckPictures } },
    ...(options.state ? { state: options.state } : {}),
    // discord.js's own timeout (15 s): a shorter one made it send an interaction callback again
    // while a loaded machine was still answering the first, which Discord refuses ("already acknowledged").
    discordRest: { retries: 2, timeout: 15_000 },
    drainTimeoutMs: options.drainTimeoutMs,
  });
  await app.start();
  return {
    discord,
    app,
    config,
    logs,
    async stop() {
      // A test may have stopped the app itself; only a live client can race a reconnect.
      if (app.isReady()) await destroyClientWhenSettled(app.client);
      await app.stop();
      if (!options.joinDiscord) await discord.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every byte the bot sent to Discord (REST bodies, query strings and uploaded files) as text. */
export function everythingSentToDiscord(discord: FakeDiscord): string {
  return discord.calls
    .map((call) =>
      [
        call.path,
        call.query.toString(),
        JSON.stringify(call.json ?? null),
        ...(call.files ?? []).map((file) => file.data.toString('latin1')),
      ].join('\n'),
    )
    .join('\n');
}
