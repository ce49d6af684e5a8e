import { defineConfig } from 'vitest/config';

/**
 * `npm run test:bench`: every bench section on its tiny workload (test/bench/*.test.ts), a step of
 * `.ci/run` after `npm test`. Apart from `npm test` because the sections start child processes and
 * build card databases even when tiny: over a minute of CPU that the two-minute suite cannot hold.
 */
export default defineConfig({
  test: {
    include: ['test/bench/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The three files side by side (vitest's default on 2 cores is one at a time): their sections
    // mostly wait on child processes and real-time limiters, and tiny workloads prove only that
    // each section runs to the end, which load does not change.
    maxWorkers: 3,
    setupFiles: ['test/fence/vitest-setup.ts'],
    globalSetup: ['test/global-setup.ts'],
  },
});
