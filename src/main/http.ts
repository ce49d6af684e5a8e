import { loadConfigOrReport, secretsOf } from '../runtime/config.js';
import { createHttpApp } from '../http/http-app.js';
import { createLogger } from '../runtime/logger.js';
import { runUntilSignalled } from '../runtime/lifecycle.js';

/** `npm run start:http`: Almanac as an HTTP interactions endpoint, with no gateway connection. */
async function main(): Promise<void> {
  const config = loadConfigOrReport('Almanac cannot start in HTTP mode', { require: ['DISCORD_PUBLIC_KEY'] });
  if (!config) process.exit(1);
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs, secrets: secretsOf(config) });
  await runUntilSignalled({
    logger,
    create: () => createHttpApp({ config, logger }),
    describeStartFailure: (error) => `Almanac could not serve HTTP interactions on port ${config.interactionsPort}: ${(error as Error).message}`,
  });
}

await main();
