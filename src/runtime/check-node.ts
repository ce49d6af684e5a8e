import { nodeVersionProblem } from './node-version.js';

/**
 * Imported first by every entry point, whose program is imported only after it (see src/index.ts):
 * a static import graph is read and linked whole before any of it runs, so a dependency's newer
 * syntax would fail on an old Node before this check could speak, and the check would cost the
 * whole app's loading.
 */
const problem = nodeVersionProblem(process.version);
if (problem !== null) {
  console.error(problem);
  process.exit(1);
}
