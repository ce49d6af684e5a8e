import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Set by test/global-setup.ts: the folder (removed after the run) where what is made once per run
 * is kept for every test process. Outside vitest's run (the bench) there is none.
 */
export const RUN_CACHE_ENV = 'ALMANAC_TEST_RUN_CACHE';

/** `name` in the run's folder, or undefined outside a test run (made afresh there). */
export function inRunFolder(name: string): string | undefined {
  const root = process.env[RUN_CACHE_ENV];
  return root === undefined ? undefined : join(root, name);
}

/**
 * What `path` holds for the rest of the test run, made by whichever test process asks first while
 * the others wait: `read` gives it once made (undefined before), `make` makes it and leaves it where
 * `read` finds it, whole (a rename into place). One process at a time holds a `mkdir` lock next to
 * `path`; the others read again every 100 ms until it is there, or until the lock is gone without it
 * (the maker failed) and one of them takes the lock.
 */
export async function onceInRun<T>(path: string, read: () => T | undefined | Promise<T | undefined>, make: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  for (;;) {
    const made = await read();
    if (made !== undefined) return made;
    if (await mkdir(lock).then(() => true, () => false)) {
      try {
        // Made and put in place by the process that held the lock just before.
        return (await read()) ?? (await make());
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    }
    await delay(100);
  }
}
