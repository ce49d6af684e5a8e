import type { EventEmitter } from 'node:events';

export interface WaitForConditionOptions<T> {
  /** Emits whenever the state that `probe` reads may have changed. */
  emitter: EventEmitter;
  events: readonly string[];
  /** Returns the awaited value, or `undefined` while the condition does not hold yet. */
  probe: () => T | undefined;
  timeoutMs: number;
  /** Builds the error message at timeout time, so it can describe the state actually reached. */
  describeTimeout: () => string;
}

/**
 * Resolves with the first value `probe` returns other than `undefined`, checking immediately and
 * after each of `events`. Event-driven rather than polled, so a test continues the moment the state
 * it waits for appears instead of on the next polling tick.
 */
export function waitForCondition<T>(options: WaitForConditionOptions<T>): Promise<T> {
  const { emitter, events, probe, timeoutMs, describeTimeout } = options;
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      for (const event of events) emitter.off(event, check);
    };
    const check = (): void => {
      let value: T | undefined;
      try {
        value = probe();
      } catch (error) {
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (value === undefined) return;
      stop();
      resolve(value);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(describeTimeout()));
    }, timeoutMs);
    for (const event of events) emitter.on(event, check);
    check();
  });
}
