/**
 * HTTP interactions mode against the gateway mode, in one run and under the same conditions: the
 * same cached `/card show` and autocomplete samples, interleaved between a gateway bot and an HTTP
 * bot (both in this process, on copies of one card snapshot), timed from the fake Discord's dispatch
 * to the acknowledgement arriving back. Then the cost of one Ed25519 verification, and how many
 * cached requests per second one HTTP process answers.
 *
 * Both bots, both fake Discords and the load generator share this process's event loop (and the
 * machine is shared with other work): only the ratios are meaningful, and requests/s is a floor.
 */
import { InteractionResponseType } from 'discord.js';
import { commands } from '../commands/index.js';
import { ed25519PublicKey, verifySignature } from '../src/http/signature.js';
import { nodeSigningKeys, signatureHeadersFor } from '../test/fakes/discord-http.js';
import type { TestBot } from '../test/helpers/bot.js';
import { startTestHttpBot, type TestHttpBot } from '../test/helpers/http-bot.js';
import { TRIVIAL_COMMAND } from './bot-shared.js';
import { CACHED_CARDS, TYPED_QUERIES } from './cached-mix.js';
import type { BenchFixtures } from './fixtures.js';
import { benchHttpThroughput, HTTP_SCENARIOS, LOAD_SHARE, requestsPerCpuSecond, requestsPerSecond, type HttpScenario, type HttpThroughputOptions, type HttpThroughputResult } from './http-throughput.js';
import type { LoadResult } from './http-load.js';
import { answerOf, settle, startInProcessBot, startOnSnapshotCopy, timeCallback, type BenchUpstreams, type TimedCallback } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, median, seededRandom, shuffled, summarize, type LatencySummary } from './stats.js';

export interface HttpModeOptions {
  rounds?: number;
  warmupRounds?: number;
  verifications?: number;
  throughput?: HttpThroughputOptions;
  /** Distinct cached cards the samples rotate through (all of CACHED_CARDS by default). */
  variety?: number;
}

const FULL = { rounds: 200, warmupRounds: 30, verifications: 5_000, throughput: { rounds: 3, durationMs: 1_500, connections: 64, warmup: 1_000 } } as const;
/** The section's workload at each size: `full` is what BENCHMARKS.md reports. */
const SIZES: Readonly<Record<BenchSize, HttpModeOptions>> = {
  full: FULL,
  tiny: { rounds: 3, warmupRounds: 1, verifications: 50, throughput: { rounds: 1, durationMs: 100, connections: 2, warmup: 4 }, variety: 1 },
};

interface ModeLatency {
  cardShow: LatencySummary;
  autocomplete: LatencySummary;
}

export interface HttpModeResult {
  rounds: number;
  /** Samples the bot deferred (slower than 250 ms: load on the machine), timed to the deferral. */
  deferred: number;
  gateway: ModeLatency;
  http: ModeLatency;
  verification: { count: number; bodyBytes: number; microsecondsPerRequest: number };
  throughput: HttpThroughputResult;
}

type Interactions = Pick<TestBot['discord'], 'chatInput' | 'autocomplete'>;

function cardShow(discord: Interactions, cards: readonly number[], sample: number): Promise<TimedCallback> {
  return timeCallback(discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(cards[sample % cards.length]) } }));
}

function autocomplete(discord: Interactions, sample: number): Promise<TimedCallback> {
  return timeCallback(discord.autocomplete({ name: 'card', subcommand: 'show', options: { name: TYPED_QUERIES[sample % TYPED_QUERIES.length]! }, focused: 'name' }));
}

/** Checks the sample was answered (see `answerOf`); true when the bot deferred it. */
async function checkAnswered(timed: TimedCallback, what: string): Promise<boolean> {
  const { answer, deferred } = await answerOf(timed);
  const type = answer.type;
  if (type !== InteractionResponseType.ChannelMessageWithSource && type !== InteractionResponseType.ApplicationCommandAutocompleteResult) {
    throw new Error(`${what}: answered with callback type ${type}`);
  }
  return deferred;
}

function startHttpBot(upstreams: BenchUpstreams, snapshotDir: string): Promise<{ bot: TestHttpBot; stop(): Promise<void> }> {
  return startOnSnapshotCopy(snapshotDir, (dataDir) =>
    startTestHttpBot({
      env: { ...upstreams.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      commands: [...commands, TRIVIAL_COMMAND],
    }),
  );
}

/** Ed25519 verification alone, over a typical slash-command body. */
function benchVerification(count: number): HttpModeResult['verification'] {
  const keys = nodeSigningKeys();
  const key = ed25519PublicKey(keys.publicKeyHex);
  const body = Buffer.from(JSON.stringify({ type: 2, data: { name: 'card', options: [{ name: 'show', type: 1, options: [{ name: 'name', type: 3, value: 'Dark Magician' }] }] }, padding: 'x'.repeat(1_200) }));
  const headers = signatureHeadersFor(keys, body);
  const signed = { signature: headers['x-signature-ed25519']!, timestamp: headers['x-signature-timestamp']! };
  for (let index = 0; index < 500; index++) verifySignature(key, signed, body);
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    if (!verifySignature(key, signed, body)) throw new Error('verification failed');
  }
  return { count, bodyBytes: body.length, microsecondsPerRequest: ((performance.now() - started) * 1000) / count };
}

export async function benchHttpMode(upstreams: BenchUpstreams, snapshotDir: string, compiledRoot: string, options: HttpModeOptions = {}): Promise<HttpModeResult> {
  const rounds = options.rounds ?? FULL.rounds;
  const warmupRounds = options.warmupRounds ?? FULL.warmupRounds;
  const cards = CACHED_CARDS.slice(0, options.variety);
  const gateway = await startInProcessBot(upstreams, snapshotDir);
  const http = await startHttpBot(upstreams, snapshotDir);
  let latencies: Pick<HttpModeResult, 'rounds' | 'deferred' | 'gateway' | 'http'>;
  try {
    const modes = { gateway: gateway.bot.discord, http: http.bot.discord } as const;
    // Card art into each bot's store (a first show may be deferred), then JIT warm-up on every path.
    for (const discord of Object.values(modes)) {
      for (let sample = 0; sample < cards.length; sample++) {
        const { exchange, callback } = await cardShow(discord, cards, sample);
        if (callback.type === InteractionResponseType.DeferredChannelMessageWithSource) await exchange.final(30_000);
      }
      for (let round = 0; round < warmupRounds; round++) {
        await checkAnswered(await cardShow(discord, cards, round), 'cached /card show');
        await checkAnswered(await autocomplete(discord, round), 'autocomplete');
        await settle();
      }
    }
    const samples = new Map<string, number[]>();
    let deferred = 0;
    const scenarios = (['gateway', 'http'] as const).flatMap((mode) => [
      { key: `${mode}:card`, run: (sample: number) => cardShow(modes[mode], cards, sample) },
      { key: `${mode}:autocomplete`, run: (sample: number) => autocomplete(modes[mode], sample) },
    ]);
    const random = seededRandom(11);
    for (let round = 0; round < rounds; round++) {
      for (const scenario of shuffled(scenarios, random)) {
        const timed = await scenario.run(round);
        if (await checkAnswered(timed, scenario.key)) deferred++;
        samples.set(scenario.key, [...(samples.get(scenario.key) ?? []), timed.latencyMs]);
        await settle();
      }
    }
    const latency = (mode: 'gateway' | 'http'): ModeLatency => ({
      cardShow: summarize(samples.get(`${mode}:card`)!),
      autocomplete: summarize(samples.get(`${mode}:autocomplete`)!),
    });
    latencies = { rounds, deferred, gateway: latency('gateway'), http: latency('http') };
  } finally {
    await gateway.stop();
    await http.stop();
  }
  // The throughput run has the machine to itself but for its three processes.
  const verification = benchVerification(options.verifications ?? FULL.verifications);
  return { ...latencies, verification, throughput: await benchHttpThroughput(upstreams, snapshotDir, compiledRoot, options.throughput ?? FULL.throughput) };
}

const SCENARIO_LABELS: Readonly<Record<HttpScenario, { label: string; target: number }>> = {
  ipTime: { label: 'cached /ip time', target: 0.5 },
  autocomplete: { label: 'autocomplete "dark magic"', target: 0.5 },
  cardShow: { label: 'cached /card show with art (multipart)', target: 0.35 },
};

/** `low–high` of `values` formatted with `digits` decimals (one value alone when there is one). */
function spread(values: readonly number[], digits: number, unit = ''): string {
  const low = fixed(Math.min(...values), digits);
  const high = fixed(Math.max(...values), digits);
  return low === high ? `${low}${unit}` : `${low}–${high}${unit}`;
}

/** The median window's requests/s, the spread over the windows, their p99s, and the CPU time per request. */
function loadFigures(windows: readonly LoadResult[]): string {
  const rates = windows.map(requestsPerSecond);
  const failed = windows.reduce((sum, window) => sum + window.failed, 0);
  const refused = failed === 0 ? '' : `, ${failed} refused`;
  const exhausted = windows.some((window) => window.exhausted) ? ', signed requests ran out in a window: a floor' : '';
  const cpu = median(windows.map((window) => 1e6 / requestsPerCpuSecond(window)));
  return `${fixed(median(rates), 0)}/s (windows ${spread(rates, 0, '/s')}, p99 ${spread(windows.map((window) => window.p99Ms), 1, ' ms')}${refused}${exhausted}); CPU ${fixed(cpu, 0)} µs per request`;
}

/** Requests/s of the bare endpoint, then Almanac's, each the median of per-round ratios to the bare windows around it. */
function throughputRows(throughput: HttpThroughputResult): Row[] {
  const rounds = throughput.almanac.ipTime.length;
  const windows = `${rounds} round${rounds === 1 ? '' : 's'} of ${fixed(throughput.durationMs / 1000, 1)} s windows`;
  return [
    {
      area: 'HTTP mode',
      measure: `requests/s of a bare node:http endpoint (verify, parse, fixed one-embed answer), ${throughput.connections} keep-alive connections, ${windows} alternating with Almanac's`,
      target: '–',
      measured: loadFigures(throughput.bare),
      comparison: 'the baseline: endpoint, load generator and Almanac each in their own process',
      pass: null,
    },
    ...HTTP_SCENARIOS.map((scenario): Row => {
      const { throughput: ratio, cpu } = throughput.ratios[scenario];
      const { label, target } = SCENARIO_LABELS[scenario];
      return {
        area: 'HTTP mode',
        measure: `requests/s of Almanac's start-http process, ${label}`,
        target: `≥ ${target}× bare`,
        measured: loadFigures(throughput.almanac[scenario]),
        comparison:
          `${fixed(ratio.median, 2)}× the bare endpoint (median of ${rounds} round${rounds === 1 ? '' : 's'}' ratios to the bare windows around them: ${spread(ratio.perRound, 2, '×')}); ` +
          `requests per CPU second ${fixed(cpu.median, 2)}× bare's (${spread(cpu.perRound, 2, '×')})`,
        pass: ratio.median >= target,
      };
    }),
  ];
}

/** The stretch target for latency under load: p99 below this at `LOAD_SHARE` of the maximum. */
const P99_AT_LOAD_MS = 50;

/** Each scenario's latency in open loop at `LOAD_SHARE` of its own maximum requests/s. */
function atLoadRows(throughput: HttpThroughputResult): Row[] {
  return HTTP_SCENARIOS.map((scenario): Row => {
    const window = throughput.atLoad[scenario];
    const unanswered = window.sent - window.answered;
    return {
      area: 'HTTP mode',
      measure: `p50 / p99 of Almanac's start-http process at ${fixed(LOAD_SHARE * 100, 0)} % of its own maximum, ${SCENARIO_LABELS[scenario].label} (open loop: requests sent at a fixed rate, each timed from when it was due)`,
      target: `p99 < ${P99_AT_LOAD_MS} ms (stretch)`,
      measured: `${fixed(window.p50Ms, 1)} / ${fixed(window.p99Ms, 1)} ms`,
      comparison: `${fixed(window.ratePerSecond, 0)}/s for ${fixed(throughput.durationMs / 1000, 1)} s: ${window.answered} of ${window.sent} answered${unanswered === 0 ? '' : `, ${unanswered} not`}`,
      pass: window.p99Ms < P99_AT_LOAD_MS && unanswered === 0,
    };
  });
}

/** The section's rows: HTTP mode against the gateway, verification cost, requests/s, latency under load. */
export function httpModeRows(result: HttpModeResult): Row[] {
  const pair = (summary: LatencySummary) => `${fixed(summary.p50Ms, 2)} / ${fixed(summary.p99Ms, 2)} ms`;
  const ratio = (http: LatencySummary, gateway: LatencySummary) =>
    `gateway ${pair(gateway)}; HTTP ${fixed(http.p50Ms / gateway.p50Ms, 2)}× / ${fixed(http.p99Ms / gateway.p99Ms, 2)}× the gateway`;
  return [
    {
      area: 'HTTP mode',
      measure: `/card show (cached card and art, multipart answer), p50 / p99, ${result.rounds} interleaved samples`,
      target: '–',
      measured: pair(result.http.cardShow),
      comparison: `${ratio(result.http.cardShow, result.gateway.cardShow)}${result.deferred === 0 ? '' : `; ${result.deferred} samples of both modes deferred (timed to the deferral)`}`,
      pass: null,
    },
    {
      area: 'HTTP mode',
      measure: '/card show autocomplete, p50 / p99',
      target: '–',
      measured: pair(result.http.autocomplete),
      comparison: ratio(result.http.autocomplete, result.gateway.autocomplete),
      pass: null,
    },
    {
      area: 'HTTP mode',
      measure: `Ed25519 verification per request (${result.verification.bodyBytes} B body)`,
      target: '–',
      measured: `${fixed(result.verification.microsecondsPerRequest, 1)} µs`,
      comparison: `${result.verification.count} verifications, Node crypto; ${fixed(1e6 / result.verification.microsecondsPerRequest, 0)}/s on one core`,
      pass: null,
    },
    ...throughputRows(result.throughput),
    ...atLoadRows(result.throughput),
  ];
}

export const httpModeSection: BenchSection = {
  name: 'http',
  title: 'HTTP interactions mode against the gateway mode (interleaved), verification cost, requests/s',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const snapshotDir = await fixtures.snapshotDir();
    const compiledRoot = await fixtures.compiledRoot();
    const httpMode = await fixtures.withUpstreams((upstreams) => benchHttpMode(upstreams, snapshotDir, compiledRoot, SIZES[size]));
    return sectionResult(httpModeRows(httpMode), { httpMode });
  },
};
