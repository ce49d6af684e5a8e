import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readBoundedBody } from '../../src/upstream/bounded-body.js';

/** V8's full collection, without starting the test process with --expose-gc. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Collected, and the freed buffers swept (V8 sweeps them on another thread after the collection). */
async function collectGarbage(): Promise<void> {
  for (let pass = 0; pass < 3; pass++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

class TooLarge extends Error {}
const tooLarge = () => new TooLarge('too large');

/** A body arriving in `chunks`; `read` counts the chunks taken, `closed` says whether the reader let go. */
function arriving(chunks: Uint8Array[]) {
  const state = { read: 0, closed: false };
  async function* body() {
    try {
      for (const chunk of chunks) {
        state.read++;
        yield chunk;
      }
    } finally {
      state.closed = true;
    }
  }
  return { body: body(), state };
}

const bytes = (length: number, start = 0) => Uint8Array.from({ length }, (_, at) => (start + at) % 251);
const joined = (chunks: Uint8Array[]) => Buffer.concat(chunks);

describe('readBoundedBody', () => {
  it('reads every chunk into one buffer of exactly the body, whatever the announced length', async () => {
    const chunks = [bytes(10), bytes(70_000, 10), bytes(3, 70_010), bytes(200_000, 7)];
    for (const announcedBytes of [undefined, 270_013, 100, 5_000_000, -1, Number.NaN, 1.5]) {
      const { body } = arriving(chunks);
      const received: number[] = [];
      const read = await readBoundedBody(body, { maxBytes: 1_000_000, announcedBytes, tooLarge }, (count) => received.push(count));
      expect(read.equals(joined(chunks))).toBe(true);
      // Its own memory, exactly as long as the body: a worker can take it whole.
      expect(read.byteOffset).toBe(0);
      expect(read.buffer.byteLength).toBe(270_013);
      expect(received).toEqual([10, 70_010, 70_013, 270_013]);
    }
  });

  it('keeps no more memory than the body once read, however much it first set aside', async () => {
    // 300 small bodies without a length, kept (as an image cache keeps them): each first had 64 KiB.
    await collectGarbage();
    const before = process.memoryUsage().external;
    const kept: Buffer[] = [];
    for (let index = 0; index < 300; index++) kept.push(await readBoundedBody(arriving([bytes(2_000, index)]).body, { maxBytes: 5_000_000, tooLarge }));
    await collectGarbage();
    const grown = process.memoryUsage().external - before;
    expect(kept.every((read, index) => read.equals(Buffer.from(bytes(2_000, index))))).toBe(true);
    // 300 × 2 KB is 0.6 MB; the pages first set aside would be 19.7 MB.
    expect(grown).toBeLessThan(2_000_000);
  });

  it('reads an empty body as an empty buffer', async () => {
    const read = await readBoundedBody(arriving([]).body, { maxBytes: 10, tooLarge });
    expect(read.length).toBe(0);
  });

  it('accepts a body of exactly the limit', async () => {
    const chunks = [bytes(6), bytes(4)];
    const read = await readBoundedBody(arriving(chunks).body, { maxBytes: 10, announcedBytes: 10, tooLarge });
    expect(read.equals(joined(chunks))).toBe(true);
  });

  it('stops reading as soon as the limit is passed, and lets the body go', async () => {
    const { body, state } = arriving([bytes(60), bytes(60), bytes(60), bytes(60)]);
    await expect(readBoundedBody(body, { maxBytes: 100, tooLarge })).rejects.toBeInstanceOf(TooLarge);
    expect(state.read).toBe(2);
    expect(state.closed).toBe(true);
  });

  it('holds the limit when Content-Length announces less than arrives', async () => {
    const { body, state } = arriving([bytes(40), bytes(40), bytes(40), bytes(40)]);
    await expect(readBoundedBody(body, { maxBytes: 100, announcedBytes: 50, tooLarge })).rejects.toBeInstanceOf(TooLarge);
    expect(state.read).toBe(3);
    expect(state.closed).toBe(true);
  });

  it('does not take an announced length over the limit as a capacity, and still fails a body over it', async () => {
    const small = [bytes(30)];
    const read = await readBoundedBody(arriving(small).body, { maxBytes: 100, announcedBytes: 1e12, tooLarge });
    expect(read.equals(joined(small))).toBe(true);
    await expect(readBoundedBody(arriving([bytes(101)]).body, { maxBytes: 100, announcedBytes: 1e12, tooLarge })).rejects.toBeInstanceOf(TooLarge);
  });
});
