import { Worker } from 'node:worker_threads';
import type { CardLanguage } from '../../cards/card.js';
import type { MatchableCard, MatcherTables } from '../../cards/matcher-tables.js';
import { packCards, packNames, unpackTables, type BuildAnswer, type BuildRequest, type PackedCards, type PackedNames } from './transfer.js';

/**
 * Matcher builds off the event loop, in a worker thread. A build over every card in five languages
 * takes about half a second of CPU; on the event loop that held up every interaction for as long.
 * Here the event loop only packs the input and reads the tables back (a few ms each). The builds
 * of a start or a version change come one after another (English, then each language), so one
 * worker takes them all and ends once it has been idle for IDLE_MS.
 */
const IDLE_MS = 2_000;

/**
 * The worker's entry next to this file: compiled JavaScript in production, TypeScript under tsx or
 * vitest. Bundled into an entry point of src/ (the tests' bundles), this code runs from that entry
 * point's file, and the worker's bundle sits at its own path below it.
 */
const ENTRY = /\/services\/matcher-builds\/off-thread\.[jt]s$/.test(import.meta.url)
  ? new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url)
  : new URL('./services/matcher-builds/worker.js', import.meta.url);

interface Pending {
  resolve(tables: MatcherTables): void;
  reject(error: unknown): void;
}

interface BuildWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

let current: BuildWorker | null = null;
let nextId = 1;
/** Each card set and language's names packed once: a start's builds all send the same English cards. */
const packedCards = new WeakMap<readonly MatchableCard[], PackedCards>();
const packedNames = new WeakMap<ReadonlyMap<number, string>, PackedNames>();

function packedOnce<K extends object, V>(cache: WeakMap<K, V>, key: K, pack: () => V): V {
  let packed = cache.get(key);
  if (packed === undefined) cache.set(key, (packed = pack()));
  return packed;
}

function startWorker(): Worker {
  if (ENTRY.pathname.endsWith('.js')) return new Worker(ENTRY);
  // The sources run untranspiled (npm run dev, the tests): the worker loads tsx before its entry.
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(ENTRY.href)}); });`, { eval: true });
}

function buildWorker(): BuildWorker {
  if (current !== null) {
    clearTimeout(current.idle);
    return current;
  }
  const state: BuildWorker = { worker: startWorker(), pending: new Map() };
  const failAll = (error: unknown) => {
    if (current === state) current = null;
    for (const pending of state.pending.values()) pending.reject(error);
    state.pending.clear();
  };
  state.worker.on('message', ({ id, tables }: BuildAnswer) => {
    const pending = state.pending.get(id);
    state.pending.delete(id);
    pending?.resolve(unpackTables(tables));
    stopWhenIdle(state);
  });
  state.worker.once('error', failAll);
  state.worker.once('exit', (code) => failAll(new Error(`matcher build worker exited with code ${code}`)));
  current = state;
  return state;
}

/** An idle worker never keeps the process alive, and ends after IDLE_MS. */
function stopWhenIdle(state: BuildWorker): void {
  if (state.pending.size > 0) return;
  state.worker.unref();
  clearTimeout(state.idle);
  state.idle = setTimeout(() => {
    if (state.pending.size > 0) return;
    if (current === state) current = null;
    void state.worker.terminate();
  }, IDLE_MS);
  state.idle.unref();
}

/**
 * The tables of a matcher over `cards` (default sound key), with `names` in each language. Rejects
 * if the worker fails or `signal` aborts (the answer is then dropped when it comes).
 */
export function buildMatcherTablesOffThread(
  cards: readonly MatchableCard[],
  aliases: Readonly<Record<string, string>>,
  names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>,
  signal?: AbortSignal,
): Promise<MatcherTables> {
  signal?.throwIfAborted();
  const state = buildWorker();
  const id = nextId++;
  let abort = () => {};
  return new Promise<MatcherTables>((resolve, reject) => {
    state.pending.set(id, { resolve, reject });
    // A build someone waits for keeps the process alive (a CLI awaiting the card database, say).
    state.worker.ref();
    abort = () => {
      state.pending.delete(id);
      stopWhenIdle(state);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    const input = {
      cards: packedOnce(packedCards, cards, () => packCards(cards)),
      aliases,
      languages: [...names].map(([language, byPasscode]) => packedOnce(packedNames, byPasscode, () => packNames(language, byPasscode))),
    };
    state.worker.postMessage({ id, input } satisfies BuildRequest);
  }).finally(() => signal?.removeEventListener('abort', abort));
}
