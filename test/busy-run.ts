import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * `npm run test:busy [-- <vitest arguments>]`: the test suite with every core kept busy by a
 * spinning process beside it, as on a loaded CI runner or a shared machine. Timing assumptions
 * that only hold on an idle machine show up here; the suite must pass this way too.
 */

const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

const spinners: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopSpinners = () => {
  for (const spinner of spinners) spinner.kill('SIGKILL');
};
process.on('SIGINT', stopSpinners);
process.on('SIGTERM', stopSpinners);

console.log(`Running the tests with ${spinners.length} busy loop(s) beside them.`);
const vitest = spawn(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
vitest.on('close', (code, signal) => {
  stopSpinners();
  process.exitCode = code ?? (signal ? 1 : 0);
});
