/**
 * A worker thread's entry: takes jobs (matcher builds, downloads to read) one message after
 * another and hands each answer back with its request's id (see off-thread.ts, which ends the
 * worker once it has been idle for a moment; its heap goes with it).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { buildMatcherTables, type MatcherTables } from '../../cards/matcher-tables.js';
import { soundKey } from '../../cards/sound-key.js';
import { isUpstreamError } from '../../interaction/upstream-error.js';
import { compactCardinfoBody } from './compact-download.js';
import { readStoredTables, storedTablesFile, writeStoredTables } from './stored-tables.js';
import { packDownload, packTables, unpackBuildInput, type PackedBuildInput, type StoreOutcome, type WorkerAnswer, type WorkerReady, type WorkerRequest } from './transfer.js';

function answer(request: WorkerRequest): { message: WorkerAnswer; transfer: ArrayBuffer[] } {
  const { id } = request;
  if (request.job === 'download') {
    const { message, transfer } = packDownload(compactCardinfoBody(request.body, request.kind));
    return { message: { id, download: message }, transfer };
  }
  const { tables, store } = request.store === undefined ? { tables: built(request.input), store: undefined } : storedOrBuilt(request.input, request.store.dir, request.store.name);
  const { message, transfer } = packTables(tables);
  return { message: { id, tables: message, ...(store === undefined ? {} : { store }) }, transfer };
}

function built(input: PackedBuildInput): MatcherTables {
  const { cards, aliases, localizedNames } = unpackBuildInput(input);
  return buildMatcherTables(cards, aliases, soundKey, localizedNames);
}

/** Matcher `name`'s tables stored for `input` in `dir`, else built and stored there (see stored-tables.ts). */
function storedOrBuilt(input: PackedBuildInput, dir: string, name: string): { tables: MatcherTables; store: StoreOutcome } {
  const file = storedTablesFile(dir, name, input);
  const stored = readStoredTables(file);
  if (stored !== undefined) return { tables: stored, store: { stored: 'read' } };
  const tables = built(input);
  try {
    writeStoredTables(file, tables);
    return { tables, store: { stored: 'written' } };
  } catch (error) {
    return { tables, store: { stored: 'failed', reason: error instanceof Error ? error.message : String(error) } };
  }
}

/** The worker thread's niceness: the event loop's thread (0) goes first when both want a core. */
const WORKER_NICENESS = 10;

/**
 * A job is background work that only the event loop waits for, while every interaction waits for
 * the event loop: on a busy host (two cores shared with the bot's own garbage collection and other
 * processes) the event loop's thread should get a core first. Linux keeps a niceness per thread
 * (its id from /proc/thread-self); elsewhere, or where the niceness cannot be changed, the worker
 * keeps the process's.
 */
function yieldToTheEventLoop(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, WORKER_NICENESS);
  } catch {
    // Not Linux, or not allowed: the jobs run at the process's priority.
  }
}

yieldToTheEventLoop();

parentPort?.on('message', (request: WorkerRequest) => {
  let reply: { message: WorkerAnswer; transfer: ArrayBuffer[] };
  try {
    reply = answer(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { message: { id: request.id, failure: { message, ...(isUpstreamError(error) ? { kind: error.kind } : {}) } }, transfer: [] };
  }
  parentPort?.postMessage(reply.message, reply.transfer);
});

parentPort?.postMessage({ ready: true } satisfies WorkerReady);
