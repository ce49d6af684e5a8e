import { createGatewayApp } from '../app/gateway.js';
import { loadConfigOrReport, secretsOf } from '../runtime/config.js';
import { createLogger } from '../runtime/logger.js';
import { runUntilSignalled } from '../runtime/lifecycle.js';
import { describeDiscordFailure } from '../runtime/discord-failure.js';

async function main(): Promise<void> {
  const config = loadConfigOrReport('Almanac cannot start', { require: ['DISCORD_TOKEN'] });
  if (!config) process.exit(1);
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs, secrets: secretsOf(config) });
  await runUntilSignalled({
    logger,
    create: () => createGatewayApp({ config, logger }),
    describeStartFailure: (error, elapsedMs) => describeDiscordFailure(error, { apiUrl: config.discordApiUrl, elapsedMs }),
  });
}

await main();
