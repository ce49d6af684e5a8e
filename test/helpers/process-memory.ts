import { readFileSync } from 'node:fs';

/**
 * Resident memory read from Linux's /proc, for a process and the children it started (the bot and
 * its deck composer): what the kernel counts against a container's limit, native memory included.
 */

/** A process's resident set in bytes; 0 once it has left. */
export function residentBytes(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The processes `pid` started that are still running. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The resident sets of `pid`'s children, together. */
export function childrenResidentBytes(pid: number): number {
  return childrenOf(pid).reduce((total, child) => total + residentBytes(child), 0);
}

/** Samples `pid` and its children every `everyMs` until stopped: the highest of each, in bytes. */
export function samplePeakResident(pid: number, everyMs = 50): { stop(): { ownBytes: number; withChildrenBytes: number } } {
  let ownBytes = 0;
  let withChildrenBytes = 0;
  const sample = () => {
    const own = residentBytes(pid);
    ownBytes = Math.max(ownBytes, own);
    withChildrenBytes = Math.max(withChildrenBytes, own + childrenResidentBytes(pid));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ownBytes, withChildrenBytes };
    },
  };
}
