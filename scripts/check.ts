/** `npm run check`: typecheck and ESLint on one TypeScript program (see check-project.ts). */
import { fileURLToPath } from 'node:url';
import { checkProject } from './check-project.js';

const check = await checkProject(fileURLToPath(new URL('..', import.meta.url)), { color: process.stdout.isTTY });
if (check.typeErrors !== '') process.stdout.write(check.typeErrors);
if (check.lintReport !== '') process.stdout.write(check.lintReport);
if (!check.passed) process.exitCode = 1;
