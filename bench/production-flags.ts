import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../scripts/compile.js';

/**
 * The Node flags production starts the bot with: those of `npm start` or `npm run start:http`
 * (the image sets the same in NODE_OPTIONS), without the `.env` file. The bench's bots run with
 * them, so that what it measures is what an operator runs.
 */
export function productionNodeFlags(script: 'start' | 'start:http'): string[] {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const command = manifest.scripts[script];
  if (command === undefined) throw new Error(`package.json has no "${script}" script`);
  return command.split(/\s+/).filter((word) => word.startsWith('--') && !word.startsWith('--env-file'));
}
