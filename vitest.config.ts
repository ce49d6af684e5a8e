import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'commands/**/*.test.ts'],
    // The bench's smoke tests are `npm run test:bench` (test/bench/vitest.config.ts), the container
    // test `npm run test:container` (test/container/vitest.config.ts): each is timed apart.
    exclude: ['test/bench/**', 'test/container/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most end-to-end files spend their time waiting on sockets and timers, not on a core: two
    // workers per core keep both cores busy on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    // No test mocks a module or fakes a global clock, so a worker's files can share its module
    // cache: each file no longer pays for importing discord.js, undici and the app afresh.
    isolate: false,
    // No test reaches past loopback: see test/fence/network-fence.ts.
    setupFiles: ['test/fence/vitest-setup.ts'],
    globalSetup: ['test/global-setup.ts'],
  },
});
