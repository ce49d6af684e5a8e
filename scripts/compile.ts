/**
 * Turns the bot's TypeScript into the JavaScript Node runs, file by file: what `npm run build`
 * writes to `dist/` and what the bench compiles for its child processes. esbuild only strips the
 * types (in about half a second, where `tsc` took 18 s of CPU to emit the same files);
 * `npm run typecheck` and `npm run check` check them. That is sound because tsconfig.json asks for
 * `isolatedModules` and `verbatimModuleSyntax`: every file compiles on its own, imports as written.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folders the bot's code lives in (what `dist/` holds). */
const SOURCE_DIRS = ['src', 'commands'];

/** tsconfig.json's `target`: the language level the output keeps (modules included). */
const TARGET = 'es2023';

/** What of tsconfig.json changes the emitted JavaScript; the rest only checks types. */
const TSCONFIG = { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } } as const;

/** The TypeScript files under `dirs` (the bot's by default; tests and declaration files left out), as absolute paths. */
export async function sourceFiles(dirs: readonly string[] = SOURCE_DIRS): Promise<string[]> {
  const lists = await Promise.all(
    dirs.map(async (dir) => {
      const entries = await readdir(join(PROJECT_ROOT, dir), { withFileTypes: true, recursive: true });
      return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')).map((entry) => join(entry.parentPath, entry.name));
    }),
  );
  return lists.flat();
}

/**
 * Compiles `files` (absolute paths inside the project) into `outDir`, keeping their place:
 * `src/index.ts` becomes `<outDir>/src/index.js`, with a source map beside it, as `tsc` wrote them.
 */
export async function compileTypeScript(files: readonly string[], outDir: string): Promise<void> {
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [...files],
    outdir: outDir,
    outbase: PROJECT_ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: TARGET,
    sourcemap: true,
    sourcesContent: false,
    tsconfigRaw: TSCONFIG,
    logLevel: 'warning',
  });
}
