import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { watchLongestDelay } from '../../bench/longest-delay.js';

const HELD_MS = 60;

describe.runIf(existsSync('/proc/thread-self/schedstat'))('the longest event-loop delay, split', () => {
  it('covers a turn that held the loop, and splits it into time on a core and time waiting for one', async () => {
    const watch = watchLongestDelay();
    try {
      await sleep(20);
      const heldFrom = performance.now();
      while (performance.now() - heldFrom < HELD_MS) {
        // The bot's own work, holding the event loop.
      }
      await sleep(20);
      const longest = watch.read();
      expect(longest).toBeDefined();
      // At least the turn that held the loop; the split is of that gap and cannot exceed it, give or
      // take a scheduler tick (Linux adds a running thread's time on a core at ticks and switches).
      expect(longest!.ms).toBeGreaterThanOrEqual(HELD_MS);
      expect(longest!.onCpuMs).toBeGreaterThan(0);
      expect(longest!.onCpuMs + longest!.waitingMs).toBeLessThanOrEqual(longest!.ms + 5);
      // Read: the next reading starts over.
      expect(watch.read()!.ms).toBeLessThan(longest!.ms);
    } finally {
      watch.stop();
    }
  });
});
