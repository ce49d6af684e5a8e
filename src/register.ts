import { REST, Routes } from 'discord.js';
import { commands } from '../commands/index.js';
import { loadConfigOrReport } from './config.js';
import { registrationBody } from './registration-body.js';

/**
 * One bulk overwrite of the whole command set: to DEV_GUILD_ID when set (instant), else global.
 * A PUT replaces everything at once and costs one request, unlike a POST per command.
 */
async function register(): Promise<number> {
  const config = loadConfigOrReport('Cannot register commands', { require: ['DISCORD_TOKEN'] });
  if (!config) return 1;
  const rest = new REST({ api: config.discordApiUrl }).setToken(config.discordToken!);
  const application = (await rest.get(Routes.currentApplication())) as { id: string };
  const body = registrationBody(commands);
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
