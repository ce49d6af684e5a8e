/**
 * Compiles the bot (src/, commands/) and its benchmark entry to plain JavaScript, file by file, as
 * `npm run build` does for `npm start`: start-up time and memory are then measured on code laid out
 * as in production, not on tsx compiling TypeScript on the fly (which, on this machine, adds about
 * 30 MB of RSS and a few hundred milliseconds to every start). esbuild strips the types file by
 * file to the same language level as `tsc` does (ES2023, modules kept), in a tenth of a second
 * where loading TypeScript's compiler and transpiling took six seconds of CPU, paid by each smoke test group.
 *
 * The output goes under `node_modules/.cache/` so that bare imports resolve to the project's own
 * `node_modules`, and nothing lands in the working tree; each compile gets its own directory there,
 * so a bench run and the bench's smoke test in the same checkout never overwrite each other's.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_ROOT = join(PROJECT_ROOT, 'node_modules', '.cache', 'almanac-bench');
const SOURCE_DIRS = ['src', 'commands'];
const BENCH_ENTRY_FILES = ['bench/bot-process.ts', 'bench/bot-shared.ts', 'bench/http-floor.ts'];
/** tsconfig.json's `target`: the language level `tsc` emits for `npm run build`. */
const TARGET = 'es2023';
/** What of tsconfig.json changes the emitted JavaScript (the rest only checks types, which `npm run typecheck` does). */
const TSCONFIG = { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } } as const;

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
  const files = [...(await Promise.all(SOURCE_DIRS.map((dir) => typeScriptFiles(join(PROJECT_ROOT, dir))))).flat(), ...BENCH_ENTRY_FILES.map((file) => join(PROJECT_ROOT, file))];
  await Promise.all(
    files.map(async (file) => {
      const output = await transform(await readFile(file, 'utf8'), { loader: 'ts', format: 'esm', target: TARGET, sourcefile: relative(PROJECT_ROOT, file), tsconfigRaw: TSCONFIG });
      const target = join(outDir, relative(PROJECT_ROOT, file)).replace(/\.ts$/, '.js');
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, output.code);
    }),
  );
  // ESM needs the package type next to the output, or Node reads the files as CommonJS; name and
  // version let src/version.ts find the real ones, as from dist/.
  const { name, version } = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  await writeFile(join(outDir, 'package.json'), JSON.stringify({ name, version, type: 'module', private: true }));
  return { script: join(outDir, 'bench', 'bot-process.js'), root: outDir, remove: () => rm(outDir, { recursive: true, force: true }) };
}

async function typeScriptFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}
