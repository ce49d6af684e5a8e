import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

/**
 * The project's sources transpiled once per test run (test/global-setup.ts), for the entry points
 * that tests spawn: plain `node` on JavaScript starts in about half the CPU time of `node --import
 * tsx`, which compiles every module of the app again in each child. Transpiling only (esbuild, no
 * type check, no bundling) keeps every module and relative path as it is in `src/`; `npm run
 * typecheck` checks the types. The folder sits inside the project's node_modules so that the
 * children resolve packages exactly as `src/` does.
 */

/** Set by the global setup: the folder holding `src/`, `commands/` and `test/fence/` as JavaScript. */
export const COMPILED_ENTRY_POINTS_ENV = 'ALMANAC_TEST_COMPILED';

const SOURCE_FOLDERS = ['src', 'commands', 'test/fence'];

async function typeScriptFiles(root: string, folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Transpiles the sources under `projectRoot` into a new folder and returns it (with its remover). */
export async function compileEntryPoints(projectRoot: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const cache = join(projectRoot, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'almanac-test-'));
  const files = (await Promise.all(SOURCE_FOLDERS.map((folder) => typeScriptFiles(projectRoot, folder)))).flat();
  await build({
    absWorkingDir: projectRoot,
    entryPoints: files,
    outdir: dir,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'error',
  });
  // Its "type": "module" makes the output ESM, and src/version.ts reads the version from it.
  await copyFile(join(projectRoot, 'package.json'), join(dir, 'package.json'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
