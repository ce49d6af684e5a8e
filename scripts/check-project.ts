/**
 * `npm run typecheck` and ESLint (`eslint .`, with eslint.config.js) over one TypeScript program.
 * Run apart, each builds and type-checks the whole project: ESLint's promise rules need the same
 * types `tsc` computes, so one program serves both and the pair costs about half the CPU (CI runs
 * them beside the bench's smoke tests on two cores). The diagnostics and the report are those of
 * `tsc -p tsconfig.json --noEmit` and `eslint .`.
 */
import { join, relative, sep } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

export interface ProjectCheck {
  /** `tsc`'s diagnostics, formatted as `tsc` prints them; empty when there are none. */
  typeErrors: string;
  /** ESLint's stylish report; empty when there is nothing to say. */
  lintReport: string;
  /** False when `tsc` found an error or ESLint an error (warnings alone pass, as with `eslint .`). */
  passed: boolean;
}

/** Type-checks `root`'s tsconfig.json and lints `root` with its ESLint configuration. */
export async function checkProject(root: string, options: { color?: boolean } = {}): Promise<ProjectCheck> {
  const program = programOf(join(root, 'tsconfig.json'));
  // What `tsc --noEmit` reports: the configuration's, the options', syntax and type errors.
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  const typeErrors = diagnostics.length === 0 ? '' : options.color === true ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host);

  const eslint = new ESLint({
    cwd: root,
    // Files the program holds take their types from it; any other (eslint.config.js) keeps the
    // configuration's own project service.
    overrideConfig: [{ files: program.getRootFileNames().map((file) => globOf(relative(root, file))), languageOptions: { parserOptions: { programs: [program], projectService: false } } }],
  });
  const results = await eslint.lintFiles(['.']);
  const lintReport = await (await eslint.loadFormatter('stylish')).format(results);
  const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);
  return { typeErrors, lintReport, passed: !diagnostics.some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error) && lintErrors === 0 };
}

/** A path as a glob that matches only itself. */
function globOf(path: string): string {
  return path.split(sep).join('/').replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

function programOf(configPath: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => { throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')); } });
  if (config === undefined) throw new Error(`cannot read ${relative(process.cwd(), configPath)}`);
  return ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences, configFileParsingDiagnostics: config.errors });
}
