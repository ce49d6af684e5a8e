import { createApp } from './app.js';
import { loadConfigOrReport, secretsOf } from './config.js';
import { createLogger } from './logger.js';

async function main(): Promise<void> {
  const config = loadConfigOrReport('Almanac cannot start', { require: ['DISCORD_TOKEN'] });
  if (!config) process.exit(1);
  const app = await createApp({
    config,
    logger: createLogger({ level: config.logLevel, pretty: config.prettyLogs, secrets: secretsOf(config) }),
  });
  const { logger } = app;

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
    logger.fatal({ err: error }, 'could not log in to Discord');
    await app.stop();
    process.exit(1);
  }
}

await main();
