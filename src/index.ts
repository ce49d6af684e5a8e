import './startup/check-node.js';
import { createApp } from './app.js';
import { loadConfigOrReport, secretsOf } from './config.js';
import { createLogger } from './logger.js';
import { runUntilSignalled } from './process-lifecycle.js';
import { describeDiscordFailure } from './startup/discord-failure.js';

async function main(): Promise<void> {
  const config = loadConfigOrReport('Almanac cannot start', { require: ['DISCORD_TOKEN'] });
  if (!config) process.exit(1);
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs, secrets: secretsOf(config) });
  await runUntilSignalled({
    logger,
    create: () => createApp({ config, logger }),
    describeStartFailure: (error, elapsedMs) => describeDiscordFailure(error, { apiUrl: config.discordApiUrl, elapsedMs }),
  });
}

await main();
