import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { CardLanguage } from '../../cards/card.js';
import type { MatchableCard, MatcherTables } from '../../cards/matcher-tables.js';
import { isUpstreamError, UpstreamError } from '../../interaction/upstream-error.js';
import { compactCardinfoBody, type CompactDownload, type DownloadKind } from './compact-download.js';
import { packCards, packNames, type PackedCards, type PackedNames, type WorkerAnswer, type WorkerJob, type WorkerReady, type WorkerRequest } from './transfer.js';

/**
 * Work of a second or so off the event loop, in a worker thread: matcher builds (about half a
 * second of CPU over every card in five languages) and reading a downloaded card database (parse,
 * validation, normalisation and compaction of a ≈20 MB body: about as long). On the event loop each
 * held up every interaction for as long. Here the event loop only sends the input and reads the
 * answer back (a few ms each). The jobs of a start or a version change come one after another
 * (English, then each language), so one worker takes them all and ends once it has been idle for
 * IDLE_MS.
 */
const IDLE_MS = 2_000;
/**
 * How long a worker started ahead of its first job (OffThreadJobs.start) waits for it: a fresh
 * start's first job (the set list's matcher, a download) comes seconds after start-up.
 */
const FIRST_JOB_WAIT_MS = 30_000;

/**
 * The worker's entry next to this file: compiled JavaScript in production, TypeScript under tsx or
 * vitest. Bundled into an entry point of src/ (the tests' bundles), this code runs from that entry
 * point's file, and the worker's bundle sits at its own path below it.
 */
const DEFAULT_ENTRY = /\/services\/off-thread\/off-thread\.[jt]s$/.test(import.meta.url)
  ? new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url)
  : new URL('./services/off-thread/worker.js', import.meta.url);

interface Pending {
  resolve(answer: WorkerAnswer): void;
  reject(error: unknown): void;
}

interface JobWorker {
  entry: string;
  worker: Worker;
  /** Settles when the worker has loaded its code and can take jobs (rejects if it cannot start). */
  ready: Promise<void>;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

/** The worker running each entry, while it has work or has been idle less than IDLE_MS. */
const running = new Map<string, JobWorker>();
let nextId = 1;
/** Each card set and language's names packed once: a start's builds all send the same English cards. */
const packedCards = new WeakMap<readonly MatchableCard[], Promise<PackedCards>>();
const packedNames = new WeakMap<ReadonlyMap<number, string>, PackedNames>();

function packedOnce<K extends object, V>(cache: WeakMap<K, V>, key: K, pack: () => V): V {
  let packed = cache.get(key);
  if (packed === undefined) cache.set(key, (packed = pack()));
  return packed;
}

function startWorker(entry: URL): Worker {
  if (entry.pathname.endsWith('.js')) return new Worker(entry);
  // The sources run untranspiled (npm run dev): the worker loads tsx before its entry.
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true });
}

function jobWorker(entry: URL): JobWorker {
  const current = running.get(entry.href);
  if (current !== undefined) {
    clearTimeout(current.idle);
    return current;
  }
  let started = { resolve: () => {}, reject: (_error: unknown) => {} };
  const ready = new Promise<void>((resolve, reject) => (started = { resolve, reject }));
  // Whoever waits on `ready` sees a failure; nobody waiting is no unhandled rejection.
  ready.catch(() => undefined);
  const state: JobWorker = { entry: entry.href, worker: startWorker(entry), ready, pending: new Map() };
  const failAll = (error: unknown) => {
    forget(state);
    started.reject(error);
    for (const pending of state.pending.values()) pending.reject(error);
    state.pending.clear();
  };
  state.worker.on('message', (answer: WorkerAnswer | WorkerReady) => {
    if ('ready' in answer) return started.resolve();
    const pending = state.pending.get(answer.id);
    state.pending.delete(answer.id);
    pending?.resolve(answer);
    stopWhenIdle(state);
  });
  state.worker.once('error', failAll);
  state.worker.once('exit', (code) => failAll(new Error(`worker thread exited with code ${code}`)));
  running.set(state.entry, state);
  return state;
}

function forget(state: JobWorker): void {
  if (running.get(state.entry) === state) running.delete(state.entry);
}

/** An idle worker never keeps the process alive, and ends after `idleMs`. */
function stopWhenIdle(state: JobWorker, idleMs = IDLE_MS): void {
  if (state.pending.size > 0) return;
  state.worker.unref();
  clearTimeout(state.idle);
  state.idle = setTimeout(() => {
    if (state.pending.size > 0) return;
    forget(state);
    void state.worker.terminate();
  }, idleMs);
  state.idle.unref();
}

/**
 * Sends `job` to the worker once it has started, moving `transfer` (left untouched when the worker
 * cannot start); its answer, or a rejection if the worker fails, the job throws or `signal` aborts
 * (the answer is then dropped when it comes).
 */
function run(entry: URL, job: WorkerJob, signal?: AbortSignal, transfer: ArrayBuffer[] = []): Promise<WorkerAnswer> {
  signal?.throwIfAborted();
  const state = jobWorker(entry);
  const id = nextId++;
  let abort = () => {};
  return new Promise<WorkerAnswer>((resolve, reject) => {
    state.pending.set(id, { resolve, reject });
    // A job someone waits for keeps the process alive (a CLI awaiting the card database, say).
    state.worker.ref();
    abort = () => {
      state.pending.delete(id);
      stopWhenIdle(state);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    void state.ready.then(() => {
      if (state.pending.has(id)) state.worker.postMessage({ ...job, id } satisfies WorkerRequest, transfer);
    });
  })
    .then((answer) => {
      if (!('failure' in answer)) return answer;
      const { message, kind } = answer.failure;
      throw kind === undefined ? new Error(message) : new UpstreamError('ygoprodeck', kind, message);
    })
    .finally(() => signal?.removeEventListener('abort', abort));
}

/** Where one matcher's tables are kept from one start to the next (see stored-tables.ts), and the log that hears how it went. */
export interface TablesStore {
  dir: string;
  /** The matcher's name (lowercase letters): each matcher keeps its own files. */
  name: string;
  logger: Logger;
}

/** What a card service does off the event loop (see createCardService). */
export interface OffThreadJobs {
  /**
   * Starts the worker now rather than with its first job: starting a thread held the event loop
   * 10-30 ms (profiles after a fresh start), which after ready every interaction waits for. Idle,
   * the worker ends after FIRST_JOB_WAIT_MS, then IDLE_MS after each job, as it would have.
   */
  start(): void;
  /**
   * The tables of a matcher over `cards` (default sound key), with `names` in each language: read
   * back from `store` when it holds the ones this input builds, else built (and written there).
   * Rejects if the worker fails or `signal` aborts; a store that cannot be written is only logged.
   */
  buildMatcherTables(
    cards: readonly MatchableCard[],
    aliases: Readonly<Record<string, string>>,
    names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>,
    signal?: AbortSignal,
    store?: TablesStore,
  ): Promise<MatcherTables>;
  /** `compactCardinfoBody` in the worker (see compactDownloadOffThread). */
  readDownload(body: Buffer, kind: DownloadKind, signal?: AbortSignal, onFallback?: (error: unknown) => void): Promise<CompactDownload>;
}

/**
 * The jobs, run by the worker whose code is `entry` (by default the one next to this file; another
 * is a bundle of it, as the tests' is). Everything in a process that uses one entry shares its
 * worker, which takes the jobs one after another.
 */
export function offThreadJobs(entry: URL = DEFAULT_ENTRY): OffThreadJobs {
  return {
    start: () => stopWhenIdle(jobWorker(entry), FIRST_JOB_WAIT_MS),
    buildMatcherTables: (cards, aliases, names, signal, store) => buildMatcherTablesOffThread(entry, cards, aliases, names, signal, store),
    readDownload: (body, kind, signal, onFallback) => compactDownloadOffThread(entry, body, kind, signal, onFallback),
  };
}

async function buildMatcherTablesOffThread(
  entry: URL,
  cards: readonly MatchableCard[],
  aliases: Readonly<Record<string, string>>,
  names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>,
  signal?: AbortSignal,
  store?: TablesStore,
): Promise<MatcherTables> {
  const input = {
    cards: await packedOnce(packedCards, cards, () => packCards(cards)),
    aliases,
    languages: [...names].map(([language, byPasscode]) => packedOnce(packedNames, byPasscode, () => packNames(language, byPasscode))),
  };
  const answer = await run(entry, { job: 'matcher', input, ...(store === undefined ? {} : { store: { dir: store.dir, name: store.name } }) }, signal);
  if (!('tables' in answer)) throw new Error('the worker answered a matcher build with something else');
  if (answer.store?.stored === 'failed') store?.logger.warn({ dir: store.dir, matcher: store.name, reason: answer.store.reason }, 'matcher tables could not be kept for the next start');
  else if (answer.store !== undefined) store?.logger.debug({ matcher: store.name, cards: cards.length, stored: answer.store.stored }, 'matcher tables kept on disk');
  return answer.tables;
}

/**
 * `compactCardinfoBody` in the worker. The body is moved there, not copied (a copy of 20 MB cost
 * the event loop 20-50 ms), once the worker has started: a worker that cannot start (no threads
 * left, say) leaves it here to be read on the event loop instead, after `onFallback` is told why. A
 * worker that fails after taking it fails the download, which is tried again at the next check. A
 * body that is not a card list rejects with its UpstreamError either way.
 */
async function compactDownloadOffThread(entry: URL, body: Buffer, kind: DownloadKind, signal?: AbortSignal, onFallback?: (error: unknown) => void): Promise<CompactDownload> {
  // A body over part of a larger buffer (a small one in Buffer's shared pool: never a whole database)
  // is copied into its own first; moving the pool would take it from every other small Buffer.
  const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
  try {
    const answer = await run(entry, { job: 'download', body: whole, kind }, signal, [whole.buffer as ArrayBuffer]);
    if (!('download' in answer)) throw new Error('the worker answered a download with something else');
    // A Buffer arrives as a plain Uint8Array over the moved memory.
    const records = answer.download.body;
    return { ...answer.download, body: Buffer.from(records.buffer, records.byteOffset, records.byteLength) };
  } catch (error) {
    if (isUpstreamError(error) || signal?.aborted || whole.byteLength === 0) throw error;
    onFallback?.(error);
    return compactCardinfoBody(whole, kind);
  }
}
