import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The entry points that tests spawn, bundled once per test run (test/global-setup.ts): a child
 * started with `node --import tsx` compiles every module of the app again, and even plain `node` on
 * transpiled files spends most of its start resolving and loading the hundreds of files of
 * discord.js, undici and the app. One bundle per entry point, packages included, starts in less
 * than half the CPU time of the separate files, and the suite spawns dozens of them. esbuild
 * transpiles and bundles only; `npm run typecheck` checks the types, and the production build
 * (`tsc`, `dist/`) is what the Docker image and `npm start` run.
 */

/** Set by the global setup: the folder holding `src/<entry>.js` and `test/fence/child-preload.js`. */
export const COMPILED_ENTRY_POINTS_ENV = 'ALMANAC_TEST_COMPILED';

/** The fence every spawned entry point is started behind (`--import`ed first). */
const FENCE_PRELOAD = 'test/fence/child-preload.ts';

/**
 * Kept as packages, loaded from node_modules at run time: pino starts its pretty printer (a
 * devDependency) in a worker thread from a file path inside its own package, which a bundle does
 * not have; better-sqlite3 finds its native module from its own package's folder (and pg keeps
 * its optional native binding out of the bundle); koffi loads its prebuilt binary from its
 * platform's package.
 */
const NOT_BUNDLED = ['pino', 'pino-pretty', 'better-sqlite3', 'pg', 'koffi'];

/**
 * Bundles carry CommonJS packages (discord.js) inside an ES module: their `require` of Node's
 * built-ins needs a real one.
 */
const REQUIRE_FOR_COMMONJS = "import { createRequire as __almanacRequire } from 'node:module'; const require = __almanacRequire(import.meta.url);";

/** The entry points' worker threads and child processes, bundled at their own paths (see src/services/off-thread/off-thread.ts). */
const WORKER_ENTRY_POINTS = ['src/services/off-thread/worker.ts', 'src/services/deck-pictures/composer-child.ts'];

/** Children the tests themselves spawn (one process of a fleet), bundled like the entry points. */
const TEST_CHILD_ENTRY_POINTS = ['test/scheduler/scheduler-child.ts'];

async function entryPoints(projectRoot: string): Promise<string[]> {
  const entries = await readdir(join(projectRoot, 'src'), { withFileTypes: true });
  return [
    ...entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join('src', entry.name)),
    ...WORKER_ENTRY_POINTS,
    ...TEST_CHILD_ENTRY_POINTS,
  ];
}

/**
 * Bundles `src/*.ts` (the entry points) and the fence preload of the project under `projectRoot`
 * into a new folder and returns it (with its remover). The folder sits inside the project's
 * node_modules so that the packages left out resolve exactly as from `src/`, and one level below
 * a copy of package.json: its "type": "module" makes the output ESM, and src/runtime/version.ts
 * finds it two levels up from the entry point, as from `src/runtime/`.
 */
export async function compileEntryPoints(projectRoot: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const cache = join(projectRoot, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const root = await mkdtemp(join(cache, 'almanac-test-'));
  const dir = join(root, 'bundles');
  await build({
    absWorkingDir: projectRoot,
    entryPoints: [...(await entryPoints(projectRoot)), FENCE_PRELOAD],
    outdir: dir,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: true,
    // What the entry points share (the app, discord.js…) is written once, in chunks next to them:
    // half the bundling time of a full copy per entry point. Beside them, a chunk's
    // `import.meta.url` finds what it looks for (the worker, package.json) as an entry point's does.
    splitting: true,
    chunkNames: 'src/[name]-[hash]',
    external: NOT_BUNDLED,
    banner: { js: REQUIRE_FOR_COMMONJS },
    // Without comments, indentation and dead branches each process reads 5.4 MB instead of 8.3:
    // 0.82 s of CPU instead of 0.89 for `cli ip lookup`. Names are kept: a stack names the source.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  });
  await copyFile(join(projectRoot, 'package.json'), join(root, 'package.json'));
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}
