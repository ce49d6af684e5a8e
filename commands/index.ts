import type { Command } from '../src/interaction/command.js';
import type { AppServices } from '../src/app/services.js';
import { card } from './card/index.js';
import { deck } from './deck/index.js';
import { readDeckMenu } from './deck/read-deck-menu.js';
import { ip } from './ip/index.js';
import { locateIp } from './ip/locate-menu.js';
import { settings } from './settings/index.js';
import { status } from './status/index.js';
import { subscribe } from './subscribe/index.js';
import { wallpaper, withoutAiArt } from './wallpaper/index.js';

/**
 * The command set, in the order `npm run register` sends it: one folder per command, a message
 * menu in the folder of the command whose answer it gives.
 */
export const commands: readonly Command<AppServices>[] = [ip, locateIp, card, deck, readDeckMenu, status, settings, subscribe, wallpaper];

/** The set `npm run register` sends: `/wallpaper`'s `ai-art` only where the operator turned it on. */
export function registeredCommands(features: { wallhavenAiFilter: boolean }): readonly Command<AppServices>[] {
  if (features.wallhavenAiFilter) return commands;
  return commands.map((command) => (command === wallpaper ? { ...wallpaper, data: withoutAiArt(wallpaper.data) } : command));
}
