import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { mallocTrim, trimAfterFullCollections, type MallocTrim } from '../../src/runtime/native-memory.js';

setFlagsFromString('--expose-gc');
// gc() is a full collection; gc({ type: 'minor' }) a young-generation one.
const gc = runInNewContext('gc') as (options?: { type: 'minor' }) => void;
const silent = pino({ level: 'silent' });

/** A trim that counts its calls and answers at once. */
function countingTrim(): MallocTrim & { calls: number } {
  const trim = {
    calls: 0,
    async(_pad: number, callback: (error: unknown, released: number) => void) {
      trim.calls++;
      callback(null, 1);
    },
  };
  return trim;
}

describe('trimAfterFullCollections', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('trims after a full collection, and once more after the last of a burst inside the interval', async () => {
    const trim = countingTrim();
    stop = trimAfterFullCollections(trim, silent, 200);
    gc();
    await expect.poll(() => trim.calls).toBe(1);
    gc();
    gc();
    await expect.poll(() => trim.calls).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(trim.calls).toBe(2);
  });

  it('leaves young-generation collections alone', async () => {
    const trim = countingTrim();
    stop = trimAfterFullCollections(trim, silent, 0);
    for (let i = 0; i < 5; i++) gc({ type: 'minor' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(trim.calls).toBe(0);
  });
});

describe('mallocTrim', () => {
  it.runIf(process.platform === 'linux')('reaches glibc through koffi: malloc_trim(0) answers 0 or 1', async () => {
    const trim = mallocTrim(silent)!;
    const released = await new Promise<number>((resolve, reject) => trim.async(0, (error, result) => (error ? reject(error) : resolve(result))));
    expect([0, 1]).toContain(released);
  });
});
