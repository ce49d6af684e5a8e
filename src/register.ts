import { REST, Routes } from 'discord.js';
import { commands } from '../commands/index.js';
import { ConfigError, loadConfig } from './config.js';

/**
 * One bulk overwrite of the whole command set: to DEV_GUILD_ID when set (instant), else global.
 * A PUT replaces everything at once and costs one request, unlike a POST per command.
 */
async function register(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env, { require: ['DISCORD_TOKEN'] });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Cannot register commands. Fix these settings (see .env.example):\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
      return 1;
    }
    throw error;
  }
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

try {
  process.exitCode = await register();
} catch (error) {
  // Discord's error messages never include the token; print only the message, not the request.
  console.error(`Registration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
