/**
 * Compiles the bot (src/, commands/) and the bench's code (its child processes' entries among it)
 * to plain JavaScript, as `npm run build` does for `npm start` (scripts/compile.ts): start-up time
 * and memory are then measured on code laid out as in production, not on tsx compiling TypeScript
 * on the fly (which, on this machine, adds about 30 MB of RSS and a few hundred milliseconds to
 * every start).
 *
 * The output goes under `node_modules/.cache/` so that bare imports resolve to the project's own
 * `node_modules`, and nothing lands in the working tree; each compile gets its own directory there,
 * so a bench run and the bench's smoke test in the same checkout never overwrite each other's.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileTypeScript, PROJECT_ROOT, sourceFiles } from '../scripts/compile.js';

const OUT_ROOT = join(PROJECT_ROOT, 'node_modules', '.cache', 'almanac-bench');

export interface CompiledBot {
  /** The compiled `bench/bot-process.js`. */
  script: string;
  /** Where the compiled tree starts: `src/start-http.ts` compiles to `<root>/src/start-http.js`. */
  root: string;
  /** Removes the compiled files. */
  remove(): Promise<void>;
}

export async function compileBotForNode(): Promise<CompiledBot> {
  await mkdir(OUT_ROOT, { recursive: true });
  const outDir = await mkdtemp(join(OUT_ROOT, 'run-'));
  // The whole of bench/ rather than a list of what the entry points import: a list missed a new
  // module once (bench/longest-delay.ts), and the children then failed to start.
  await compileTypeScript([...(await sourceFiles()), ...(await sourceFiles(['bench']))], outDir);
  // ESM needs the package type next to the output, or Node reads the files as CommonJS; name and
  // version let src/runtime/version.ts find the real ones, as from dist/.
  const { name, version } = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  await writeFile(join(outDir, 'package.json'), JSON.stringify({ name, version, type: 'module', private: true }));
  return { script: join(outDir, 'bench', 'bot-process.js'), root: outDir, remove: () => rm(outDir, { recursive: true, force: true }) };
}
