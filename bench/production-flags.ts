import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../scripts/compile.js';

/**
 * The Node flags production starts the bot with: those of `npm start` or `npm run start:http`
 * (the image sets the same in NODE_OPTIONS), without the `.env` file. The bench's bots run with
 * them, so that what it measures is what an operator runs.
 */
export function productionNodeFlags(script: 'start' | 'start:http'): string[] {
  return scriptWords(script).filter((word) => word.startsWith('--') && !word.startsWith('--env-file'));
}

/**
 * The environment `npm start` or `npm run start:http` sets before `node` (the image sets the same
 * with ENV): the allocator's settings, which glibc reads as the process starts, before Node could
 * read them from a file.
 */
export function productionEnvironment(script: 'start' | 'start:http'): Record<string, string> {
  const words = scriptWords(script);
  const assignments = words.slice(0, words.indexOf('node'));
  return Object.fromEntries(assignments.map((word) => {
    const [name, value] = word.split('=', 2) as [string, string | undefined];
    if (value === undefined || !/^[A-Z_][A-Z0-9_]*$/.test(name)) throw new Error(`package.json "${script}": "${word}" before node is not NAME=value`);
    return [name, value];
  }));
}

function scriptWords(script: 'start' | 'start:http'): string[] {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const command = manifest.scripts[script];
  if (command === undefined) throw new Error(`package.json has no "${script}" script`);
  const words = command.split(/\s+/);
  if (!words.includes('node')) throw new Error(`package.json "${script}" does not run node`);
  return words;
}
