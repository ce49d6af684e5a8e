import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { inSlices } from '../../src/upstream/slices.js';

describe('inSlices', () => {
  it('calls every index in order, and lets the event loop run between slices', async () => {
    const seen: (number | 'turn')[] = [];
    let running = true;
    const turns = (async () => {
      while (running) {
        seen.push('turn');
        await nextTurn();
      }
    })();
    // Slices of no time at all: a yield after every call.
    await inSlices(4, (index) => seen.push(index), 0);
    running = false;
    await turns;
    expect(seen.filter((entry) => entry !== 'turn')).toEqual([0, 1, 2, 3]);
    const between = (a: number, b: number) => seen.slice(seen.indexOf(a) + 1, seen.indexOf(b));
    for (const index of [0, 1, 2]) expect(between(index, index + 1)).toContain('turn');
  });

  it('does the whole pass in one turn when it fits in the slice', async () => {
    const seen: (number | 'turn')[] = [];
    const turn = nextTurn().then(() => seen.push('turn'));
    await inSlices(3, (index) => seen.push(index), 60_000);
    await turn;
    expect(seen).toEqual([0, 1, 2, 'turn']);
  });
});
