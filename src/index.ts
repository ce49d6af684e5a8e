import { createApp } from './app.js';
import { loadConfigOrReport, secretsOf } from './config.js';
import { createLogger } from './logger.js';
import { runUntilSignalled } from './process-lifecycle.js';

async function main(): Promise<void> {
  const config = loadConfigOrReport('Almanac cannot start', { require: ['DISCORD_TOKEN'] });
  if (!config) process.exit(1);
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs, secrets: secretsOf(config) });
  const app = await createApp({ config, logger });
  await runUntilSignalled(app, logger, 'could not log in to Discord');
}

await main();
