import { PerformanceObserver, constants, type NodeGCPerformanceDetail, type PerformanceEntry } from 'node:perf_hooks';
import koffi from 'koffi';
import type { Logger } from './logger.js';

/** Trims at most this often: a burst of full collections needs one trim, not one each. */
const MIN_INTERVAL_MS = 1_000;

let started = false;

/**
 * Gives the pages glibc keeps after `free` back to the system, after full garbage collections. glibc
 * returns only the top of its heaps on its own; what the bot frees in their middle (buffers of a card
 * database load, of a busy minute) stays resident. The bot settled at ready held 27 MB of it:
 * `malloc_trim(0)` took its RSS from 176.7 to 149.9 MB. A full collection is when V8 lets go of the
 * native memory its objects held, so it is when there is something to trim. Without glibc (musl,
 * macOS) this does nothing. Once per process: malloc is the process's, whatever number of apps it runs.
 */
export function trimNativeMemoryAfterGc(logger: Logger): void {
  if (started) return;
  started = true;
  const trim = mallocTrim(logger);
  if (trim !== undefined) trimAfterFullCollections(trim, logger);
}

/** glibc's `malloc_trim`, called on libuv's pool. */
export interface MallocTrim {
  async(pad: number, callback: (error: unknown, released: number) => void): void;
}

/**
 * Calls `trim` after each full collection, at most once per `intervalMs`; a collection inside the
 * interval is trimmed after once it is over, so the last of a burst is never left untrimmed.
 * Returns the function that stops it.
 */
export function trimAfterFullCollections(trim: MallocTrim, logger: Logger, intervalMs = MIN_INTERVAL_MS): () => void {
  let lastTrimAt = -Infinity;
  let pending: NodeJS.Timeout | undefined;
  const trimNow = () => {
    pending = undefined;
    const startedAt = (lastTrimAt = performance.now());
    // RSS is read (from /proc) only for the debug line that reports what a trim freed.
    const before = logger.isLevelEnabled('debug') ? process.memoryUsage.rss() : undefined;
    // On libuv's pool: a trim walks every heap of the allocator (up to 7 ms measured), off the event loop.
    trim.async(0, (error) => {
      if (error) logger.warn({ err: error }, 'malloc_trim failed');
      else if (before !== undefined) logger.debug({ freedBytes: before - process.memoryUsage.rss(), ms: performance.now() - startedAt }, 'native memory trimmed');
    });
  };
  const observer = new PerformanceObserver((list) => {
    const full = list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: NodeGCPerformanceDetail }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!full || pending !== undefined) return;
    const wait = lastTrimAt + intervalMs - performance.now();
    if (wait <= 0) trimNow();
    else pending = setTimeout(trimNow, wait).unref();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    clearTimeout(pending);
  };
}

/** glibc's `malloc_trim` through koffi's FFI, or undefined where there is no glibc. */
export function mallocTrim(logger: Logger): MallocTrim | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as unknown as MallocTrim;
  } catch (error) {
    logger.debug({ err: error }, 'no glibc malloc_trim: freed native memory is left to the allocator');
    return undefined;
  }
}
