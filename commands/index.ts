import type { Command } from '../src/interaction/command.js';
import type { AppServices } from '../src/app/services.js';
import { card } from './card.js';
import { deck } from './deck.js';
import { ip } from './ip.js';
import { locateIp } from './locate-ip.js';
import { readDeckMenu } from './read-deck.js';
import { status } from './status.js';
import { wallpaper } from './wallpaper.js';

/** The command set, in the order `npm run register` sends it. */
export const commands: readonly Command<AppServices>[] = [ip, locateIp, card, deck, readDeckMenu, status, wallpaper];
