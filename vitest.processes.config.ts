import { defineConfig } from 'vitest/config';
import suite from './vitest.config.js';

/**
 * `npm run test:processes`: the tests that start the real entry points (`npm start`, `npm run cli`,
 * `register`, `cards:import`, `start:http`) and the deploy tools (promtool, Prometheus,
 * docker-compose) as processes, as an operator does: `*.process.test.ts` beside the tests of what
 * they exercise. A step of `.ci/run` after `npm test`, apart from it because each process pays for
 * its own start: 49 entry points took 54 s of CPU between them, more than the two-minute suite can hold.
 */
export default defineConfig({
  test: {
    ...suite.test,
    include: ['test/**/*.process.test.ts'],
    exclude: ['node_modules/**'],
    // The files mostly wait on their processes, which do the work: three side by side kept both
    // cores 96 % busy over the run.
    maxWorkers: 3,
  },
});
