import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { freePort } from '../helpers/free-port.js';
import { PROMETHEUS } from '../helpers/prometheus.js';
import { answerOf } from '../helpers/reliability.js';
import { PROJECT_ROOT } from '../helpers/run-script.js';

/**
 * A real Prometheus (Debian's package) scrapes the real bot five times a second with the real alert rules
 * (their `for:` shortened to nothing): the dashboard's and the rules' expressions are valid against
 * what the bot exports, and a 429 from Wallhaven fires the "upstream paused" alert.
 */

interface QueryAnswer {
  status: string;
  error?: string;
  data?: { result?: unknown[]; alerts?: { labels: Record<string, string>; state: string }[] };
}

/** Every PromQL expression of the Grafana dashboard, with Grafana's `$__rate_interval` made concrete. */
async function dashboardExpressions(): Promise<string[]> {
  const dashboard = JSON.parse(await readFile(join(PROJECT_ROOT, 'deploy/grafana/almanac.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
  return dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr.replaceAll('$__rate_interval', '1m')));
}

/** Every `expr:` of the alert rules (single-line or a `|` block). */
function ruleExpressions(rules: string): string[] {
  const expressions: string[] = [];
  const lines = rules.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = /^(\s*)expr: (.*)$/.exec(lines[index]!);
    if (!match) continue;
    if (match[2] !== '|') {
      expressions.push(match[2]!);
      continue;
    }
    const block: string[] = [];
    while (index + 1 < lines.length && (lines[index + 1]!.startsWith(`${match[1]}  `) || lines[index + 1] === '')) block.push(lines[++index]!.trim());
    expressions.push(block.join(' ').trim());
  }
  return expressions;
}

PROMETHEUS.describe('a real Prometheus scraping the real bot', () => {
  let wallhaven: FakeWallhaven;
  let bot: TestBot;
  let prometheus: ChildProcess;
  let dir: string;
  let api: string;

  const query = async (expression: string): Promise<QueryAnswer> =>
    (await (await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expression)}`)).json()) as QueryAnswer;

  beforeAll(async () => {
    // No search allowed this minute: the first gets Wallhaven's 429 with Retry-After.
    wallhaven = await startFakeWallhaven({ rateLimit: { limit: 0, windowMs: 60_000 } });
    dir = await mkdtemp(join(tmpdir(), 'almanac-prometheus-'));
    const rules = await readFile(join(PROJECT_ROOT, 'deploy/prometheus/alerts.yml'), 'utf8');
    await writeFile(join(dir, 'alerts.yml'), rules.replace(/^(\s*)for: \S+$/gm, '$1for: 0s'));
    const [metricsPort, port] = [await freePort(), await freePort()];
    await writeFile(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 200ms, evaluation_interval: 200ms }',
        'rule_files: [alerts.yml]',
        'scrape_configs:',
        `  - { job_name: almanac, static_configs: [{ targets: ["127.0.0.1:${metricsPort}"] }] }`,
        '',
      ].join('\n'),
    );
    api = `http://127.0.0.1:${port}`;
    // Started before the bot: Prometheus hands its targets to the scraper only every 5 s, a wait
    // the bot's own start can fill.
    prometheus = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
      stdio: 'ignore',
    });
    bot = await startTestBot({ env: { METRICS_PORT: String(metricsPort), WALLHAVEN_URL: wallhaven.url } });
  });

  /** Until Prometheus answers and has scraped the bot once. */
  const scraping = () =>
    expect
      .poll(async () => (await query('up{job="almanac"} == 1').catch(() => ({ data: { result: [] } }))).data?.result?.length, { timeout: 20_000, interval: 250 })
      .toBe(1);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      prometheus.kill('SIGTERM');
      await once(prometheus, 'exit');
    }
    await bot?.stop();
    await wallhaven?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('fires AlmanacUpstreamPaused after a 429 from Wallhaven', { timeout: 60_000 }, async () => {
    await scraping();
    await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: '1920x1080' } }));
    expect(wallhaven.requests.some((request) => request.path === '/api/v1/search')).toBe(true);
    await expect
      .poll(
        async () => {
          const alerts = (await (await fetch(`${api}/api/v1/alerts`)).json()) as QueryAnswer;
          return alerts.data?.alerts?.filter((alert) => alert.labels.alertname === 'AlmanacUpstreamPaused' && alert.state === 'firing').map((alert) => alert.labels.upstream);
        },
        { timeout: 30_000, interval: 100 },
      )
      .toEqual(['wallhaven']);
  });

  it('evaluates every expression of the dashboard and the rules without an error', async () => {
    await scraping();
    const rules = await readFile(join(PROJECT_ROOT, 'deploy/prometheus/alerts.yml'), 'utf8');
    const expressions = [...(await dashboardExpressions()), ...ruleExpressions(rules)];
    expect(expressions.length).toBeGreaterThanOrEqual(30);
    for (const expression of expressions) {
      const answer = await query(expression);
      expect({ expression, status: answer.status, error: answer.error }).toEqual({ expression, status: 'success', error: undefined });
    }
    // The series the dashboard reads are there (not only valid: present).
    for (const metric of ['almanac_interactions_total', 'almanac_interaction_acknowledgement_seconds_bucket', 'almanac_upstream_limit_requests_per_second', 'almanac_fleet_processes', 'almanac_gateway_shard_ready', 'nodejs_eventloop_lag_p99_seconds']) {
      expect((await query(metric)).data?.result?.length, metric).toBeGreaterThan(0);
    }
  });
});
