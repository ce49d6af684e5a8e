/**
 * Floods and fleet replays (bench/floods/*.test.ts): ten times each upstream's limit in interactions
 * within a second, from one process and over a fleet of three on one Redis. Each test is a pass/fail
 * assertion (limits kept, every member answered, nothing left hanging); they live here rather than in
 * `npm test` because they prove throughput and need both cores. The files run under their own vitest
 * config in a child process, so their `expect`s read exactly as the suite's do.
 *
 * `tiny` runs only the check of the production limiter settings, to prove the section runs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = 'bench/floods/vitest.config.ts';
const TINY_PATTERN = 'production limiter settings';

interface VitestJson {
  testResults: { name: string; assertionResults: { title: string; status: string; duration?: number; failureMessages?: string[] }[] }[];
}

async function runFloods(size: BenchSize): Promise<VitestJson> {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-floods-'));
  const output = join(dir, 'results.json');
  try {
    const args = ['vitest', 'run', '--config', CONFIG, '--reporter=json', `--outputFile=${output}`, ...(size === 'tiny' ? ['-t', TINY_PATTERN] : [])];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('npx', args, { cwd: PROJECT_ROOT, env: { ...process.env, REQUIRE_REDIS: process.env.REQUIRE_REDIS ?? '0' }, stdio: ['ignore', 'ignore', 'inherit'] });
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

export const floodsSection: BenchSection = {
  name: 'floods',
  title: 'Floods and fleet replays: ten times each limit within a second (pass/fail)',
  assertions: true,
  async run(size) {
    const results = await runFloods(size);
    const rows: Row[] = [];
    const figures: Record<string, unknown> = {};
    for (const file of results.testResults) {
      const area = `Floods (${file.name.replace(/^.*\//, '')})`;
      for (const test of file.assertionResults) {
        if (test.status === 'skipped' || test.status === 'pending') continue;
        const passed = test.status === 'passed';
        const seconds = ((test.duration ?? 0) / 1000).toFixed(1);
        const failure = (test.failureMessages ?? [])[0]?.split('\n')[0] ?? 'failed';
        rows.push({ area, measure: test.title, target: 'holds', measured: passed ? `holds (${seconds} s)` : failure.slice(0, 200), comparison: '—', pass: passed, assertion: true });
        figures[`${file.name.replace(/^.*\//, '')}: ${test.title}`] = { status: test.status, durationMs: test.duration ?? 0 };
      }
    }
    if (rows.length === 0) throw new Error('the flood files ran no test');
    return sectionResult(rows, { floods: figures });
  },
};
