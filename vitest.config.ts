import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'commands/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // No test reaches past loopback: see test/fence/network-fence.ts.
    setupFiles: ['test/fence/vitest-setup.ts'],
    globalSetup: ['test/global-setup.ts'],
  },
});
