import type { RESTPutAPIApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from './command.js';
import { localizeCommand } from '../i18n/localize-command.js';

/**
 * What `npm run register` PUTs: every command as its builder made it (integration types and
 * contexts included), with its names, descriptions and choices localized.
 */
export function registrationBody(commands: readonly Pick<Command<unknown>, 'data'>[]): RESTPutAPIApplicationCommandsJSONBody {
  return commands.map((command) => localizeCommand(command.data));
}
