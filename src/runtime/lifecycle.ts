import type { Logger } from './logger.js';
import { StartupError } from './startup-error.js';

interface Runnable {
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface RunOptions<App extends Runnable> {
  logger: Logger;
  /** Builds the app (services, card database); a StartupError's message is shown as it is. */
  create(): Promise<App>;
  /** The one line for a failed `start()` (logging in, binding a port), given how long it took. */
  describeStartFailure(error: unknown, elapsedMs: number): string;
}

/**
 * Runs an entry point's app until SIGTERM/SIGINT, then stops it gracefully and exits 0 (1 when the
 * stop fails). Signals are handled from the first moment: one during start-up (loading the card
 * database, logging in) stops what has started and exits 0, like one after it. A failure to start
 * is one fatal line (details at debug level) and exit 1.
 */
export async function runUntilSignalled<App extends Runnable>(options: RunOptions<App>): Promise<void> {
  const { logger } = options;
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
    // Before create() returns there is nothing to stop yet: it is stopped as soon as it exists.
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
    app = await options.create();
  } catch (error) {
    if (signalled) return;
    await fail(error instanceof StartupError ? error.message : `Almanac could not start: ${(error as Error).message}`, error);
  }
  if (signalled) {
    await exitAfterStop();
    return;
  }
  const started = Date.now();
  try {
    await app!.start();
  } catch (error) {
    if (signalled) return;
    await fail(options.describeStartFailure(error, Date.now() - started), error);
  }
}
