import { parseArgs } from 'node:util';
import { REST, Routes } from 'discord.js';
import { registeredCommands } from '../../commands/index.js';
import { loadConfigOrReport, type Config } from '../runtime/config.js';
import { describeDiscordFailure } from '../runtime/discord-failure.js';
import { registrationBody } from '../interaction/registration-body.js';

const USAGE = 'Usage: npm run register [-- --endpoint https://bot.example.com/interactions]';

/** `--endpoint <url>`: also make Discord deliver interactions to this URL (HTTP mode). */
function endpointArgument(): { endpoint: string | undefined } | { problem: string } {
  let values: { endpoint?: string | undefined };
  try {
    ({ values } = parseArgs({ options: { endpoint: { type: 'string' } }, strict: true }));
  } catch (error) {
    return { problem: `${(error as Error).message}\n${USAGE}` };
  }
  if (values.endpoint === undefined) return { endpoint: undefined };
  const url = URL.canParse(values.endpoint) ? new URL(values.endpoint) : undefined;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    return { problem: `--endpoint must be the public https URL of POST /interactions (got a value that is not one).\n${USAGE}` };
  }
  return { endpoint: url.href };
}

/**
 * One bulk overwrite of the whole command set: to DEV_GUILD_ID when set (instant), else global.
 * A PUT replaces everything at once and costs one request, unlike a POST per command. With
 * `--endpoint`, the application's Interactions Endpoint URL is set too (Discord then checks the
 * endpoint with a PING and badly signed requests before it accepts it).
 */
async function register(config: Config, endpoint: string | undefined): Promise<number> {
  const rest = new REST({ api: config.discordApiUrl }).setToken(config.discordToken!);
  const application = (await rest.get(Routes.currentApplication())) as { id: string };
  const body = registrationBody(registeredCommands(config));
  const route = config.devGuildId
    ? Routes.applicationGuildCommands(application.id, config.devGuildId)
    : Routes.applicationCommands(application.id);
  const registered = (await rest.put(route, { body })) as unknown[];
  console.log(
    `Registered ${registered.length} command${registered.length === 1 ? '' : 's'} ${config.devGuildId ? `to guild ${config.devGuildId}` : 'globally (may take up to an hour to appear)'}.`,
  );
  if (endpoint !== undefined) {
    await rest.patch(Routes.currentApplication(), { body: { interactions_endpoint_url: endpoint } });
    console.log(`Interactions endpoint set to ${endpoint}: Discord now sends interactions there, not over the gateway.`);
  }
  return 0;
}

// Only the token is needed: the application id comes from Discord (GET /applications/@me).
const argument = endpointArgument();
const config = 'problem' in argument ? null : loadConfigOrReport('Cannot register commands', { require: ['DISCORD_TOKEN'] });
if ('problem' in argument) {
  console.error(argument.problem);
  process.exitCode = 1;
} else if (!config) {
  process.exitCode = 1;
} else {
  const started = Date.now();
  try {
    process.exitCode = await register(config, argument.endpoint);
  } catch (error) {
    // Built from codes, statuses and the URL: never the request, which carries the token.
    console.error(`Registration failed. ${describeDiscordFailure(error, { apiUrl: config.discordApiUrl, elapsedMs: Date.now() - started })}`);
    if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(error);
    process.exitCode = 1;
  }
}
