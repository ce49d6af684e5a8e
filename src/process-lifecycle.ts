import type { Logger } from './logger.js';

/**
 * Runs an entry point's app until SIGTERM/SIGINT, then stops it gracefully and exits 0 (1 when the
 * stop fails). A start failure is logged as `startFailure` and exits 1.
 */
export async function runUntilSignalled(app: { start(): Promise<void>; stop(): Promise<void> }, logger: Logger, startFailure: string): Promise<void> {
  let signalled = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'shutting down');
    app.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.fatal({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  try {
    await app.start();
  } catch (error) {
    logger.fatal({ err: error }, startFailure);
    await app.stop();
    process.exit(1);
  }
}
