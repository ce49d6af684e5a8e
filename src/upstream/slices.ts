import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work done on the event loop between two yields: an interaction waits at most about this long. */
const SLICE_MS = 5;

/**
 * Calls `each` with 0, 1, … count - 1, in slices of about `sliceMs` with the event loop free between
 * them: a pass over every card (13,700 of them, code run once and cold after a start) held the loop
 * for tens of ms in one go. Resolves after the last call.
 */
export async function inSlices(count: number, each: (index: number) => void, sliceMs = SLICE_MS): Promise<void> {
  let sliceStarted = performance.now();
  for (let index = 0; index < count; index++) {
    each(index);
    if (performance.now() - sliceStarted < sliceMs) continue;
    await nextTurn();
    sliceStarted = performance.now();
  }
}
