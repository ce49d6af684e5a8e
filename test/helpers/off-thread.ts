import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LRUCache } from 'lru-cache';
import type { MatcherTables } from '../../src/cards/matcher-tables.js';
import { offThreadJobs, type OffThreadJobs } from '../../src/services/off-thread/off-thread.js';
import { readStoredTables, writeStoredTables } from '../../src/services/off-thread/stored-tables.js';
import { COMPILED_ENTRY_POINTS_ENV } from './compiled-entry-points.js';
import { inRunFolder, onceInRun } from './once-in-run.js';

/**
 * The off-thread jobs of the bots tests start, two costs of the sources paid once:
 * - The worker runs the run's bundle of its code (test/global-setup.ts), not the TypeScript under
 *   tsx: tsx's loader costs about 0.9 s of CPU at every worker start against 0.15 s, and most
 *   files that start a bot start a worker.
 * - Each distinct matcher (the same cards, abbreviations and names) is built once per run: most
 *   files start bots on the same snapshot of the real database, whose five-language build takes a
 *   second or two. The tables are only read once built, so bots may share them: within a test
 *   process as they are, across processes as a restart reads them (stored-tables.ts), from the run's
 *   folder (test/global-setup.ts).
 * Outside vitest's run (no bundle) the worker next to the sources runs, as in `npm run dev`.
 */
let jobs: OffThreadJobs | undefined;

export function testOffThread(): OffThreadJobs {
  if (jobs !== undefined) return jobs;
  const worker = bundledWorkerJobs();
  // The worker starts with its first job: most bots' builds are shared and need none.
  jobs = { start: () => {}, readDownload: worker.readDownload, buildMatcherTables: buildOnce(worker.buildMatcherTables) };
  return jobs;
}

/** The jobs in the worker of the run's bundle, every build done afresh (tests of the builds themselves). */
export function bundledWorkerJobs(): OffThreadJobs {
  const bundles = process.env[COMPILED_ENTRY_POINTS_ENV];
  return offThreadJobs(bundles === undefined ? undefined : pathToFileURL(join(bundles, 'src/services/off-thread/worker.js')));
}

/** Distinct matchers kept: a file's bots use one or two (English alone, all five languages). */
const KEPT = 4;

function buildOnce(build: OffThreadJobs['buildMatcherTables']): OffThreadJobs['buildMatcherTables'] {
  const built = new LRUCache<string, Promise<MatcherTables>>({ max: KEPT });
  return (cards, aliases, names, signal) => {
    signal?.throwIfAborted();
    const hash = createHash('sha1').update(JSON.stringify(aliases));
    for (const card of cards) hash.update(`\0${card.id}\0${card.name}\0${card.altNames?.join('\u0001') ?? ''}\0${card.konamiId ?? ''}\0${card.popularity ?? ''}`);
    for (const [language, byPasscode] of names) {
      hash.update(`\0\0${language}`);
      for (const [passcode, name] of byPasscode) hash.update(`\0${passcode}\0${name}`);
    }
    const key = hash.digest('hex');
    let tables = built.get(key);
    if (tables === undefined) {
      // Not aborted with the first bot that asked: another may be waiting for the same tables.
      tables = builtInRun(key, () => build(cards, aliases, names));
      built.set(key, tables);
      tables.catch(() => built.delete(key));
    }
    return tables;
  };
}

/**
 * The run's tables of `key`: read back when another test process built them, else built here and
 * stored for the others (see onceInRun).
 */
async function builtInRun(key: string, build: () => Promise<MatcherTables>): Promise<MatcherTables> {
  const dir = inRunFolder('matcher-tables');
  if (dir === undefined) return build();
  // Not a name stored-tables.ts prunes: every table of the run stays until the run's folder goes.
  const file = { dir, name: 'run', path: join(dir, `${key}.tables`) };
  await mkdir(dir, { recursive: true });
  return onceInRun(file.path, () => readStoredTables(file), async () => {
    const tables = await build();
    writeStoredTables(file, tables);
    return tables;
  });
}
