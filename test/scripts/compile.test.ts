import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTypeScript, PROJECT_ROOT, sourceFiles } from '../../scripts/compile.js';
import type * as Address from '../../src/ip/address.js';

describe('compileTypeScript (npm run build)', () => {
  let files: string[];
  let outDir: string;

  beforeAll(async () => {
    files = await sourceFiles();
    // Inside the project, so that the compiled modules' bare imports resolve to its node_modules.
    outDir = await mkdtemp(join(PROJECT_ROOT, 'node_modules', '.cache', 'almanac-compile-'));
    await compileTypeScript(files, outDir);
    // Node looks no further up than node_modules for the package type (dist/ has the project's).
    await writeFile(join(outDir, 'package.json'), JSON.stringify({ type: 'module' }));
  });

  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('takes every source file of src/ and commands/, and no test', () => {
    const names = files.map((file) => relative(PROJECT_ROOT, file).split('\\').join('/'));
    expect(names).toContain('src/index.ts');
    expect(names).toContain('commands/ip/index.ts');
    expect(names).toContain('src/services/off-thread/worker.ts');
    expect(names.every((name) => /^(src|commands)\/.+\.ts$/.test(name) && !name.endsWith('.test.ts'))).toBe(true);
  });

  it('writes each one as JavaScript in the same place, with its source map', async () => {
    const written = new Set((await readdir(outDir, { recursive: true })).map((name) => name.split('\\').join('/')));
    for (const file of files) {
      const name = relative(PROJECT_ROOT, file).split('\\').join('/').replace(/\.ts$/, '.js');
      expect(written, name).toContain(name);
      expect(written, `${name}.map`).toContain(`${name}.map`);
    }
    expect(await readFile(join(outDir, 'src', 'index.js'), 'utf8')).toMatch(/\/\/# sourceMappingURL=index\.js\.map\n$/);
  });

  it('keeps the code working: a compiled module runs', async () => {
    const address = (await import(pathToFileURL(join(outDir, 'src', 'ip', 'address.js')).href)) as typeof Address;
    expect(address.parseIpAddress(' 2001:DB8::1 ')).toEqual({ ok: true, address: '2001:db8::1', version: 6 });
  });
});
