import { Worker } from 'node:worker_threads';
import type { CardLanguage } from '../../cards/card.js';
import type { MatchableCard, MatcherTables } from '../../cards/matcher-tables.js';
import { packBuildInput, unpackTables, type PackedTables } from './transfer.js';

/**
 * Matcher builds off the event loop: each build runs in a worker thread of its own, which sends
 * the tables back and exits. A build over every card in five languages takes about half a second
 * of CPU; on the event loop that held up every interaction for as long. Here the event loop only
 * packs the input and reads the tables back (a few ms each).
 */

/**
 * The worker's entry next to this file: compiled JavaScript in production, TypeScript under tsx or
 * vitest. Bundled into an entry point of src/ (the tests' bundles), this code runs from that entry
 * point's file, and the worker's bundle sits at its own path below it.
 */
const ENTRY = /\/services\/matcher-builds\/off-thread\.[jt]s$/.test(import.meta.url)
  ? new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url)
  : new URL('./services/matcher-builds/worker.js', import.meta.url);

function startWorker(): Worker {
  if (ENTRY.pathname.endsWith('.js')) return new Worker(ENTRY);
  // The sources run untranspiled (npm run dev, the tests): the worker loads tsx before its entry.
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(ENTRY.href)}); });`, { eval: true });
}

/**
 * The tables of a matcher over `cards` (default sound key), with `names` in each language. Rejects
 * if the worker fails or `signal` aborts (the worker is then stopped).
 */
export function buildMatcherTablesOffThread(
  cards: readonly MatchableCard[],
  aliases: Readonly<Record<string, string>>,
  names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>,
  signal?: AbortSignal,
): Promise<MatcherTables> {
  signal?.throwIfAborted();
  const worker = startWorker();
  let abort = () => {};
  return new Promise<MatcherTables>((resolve, reject) => {
    abort = () => reject(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (tables: PackedTables) => resolve(unpackTables(tables)));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`matcher build worker exited with code ${code} before sending its tables`)));
    const { message, transfer } = packBuildInput(cards, aliases, names);
    worker.postMessage(message, transfer);
  }).finally(() => {
    signal?.removeEventListener('abort', abort);
    // Settled either way: a worker that is done exits by itself; one still building is stopped.
    void worker.terminate();
  });
}
