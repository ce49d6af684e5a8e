import { readFileSync } from 'node:fs';

/** The longest gap between two turns of the event loop, split by what its thread was doing meanwhile. */
export interface LongestDelay {
  ms: number;
  /** Running: the bot's own work in the turns that held the loop. */
  onCpuMs: number;
  /** Ready to run but waiting for a core: other threads and processes on the machine had them. */
  waitingMs: number;
}

/** How often the probe looks: a finer grain than the delay histogram's 10 ms, at 200 reads a second. */
const PROBE_MS = 5;
/** Linux's per-thread scheduler figures for the calling thread: ns on a CPU, ns waiting in the run queue. */
const SCHEDSTAT = '/proc/thread-self/schedstat';

function schedstat(): [number, number] | undefined {
  try {
    const [onCpu, waiting] = readFileSync(SCHEDSTAT, 'utf8').split(' ').map(Number);
    return onCpu !== undefined && waiting !== undefined && Number.isFinite(onCpu) && Number.isFinite(waiting) ? [onCpu, waiting] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Watches the event loop's thread (call it there) for its longest delay: the event-loop delay
 * histogram says how long, and on a machine whose cores are all busy part of that is waiting for a
 * core rather than the bot's own work. Linux only (`/proc/thread-self/schedstat`); elsewhere `read()`
 * answers undefined.
 */
export function watchLongestDelay(): { read(): LongestDelay | undefined; stop(): void } {
  let last = schedstat();
  if (last === undefined) return { read: () => undefined, stop: () => undefined };
  let lastAt = performance.now();
  let longest: LongestDelay = { ms: 0, onCpuMs: 0, waitingMs: 0 };
  const probe = setInterval(() => {
    const now = schedstat();
    const at = performance.now();
    if (now !== undefined && last !== undefined && at - lastAt > longest.ms) {
      longest = { ms: at - lastAt, onCpuMs: (now[0] - last[0]) / 1e6, waitingMs: (now[1] - last[1]) / 1e6 };
    }
    last = now;
    lastAt = at;
  }, PROBE_MS);
  probe.unref();
  return {
    read() {
      const reading = longest;
      longest = { ms: 0, onCpuMs: 0, waitingMs: 0 };
      return reading;
    },
    stop: () => clearInterval(probe),
  };
}
