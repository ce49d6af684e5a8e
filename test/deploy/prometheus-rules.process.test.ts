import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PROMTOOL } from '../helpers/prometheus.js';
import { PROJECT_ROOT } from '../helpers/run-script.js';

const RULES = join(PROJECT_ROOT, 'deploy/prometheus/alerts.yml');
const RULE_TESTS = ['alerts.test.yml', 'alerts-long.test.yml'].map((file) => join(PROJECT_ROOT, 'deploy/prometheus', file));

function promtool(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('promtool', args, { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

/** The names of the alerts alerts.yml defines. */
async function alertNames(rules: string): Promise<string[]> {
  return [...(await readFile(rules, 'utf8')).matchAll(/^\s*- alert: (\w+)$/gm)].map((match) => match[1]!);
}

PROMTOOL.describe('deploy/prometheus/alerts.yml', () => {
  it('is valid, and every rule passes its promtool unit tests', () => {
    const checked = promtool('check', 'rules', RULES);
    expect(checked.output).toContain('SUCCESS');
    expect(checked.status).toBe(0);
    const tested = promtool('test', 'rules', ...RULE_TESTS);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.status).toBe(0);
  });

  it('has a test where each alert fires', async () => {
    const tests = (await Promise.all(RULE_TESTS.map((file) => readFile(file, 'utf8')))).join('\n');
    const firing = new Set([...tests.matchAll(/alertname: (\w+)\n\s*exp_alerts:\n\s*- exp_labels/g)].map((match) => match[1]!));
    const names = await alertNames(RULES);
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(names.filter((name) => !firing.has(name))).toEqual([]);
  });

  it('the tests fail when a rule is broken (a threshold out of reach)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-rules-'));
    try {
      await cp(RULE_TESTS[0]!, join(dir, 'alerts.test.yml'));
      const rules = await readFile(RULES, 'utf8');
      await writeFile(join(dir, 'alerts.yml'), rules.replace('almanac_upstream_paused) == 1', 'almanac_upstream_paused) == 2'));
      const tested = promtool('test', 'rules', join(dir, 'alerts.test.yml'));
      expect(tested.status).not.toBe(0);
      expect(tested.output).toContain('alertname: AlmanacUpstreamPaused');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
