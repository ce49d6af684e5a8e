import { defineConfig } from 'vitest/config';

/** `npm run test:container`: builds the image with podman and runs it against the suite's fakes. */
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    testTimeout: 120_000,
    // Building the base and the image: minutes, not seconds, on a fresh machine.
    hookTimeout: 900_000,
    pool: 'forks',
    setupFiles: ['test/fence/vitest-setup.ts'],
  },
});
