/**
 * Compiles the bot (src/, commands/) and its benchmark entry to plain JavaScript, file by file, as
 * `npm run build` does for `npm start`: start-up time and memory are then measured on the code that
 * runs in production, not on tsx compiling TypeScript on the fly (which, on this machine, adds about
 * 30 MB of RSS and a few hundred milliseconds to every start).
 *
 * The output goes under `node_modules/.cache/` so that bare imports resolve to the project's own
 * `node_modules`, and nothing lands in the working tree; each compile gets its own directory there,
 * so a bench run and the bench's smoke test in the same checkout never overwrite each other's.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_ROOT = join(PROJECT_ROOT, 'node_modules', '.cache', 'almanac-bench');
const SOURCE_DIRS = ['src', 'commands'];
const BENCH_ENTRY_FILES = ['bench/bot-process.ts', 'bench/bot-shared.ts', 'bench/http-floor.ts'];

export interface CompiledBot {
  /** The compiled `bench/bot-process.js`. */
  script: string;
  /** Where the compiled tree starts: `src/start-http.ts` compiles to `<root>/src/start-http.js`. */
  root: string;
  /** Removes the compiled files. */
  remove(): Promise<void>;
}

export async function compileBotForNode(): Promise<CompiledBot> {
  const config = ts.getParsedCommandLineOfConfigFile(join(PROJECT_ROOT, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  });
  if (!config) throw new Error('tsconfig.json could not be read');
  // Every file is ESM (package.json "type": "module"); transpiling file by file, TypeScript cannot
  // look that up, so the module kind is stated rather than NodeNext's per-file detection.
  const compilerOptions: ts.CompilerOptions = {
    ...config.options,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    sourceMap: false,
    declaration: false,
    noEmit: false,
  };

  await mkdir(OUT_ROOT, { recursive: true });
  const outDir = await mkdtemp(join(OUT_ROOT, 'run-'));
  const files = [...(await Promise.all(SOURCE_DIRS.map((dir) => typeScriptFiles(join(PROJECT_ROOT, dir))))).flat(), ...BENCH_ENTRY_FILES.map((file) => join(PROJECT_ROOT, file))];
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(file, 'utf8');
      const output = ts.transpileModule(source, { compilerOptions, fileName: file, reportDiagnostics: true });
      const problems = (output.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
      if (problems.length > 0) {
        throw new Error(`${relative(PROJECT_ROOT, file)}: ${problems.map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, '\n')).join('; ')}`);
      }
      const target = join(outDir, relative(PROJECT_ROOT, file)).replace(/\.ts$/, '.js');
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, output.outputText);
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
