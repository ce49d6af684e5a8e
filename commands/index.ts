import type { Command } from '../src/command.js';
import { status } from './status.js';

/** The command set, in the order `npm run register` sends it. */
export const commands: readonly Command[] = [status];
