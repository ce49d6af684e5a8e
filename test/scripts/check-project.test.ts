import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProject, type ProjectCheck } from '../../scripts/check-project.js';
import { PROJECT_ROOT } from '../../scripts/compile.js';

/**
 * A small project with one of each mistake `npm run check` must catch, written inside the
 * project's node_modules so that its ESLint configuration resolves typescript-eslint as ours does.
 */
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2023', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ['src'] }),
  'package.json': JSON.stringify({ type: 'module', private: true }),
  'eslint.config.js': [
    "import tseslint from 'typescript-eslint';",
    'const unused = 1;',
    'export default tseslint.config(...tseslint.configs.recommended, {',
    "  languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'], defaultProject: 'tsconfig.json' }, tsconfigRootDir: import.meta.dirname } },",
    "  rules: { '@typescript-eslint/no-floating-promises': 'error' },",
    '});',
    '',
  ].join('\n'),
  // A type error only `tsc` sees.
  'src/typed.ts': 'export const count: number = "three";\n',
  // A promise left floating: only ESLint's type-aware rule sees it, and only with the program's types.
  'src/floating.ts': 'export async function later(): Promise<void> {}\nexport function now(): void {\n  later();\n}\n',
};

describe('checkProject (npm run check)', () => {
  let root: string;
  let check: ProjectCheck;

  beforeAll(async () => {
    const cache = join(PROJECT_ROOT, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    root = await mkdtemp(join(cache, 'almanac-check-'));
    for (const [file, text] of Object.entries(FILES)) {
      await mkdir(join(root, file, '..'), { recursive: true });
      await writeFile(join(root, file), text);
    }
    check = await checkProject(root);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reports the type error as tsc does', () => {
    expect(check.typeErrors).toMatch(/src[/\\]typed\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\./);
  });

  it('runs the type-aware rules on the files of the program, with its types', () => {
    expect(check.lintReport).toContain('floating.ts');
    expect(check.lintReport).toMatch(/3:3\s+error\s+Promises must be awaited.*@typescript-eslint\/no-floating-promises/);
  });

  it('lints the files outside the program (the ESLint configuration) with the configuration’s own project service', () => {
    expect(check.lintReport).toContain('eslint.config.js');
    expect(check.lintReport).toMatch(/2:7\s+error\s+'unused' is assigned a value but never used/);
    expect(check.lintReport).not.toContain('Parsing error');
  });

  it('fails', () => {
    expect(check.passed).toBe(false);
  });
});
