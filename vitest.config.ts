import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'commands/**/*.test.ts'],
    // The bench's smoke tests are `npm run test:bench` (test/bench/vitest.config.ts), the container
    // test `npm run test:container` (test/container/vitest.config.ts), and the tests that start the
    // real entry points or the deploy tools as processes (`*.process.test.ts`) `npm run
    // test:processes` (vitest.processes.config.ts): each is timed apart.
    exclude: ['test/bench/**', 'test/container/**', '**/*.process.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Workers outnumber the cores: V8's background threads (concurrent marking and compiling) only
    // compete with the other workers, and `--single-threaded` cut the CPU of a busy set of files by
    // 8 % (three alternated runs). The suite allocates in bulk (whole dumps, 20 MB bodies): a larger
    // young generation scavenges less (12 CPU-s of the run); 64 MB did no better than 32.
    execArgv: ['--max-semi-space-size=32', '--single-threaded'],
    // Most end-to-end files spend part of their time waiting on sockets, timers and child
    // processes, not on a core: five workers on this 2-core machine kept both cores busier than
    // four (npm test 139-141 s against 154 s with the same flags: four left both cores idle for
    // about 20 s) and cost less CPU than six, each worker paying for its own module cache (about
    // 4 CPU-s: ten end-to-end files took 33-37 CPU-s on one worker, 49-52 on five).
    maxWorkers: Math.max(2, Math.round(availableParallelism() * 2.5)),
    // No test mocks a module or fakes a global clock, so a worker's files can share its module
    // cache: each file no longer pays for importing discord.js, undici and the app afresh.
    isolate: false,
    // No test reaches past loopback: see test/fence/network-fence.ts.
    setupFiles: ['test/fence/vitest-setup.ts'],
    globalSetup: ['test/global-setup.ts'],
  },
});
