import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMPILED_ENTRY_POINTS_ENV } from './compiled-entry-points.js';

/**
 * The deck composer's child for the bots and composers tests start: the run's bundle of it
 * (test/global-setup.ts), not the TypeScript under tsx, whose loader took seconds to start a child
 * on a busy machine, with a deck's first answer waiting for it. Outside vitest's run (no bundle),
 * the child next to the sources runs.
 */
export function testComposerEntry(): { entry?: URL } {
  const bundles = process.env[COMPILED_ENTRY_POINTS_ENV];
  return bundles === undefined ? {} : { entry: pathToFileURL(join(bundles, 'src/services/deck-pictures/composer-child.js')) };
}
