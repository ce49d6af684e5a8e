import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawCard } from '../../src/cards/normalise-card.js';
import type { Config } from '../../src/runtime/config.js';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../../src/http/http-app.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeSigningKeys, signedInteractionsEndpoint, type SigningKeys } from '../fakes/discord-http.js';
import { offlineTestSetup } from './bot.js';
import { writeCardSnapshot } from './card-snapshot.js';
import type { LogCapture } from './log-capture.js';
import { testOffThread } from './off-thread.js';

export interface TestHttpBot {
  /** Acts as Discord: its exchanges are signed and POSTed to the bot, and it receives the webhook writes. */
  discord: FakeDiscord;
  app: HttpApp;
  config: Config;
  logs: LogCapture;
  keys: SigningKeys;
  /** `http://127.0.0.1:<port>/interactions` */
  url: string;
  /** From now on the fake Discord delivers interactions to this replica. */
  receiveInteractions(): void;
  stop(): Promise<void>;
}

export interface StartHttpBotOptions extends Pick<HttpAppOptions, 'commands' | 'overrides' | 'drainTimeoutMs' | 'server'> {
  env?: NodeJS.ProcessEnv;
  /** The key pair Discord signs with (default: a fresh Node Ed25519 pair). */
  keys?: SigningKeys;
  /** A fake Discord another replica already uses (its interactions then go to whichever endpoint was set last); default: a new one. */
  discord?: FakeDiscord;
  /** A card database to start with (e.g. a fake YGOPRODeck's cards and version), so no download is needed. */
  cardSnapshot?: { cards: readonly RawCard[]; version: string };
}

/**
 * Starts the real HTTP mode (the same `createHttpApp` as `npm run start:http`) on a free port, with
 * no bot token, against a fresh fake Discord that delivers interactions to it signed.
 */
export async function startTestHttpBot(options: StartHttpBotOptions = {}): Promise<TestHttpBot> {
  const keys = options.keys ?? nodeSigningKeys();
  const discord = options.discord ?? (await startFakeDiscord());
  const dataDir = await mkdtemp(join(tmpdir(), 'almanac-http-test-'));
  if (options.cardSnapshot) await writeCardSnapshot(dataDir, options.cardSnapshot.cards, options.cardSnapshot.version);
  const { config, logs, logger } = offlineTestSetup({
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    INTERACTIONS_PORT: '0',
    DISCORD_API_URL: discord.apiUrl,
    DATA_DIR: dataDir,
    ...options.env,
  });
  const app = await createHttpApp({
    config,
    logger,
    commands: options.commands,
    overrides: { offThread: testOffThread(), ...options.overrides },
    drainTimeoutMs: options.drainTimeoutMs,
    server: options.server,
    // discord.js's own timeout (15 s): a shorter one made it send an interaction callback again
    // while a loaded machine was still answering the first, which Discord refuses ("already acknowledged").
    discordRest: { retries: 2, timeout: 15_000 },
  });
  await app.start();
  const url = `http://127.0.0.1:${app.port}/interactions`;
  const receiveInteractions = () => discord.deliverInteractionsTo(signedInteractionsEndpoint(url, keys));
  receiveInteractions();
  return {
    discord,
    app,
    config,
    logs,
    keys,
    url,
    receiveInteractions,
    async stop() {
      await app.stop();
      if (!options.discord) await discord.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
