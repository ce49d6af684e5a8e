import './startup/check-node.js';
import { createApp, type App } from './app.js';
import { loadConfigOrReport, secretsOf } from './config.js';
import { createLogger } from './logger.js';
import { describeDiscordFailure } from './startup/discord-failure.js';
import { StartupError } from './startup/startup-error.js';

async function main(): Promise<void> {
  const config = loadConfigOrReport('Almanac cannot start', { require: ['DISCORD_TOKEN'] });
  if (!config) process.exit(1);
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs, secrets: secretsOf(config) });

  // Signals are handled from the first moment: one during start-up (loading the card database,
  // logging in) stops what has started and exits 0, like one after it.
  let app: App | undefined;
  let signalled = false;
  const exitAfterStop = async (): Promise<never> => {
    try {
      await app?.stop();
      process.exit(0);
    } catch (error) {
      logger.fatal({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  const shutdown = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, app ? 'shutting down' : 'shutting down during start-up');
    // Before createApp returns there is nothing to stop yet: main() stops it as soon as it exists.
    if (app) void exitAfterStop();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  const fail = async (message: string, error: unknown): Promise<never> => {
    logger.debug({ err: error }, 'start-up failure details');
    logger.fatal(message);
    await app?.stop().catch(() => undefined);
    process.exit(1);
  };

  try {
    app = await createApp({ config, logger });
  } catch (error) {
    if (signalled) return;
    await fail(error instanceof StartupError ? error.message : `Almanac could not start: ${(error as Error).message}`, error);
  }
  if (signalled) {
    await exitAfterStop();
    return;
  }
  const loginStarted = Date.now();
  try {
    await app!.start();
  } catch (error) {
    if (signalled) return;
    await fail(describeDiscordFailure(error, { apiUrl: config.discordApiUrl, elapsedMs: Date.now() - loginStarted }), error);
  }
}

await main();
