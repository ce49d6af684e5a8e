import { describe, expect, it } from 'vitest';
import { whenReady } from '../../src/upstream/when-ready.js';

/** An event source a test fires by hand, counting its listeners. */
function event(): { subscribe: (listener: () => void) => () => void; fire(): void; listeners: Set<() => void> } {
  const listeners = new Set<() => void>();
  return {
    listeners,
    subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    fire: () => listeners.forEach((listener) => listener()),
  };
}

describe('whenReady', () => {
  it('is true at once when already ready, without listening', async () => {
    const ready = event();
    expect(await whenReady(() => true, 1_000, { ready: ready.subscribe })).toBe(true);
    expect(ready.listeners.size).toBe(0);
  });

  it('is true when ready fires, false when failed fires, and stops listening either way', async () => {
    const ready = event();
    const failed = event();
    const first = whenReady(() => false, 10_000, { ready: ready.subscribe, failed: failed.subscribe });
    ready.fire();
    expect(await first).toBe(true);
    const second = whenReady(() => false, 10_000, { ready: ready.subscribe, failed: failed.subscribe });
    failed.fire();
    expect(await second).toBe(false);
    expect(ready.listeners.size + failed.listeners.size).toBe(0);
  });

  it('is false after the timeout without an event', async () => {
    const ready = event();
    expect(await whenReady(() => false, 20, { ready: ready.subscribe })).toBe(false);
    expect(ready.listeners.size).toBe(0);
  });
});
