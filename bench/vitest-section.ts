/**
 * Sections whose pass/fail assertions are vitest files: the floods and fleet replays
 * (bench/floods/*.test.ts) and the fuzz tests at their full count. They live here rather than in
 * `npm test` because they prove throughput or try many values and need both cores for minutes. The
 * files run in a child vitest, so their `expect`s read exactly as the suite's do; each test becomes
 * a pass/fail row. `tiny` runs one light test, to prove the section runs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUZZ_SIZE_ENV } from '../test/helpers/fuzz-runs.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

interface VitestJson {
  testResults: { name: string; assertionResults: { title: string; status: string; duration?: number; failureMessages?: string[] }[] }[];
}

interface VitestSectionOptions {
  name: string;
  title: string;
  /** `vitest run` arguments choosing the files (and their config). */
  vitestArgs: readonly string[];
  /** Extra environment of the child at full size. */
  fullEnv?: NodeJS.ProcessEnv;
  /** A tiny run: `vitest run` arguments choosing one light file, and the test name pattern it is limited to. */
  tiny: { vitestArgs: readonly string[]; pattern: string };
}

async function runVitest(options: VitestSectionOptions, size: BenchSize): Promise<VitestJson> {
  const dir = await mkdtemp(join(tmpdir(), `almanac-${options.name}-`));
  const output = join(dir, 'results.json');
  try {
    const chosen = size === 'tiny' ? [...options.tiny.vitestArgs, '-t', options.tiny.pattern] : options.vitestArgs;
    const args = ['vitest', 'run', ...chosen, '--reporter=json', `--outputFile=${output}`];
    const env = { ...process.env, ...(size === 'full' ? options.fullEnv : {}) };
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('npx', args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const text = await readFile(output, 'utf8').catch(() => undefined);
    if (text === undefined) throw new Error(`vitest exited with ${code} and wrote no results`);
    return JSON.parse(text) as VitestJson;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function vitestSection(options: VitestSectionOptions): BenchSection {
  return {
    name: options.name,
    title: options.title,
    assertions: true,
    async run(size, fixtures) {
      await fixtures.testRunEnvironment();
      const results = await runVitest(options, size);
      const rows: Row[] = [];
      const figures: Record<string, unknown> = {};
      for (const file of results.testResults) {
        const fileName = file.name.replace(/^.*\//, '');
        for (const test of file.assertionResults) {
          if (test.status !== 'passed' && test.status !== 'failed') continue;
          const passed = test.status === 'passed';
          const seconds = ((test.duration ?? 0) / 1000).toFixed(1);
          const failure = (test.failureMessages ?? [])[0]?.split('\n')[0] ?? 'failed';
          rows.push({ area: `${options.name} (${fileName})`, measure: test.title, target: 'holds', measured: passed ? `holds (${seconds} s)` : failure.slice(0, 200), comparison: '—', pass: passed, assertion: true });
          figures[`${fileName}: ${test.title}`] = { status: test.status, durationMs: test.duration ?? 0 };
        }
      }
      if (rows.length === 0) throw new Error(`${options.name}: vitest ran no test`);
      return sectionResult(rows, { [options.name]: figures });
    },
  };
}

export const floodsSection = vitestSection({
  name: 'floods',
  title: 'Floods and fleet replays: ten times each limit within a second (pass/fail)',
  // One file at a time, each in its own process (the config): a flood measures windows that another file's CPU use would distort.
  vitestArgs: ['--config', 'bench/floods/vitest.config.ts'],
  tiny: { vitestArgs: ['--config', 'bench/floods/vitest.config.ts', 'bench/floods/floods.test.ts'], pattern: 'production limiter settings' },
});

export const fuzzSection = vitestSection({
  name: 'fuzz',
  title: 'Fuzz tests at their full count (npm test tries a quarter): hostile values through every parser and handler (pass/fail)',
  vitestArgs: [
    // One worker per core rather than the suite's 2.5: fuzz.test.ts, most of the CPU time, then has
    // a core from the start instead of sharing both with four other files' imports (46-50 s against
    // 51-54 s for the section's files, load 2.5).
    `--maxWorkers=${availableParallelism()}`,
    'test/reliability/fuzz.test.ts',
    'test/reliability/fuzz-parsers.test.ts',
    'test/reliability/fuzz-e2e.test.ts',
    'test/reliability/http-hostile.test.ts',
    'test/wallpaper/pager-state.test.ts',
    'test/state/member-share-ledger.test.ts',
    'test/cards/card.test.ts',
  ],
  fullEnv: { [FUZZ_SIZE_ENV]: 'full' },
  tiny: { vitestArgs: ['test/reliability/fuzz-parsers.test.ts'], pattern: 'IP lookup lists' },
});
