import './startup/check-node.js';
import { REST, Routes } from 'discord.js';
import { commands } from '../commands/index.js';
import { loadConfigOrReport, type Config } from './config.js';
import { describeDiscordFailure } from './startup/discord-failure.js';

/**
 * One bulk overwrite of the whole command set: to DEV_GUILD_ID when set (instant), else global.
 * A PUT replaces everything at once and costs one request, unlike a POST per command.
 */
async function register(config: Config): Promise<number> {
  const rest = new REST({ api: config.discordApiUrl }).setToken(config.discordToken!);
  const application = (await rest.get(Routes.currentApplication())) as { id: string };
  const body = commands.map((command) => command.data);
  const route = config.devGuildId
    ? Routes.applicationGuildCommands(application.id, config.devGuildId)
    : Routes.applicationCommands(application.id);
  const registered = (await rest.put(route, { body })) as unknown[];
  console.log(
    `Registered ${registered.length} command${registered.length === 1 ? '' : 's'} ${config.devGuildId ? `to guild ${config.devGuildId}` : 'globally (may take up to an hour to appear)'}.`,
  );
  return 0;
}

// Only the token is needed: the application id comes from Discord (GET /applications/@me).
const config = loadConfigOrReport('Cannot register commands', { require: ['DISCORD_TOKEN'] });
if (!config) {
  process.exitCode = 1;
} else {
  const started = Date.now();
  try {
    process.exitCode = await register(config);
  } catch (error) {
    // Built from codes, statuses and the URL: never the request, which carries the token.
    console.error(`Registration failed. ${describeDiscordFailure(error, { apiUrl: config.discordApiUrl, elapsedMs: Date.now() - started })}`);
    if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(error);
    process.exitCode = 1;
  }
}
