import { describe, expect, it } from 'vitest';
import { loadSharp } from '../../src/runtime/sharp.js';

describe('loadSharp', () => {
  it('loads sharp once, with its operation cache off', async () => {
    const [first, second] = await Promise.all([loadSharp(), loadSharp()]);
    expect(second).toBe(first);
    const cache = first.cache();
    expect([cache.memory.max, cache.files.max, cache.items.max]).toEqual([0, 0, 0]);
  });
});
