import { nodeVersionProblem } from './node-version.js';

// Imported first by every entry point: ES modules run in import order, so this runs before
// discord.js, undici or zod are evaluated.
const problem = nodeVersionProblem(process.version);
if (problem !== null) {
  console.error(problem);
  process.exit(1);
}
