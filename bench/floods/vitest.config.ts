import { defineConfig } from 'vitest/config';

/**
 * The floods and fleet replays of `npm run bench -- --only floods` (bench/floods.ts): vitest files,
 * so that their pass/fail assertions read as the suite's do, kept out of `npm test` because they
 * prove throughput and need the machine's cores to themselves. One file at a time, each in its own
 * process: a flood measures windows that another file's CPU use would distort.
 */
export default defineConfig({
  test: {
    include: ['bench/floods/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
    setupFiles: ['test/fence/vitest-setup.ts'],
    globalSetup: ['test/global-setup.ts'],
  },
});
