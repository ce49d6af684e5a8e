/**
 * `npm run bench`: every benchmark part in one run, one markdown table on stdout (target, measured,
 * side-by-side comparison, pass), and every figure in `bench/results/latest.json`. Progress goes
 * to stderr. BENCHMARKS.md explains the method and holds the latest table.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadCardDump } from '../test/fakes/ygoprodeck.js';
import { REDIS_INSTALL_HINT, redisServerInstalled, startRedisServer } from '../test/helpers/redis-server.js';
import { startBotChild } from './bot-child.js';
import { benchCardSection, MAIN_LAYOUT, type CardMemoryResult, type CardSectionResult } from './cards.js';
import { warmCachedMix } from './cached-mix.js';
import { compileBotForNode } from './compile.js';
import { benchFleet, type FleetResult } from './fleet.js';
import { benchE2eLatency, startInProcessBot, type E2eLatencyResult } from './e2e-latency.js';
import { benchHttpMode, httpModeRows, type HttpModeResult } from './http-mode.js';
import { benchEconomy, benchRealLimitBurst, type EconomyResult, type RealLimitBurst } from './economy.js';
import { copyDataDir, prepareSnapshotDir, removeDir, sleep, startBenchUpstreams } from './harness.js';
import { benchMatcher, type ContenderResult, type MatcherBenchResult } from './matcher.js';
import type { ContenderSets } from './matcher-sets.js';
import { benchNewUserCost, benchSoak, type NewUserCost, type SoakResult } from './memory.js';
import { benchStartup, type StartupResult } from './startup.js';
import { fixed } from './stats.js';
import { benchThroughput, THROUGHPUT_P99_LIMIT_MS, THROUGHPUT_STEP_MS, type ThroughputResult } from './throughput.js';
import { buildWorkload } from './workload.js';
import type { MemorySample } from './bot-shared.js';

/** Limiter spacings and upstream windows are divided by this in the workload replay (see economy.ts). */
const TIME_SCALE = 10;
const WORKLOAD_COMMANDS = 10_000;
/** Bot processes in the fleet section, one gateway shard each, on one Redis. */
const FLEET_PROCESSES = 4;
const SOAK_INTERACTIONS = 50_000;
/**
 * V8 gives back the heap it grew under load only once the process has been idle a few seconds
 * (its memory reducer), so memory is read both at once and after this long without interactions.
 */
const SETTLE_MS = 5_000;
const STEP_SECONDS = THROUGHPUT_STEP_MS / 1000;

const TARGETS = {
  matcherTop1: 0.95,
  matcherP99Ms: 2,
  cachedLatencyRatio: 1.3,
  rssBytes: 200e6,
  readyWithSnapshotMs: 3_000,
  benchMs: 10 * 60_000,
  fleetRequestsRatio: 1.1,
} as const;

interface Row {
  area: string;
  measure: string;
  target: string;
  measured: string;
  comparison: string;
  /** true/false against a target; null when there is no target (reported for information). */
  pass: boolean | null;
}

function progress(message: string): void {
  const seconds = ((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4);
  console.error(`[bench ${seconds} s] ${message}`);
}

const benchStarted = performance.now();
const machine = {
  cpuModel: cpus()[0]?.model ?? 'unknown',
  cpus: availableParallelism(),
  memoryBytes: totalmem(),
  node: process.version,
  loadAverageAtStart: loadavg(),
  startedAt: new Date().toISOString(),
};

/** `--only <section>` runs one section alone and writes its figures to `results/<section>.json`. */
const SECTIONS = ['cards', 'matcher', 'fleet', 'http'] as const;
const only = onlySection(process.argv.slice(2));
if (only === 'cards') {
  const cards = await benchCardSection(await compileBotForNode(), progress);
  console.log(renderTable(cardRows(cards)));
  await writeResults('cards', { machine: { ...machine, loadAverageAtEnd: loadavg() }, benchMs: performance.now() - benchStarted, cards });
  process.exit(0);
}
if (only === 'fleet') {
  // Alone, the section replays its own one-process baseline.
  const workload = buildWorkload(loadCardDump(), { commands: WORKLOAD_COMMANDS });
  const fleet = await runFleetSection(await compileBotForNode(), workload, {});
  console.log(renderTable(fleetRows(fleet)));
  await writeResults('fleet', { machine: { ...machine, loadAverageAtEnd: loadavg() }, benchMs: performance.now() - benchStarted, timeScale: TIME_SCALE, fleet });
  process.exit(0);
}

if (only === 'http') {
  progress('HTTP interactions mode only: fake upstreams and a card database snapshot');
  const httpUpstreams = await startBenchUpstreams();
  const httpSnapshotDir = await prepareSnapshotDir(httpUpstreams.ygoprodeck.url);
  try {
    progress('HTTP mode against gateway mode (interleaved), verification cost, requests/s');
    const httpMode = await benchHttpMode(httpUpstreams, httpSnapshotDir);
    console.log(renderTable(httpModeRows(httpMode)));
    await writeResults('http-mode', { machine: { ...machine, loadAverageAtEnd: loadavg() }, benchMs: performance.now() - benchStarted, httpMode });
  } finally {
    await httpUpstreams.close();
    await removeDir(httpSnapshotDir);
  }
  process.exit(0);
}

progress('card matcher (all contenders, labelled, random-typo, sound-alike, translated-name and misc_info queries)');
const matcher = await benchMatcher();
if (only === 'matcher') {
  console.log(matcher.markdown);
  console.log(renderTable(matcherRows(matcher)));
  const { markdown: _markdown, ...figures } = matcher;
  await writeResults('matcher', { machine: { ...machine, loadAverageAtEnd: loadavg() }, benchMs: performance.now() - benchStarted, matcher: figures });
  process.exit(0);
}

progress('compiling the bot to JavaScript for the child processes');
const compiledScript = await compileBotForNode();

progress('fake upstreams at real speed, and card database snapshots (English and the four languages) written by the bot itself');
const upstreams = await startBenchUpstreams();
const snapshotDir = await prepareSnapshotDir(upstreams.ygoprodeck.url, { languages: true });

progress('end-to-end latency (in-process bot, interleaved with the trivial command)');
const inProcess = await startInProcessBot(upstreams, snapshotDir);
let e2e: E2eLatencyResult;
let burst: RealLimitBurst;
try {
  e2e = await benchE2eLatency(inProcess.bot);
  progress('YGOPRODeck burst under the production limiter settings');
  burst = await benchRealLimitBurst(inProcess.bot, upstreams);
} finally {
  await inProcess.stop();
}

progress('HTTP interactions mode against the gateway mode (interleaved), verification cost, requests/s');
const httpMode = await benchHttpMode(upstreams, snapshotDir);

progress('start-up with and without a snapshot (fresh child processes)');
const startup = await benchStartup(upstreams, snapshotDir, compiledScript);
await upstreams.close();

progress(`bot in its own process, upstreams time-compressed ×${TIME_SCALE}`);
const scaledUpstreams = await startBenchUpstreams(TIME_SCALE);
const sessionDir = await copyDataDir(snapshotDir);
const bot = await startBotChild({ upstreamEnv: scaledUpstreams.env, dataDir: sessionDir, timeScale: TIME_SCALE, compiledScript });
let memoryAtReadySettled: MemorySample;
let economy: EconomyResult;
let memoryAfterWorkloadSettled: MemorySample;
let throughput: ThroughputResult;
let soak: SoakResult;
let newUsers: NewUserCost;
const workload = buildWorkload(loadCardDump(), { commands: WORKLOAD_COMMANDS });
try {
  await sleep(SETTLE_MS);
  memoryAtReadySettled = await bot.measureMemory();
  progress(`economy: replaying ${WORKLOAD_COMMANDS} commands`);
  economy = await benchEconomy(bot, scaledUpstreams, workload, TIME_SCALE);
  await sleep(SETTLE_MS);
  memoryAfterWorkloadSettled = await bot.measureMemory();
  progress('throughput: cached interactions at rising rates');
  await warmCachedMix(bot.discord);
  throughput = await benchThroughput(bot);
  progress(`soak: ${SOAK_INTERACTIONS} cached interactions`);
  soak = await benchSoak(bot, { interactions: SOAK_INTERACTIONS });
  newUsers = await benchNewUserCost(bot);
} finally {
  await bot.stop();
  await scaledUpstreams.close();
  await removeDir(sessionDir);
}

let fleet: FleetResult | null;
try {
  fleet = await runFleetSection(compiledScript, workload, { snapshotDir, oneProcess: economy });
} finally {
  await removeDir(snapshotDir);
}

progress('card databases: memory, GC and /card show');
const cards = await benchCardSection(compiledScript, progress);

const benchMs = performance.now() - benchStarted;
const memory = { atReady: bot.memoryAtReady, atReadySettled: memoryAtReadySettled, afterWorkload: economy.memoryAfter, afterWorkloadSettled: memoryAfterWorkloadSettled };
const rows = [...buildRows({ matcher, e2e, burst, httpMode, startup, economy, throughput, soak, newUsers, memory, benchMs }), ...cardRows(cards), ...fleetRows(fleet)];
const markdown = renderTable(rows);
console.log(markdown);

const { markdown: _matcherMarkdown, ...matcherFigures } = matcher;
await writeResults('latest', {
      machine: { ...machine, loadAverageAtEnd: loadavg() },
      benchMs,
      timeScale: TIME_SCALE,
      table: rows,
      matcher: matcherFigures,
      e2eLatency: e2e,
      realLimitBurst: burst,
      httpMode,
      startup,
      memory: { ...memory, soak, newUsers },
      economy,
      throughput,
      cards,
      fleet,
});
progress(`done in ${(benchMs / 1000).toFixed(0)} s`);

function onlySection(args: readonly string[]): (typeof SECTIONS)[number] | undefined {
  const at = args.indexOf('--only');
  if (at < 0) return undefined;
  const section = args[at + 1];
  if (!(SECTIONS as readonly (string | undefined)[]).includes(section)) {
    console.error(`npm run bench -- --only <section>: the sections are ${SECTIONS.join(', ')}`);
    process.exit(2);
  }
  return section as (typeof SECTIONS)[number];
}

async function writeResults(name: string, figures: Record<string, unknown>): Promise<void> {
  const file = fileURLToPath(new URL(`./results/${name}.json`, import.meta.url));
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  await writeFile(file, `${JSON.stringify(figures, null, 2)}\n`);
  progress(`figures in ${file}`);
}

function cardRows(cards: CardSectionResult): Row[] {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const memoryRow = (label: string, result: CardMemoryResult, targetBytes: number): Row => ({
    area: 'Cards',
    measure: `RSS settled after load, ${label} (after GC, ${SETTLE_MS / 1000} s idle)`,
    target: `≤ ${mb(targetBytes)}`,
    measured: mb(result.settled.rssBytes),
    comparison: `heap used ${mb(result.settled.heapUsedBytes)} of ${mb(result.settled.heapTotalBytes)}, external ${mb(result.settled.externalBytes)}; main's layout, English alone: ${mb(MAIN_LAYOUT.rssSettledBytes)}`,
    pass: result.settled.rssBytes <= targetBytes,
  });
  const gcRow = (label: string, result: CardMemoryResult): Row => ({
    area: 'Cards',
    measure: `GC time per 1,000 cached interactions, ${label} (median of ${result.gcMsPerThousand.length} × ${result.interactionsPerBlock})`,
    target: `≤ ½ main's layout (${fixed(MAIN_LAYOUT.gcMsPerThousand, 0)} ms)`,
    measured: `${fixed(result.gcMsPerThousandMedian, 1)} ms`,
    comparison: `${fixed(result.gcMsPerThousandMedian / MAIN_LAYOUT.gcMsPerThousand, 2)}× main's; blocks ${result.gcMsPerThousand.map((value) => fixed(value, 1)).join(', ')} ms; ${result.lost} lost; load-independent, per 1,000: ${fixed(result.gcWork.allocatedMB, 0)} MB allocated (main's layout ${fixed(MAIN_LAYOUT.allocatedMBPerThousand, 0)} MB), ${fixed(result.gcWork.scavenges, 1)} scavenges, ${fixed(result.gcWork.majorGcs, 1)} other GCs, bot CPU ${fixed(result.gcWork.cpuMs, 0)} ms`,
    pass: result.gcMsPerThousandMedian <= MAIN_LAYOUT.gcMsPerThousand / 2 && result.lost === 0,
  });
  return [
    memoryRow('English database alone', cards.english, 150e6),
    memoryRow('all five databases (en, fr, de, it, pt)', cards.allLanguages, 200e6),
    gcRow('English alone', cards.english),
    gcRow('all five databases', cards.allLanguages),
    {
      area: 'Cards',
      measure: `/card show (cached card and art) p50, all five databases, ${cards.cardShow.rounds} rounds in-process`,
      target: `ratio ≤ main's (${fixed(MAIN_LAYOUT.cardShowP50Ratio, 2)}×)`,
      measured: `${fixed(cards.cardShow.p50Ms, 2)} ms`,
      comparison: `${fixed(cards.cardShow.p50Ratio, 2)}× the trivial command (${fixed(cards.cardShow.trivialP50Ms, 2)} ms); CPU time p50 ${fixed(cards.cardShow.cpuP50Ms, 2)} ms, ${fixed(cards.cardShow.cpuP50Ratio, 2)}× the trivial command's (${fixed(cards.cardShow.trivialCpuP50Ms, 2)} ms; main's layout ${fixed(MAIN_LAYOUT.cardShowCpuP50Ratio, 2)}×)`,
      pass: cards.cardShow.p50Ratio <= MAIN_LAYOUT.cardShowP50Ratio,
    },
  ];
}

/**
 * The fleet section on a fresh Redis; null (and a line saying why) when redis-server is missing.
 * Alone (`--only fleet`) it prepares its own snapshot and replays its own one-process baseline.
 */
async function runFleetSection(
  compiledScript: string,
  workload: ReturnType<typeof buildWorkload>,
  fromFullRun: { snapshotDir?: string; oneProcess?: EconomyResult },
): Promise<FleetResult | null> {
  if (!redisServerInstalled) {
    progress(`fleet section skipped: ${REDIS_INSTALL_HINT}`);
    return null;
  }
  progress(`fleet: ${FLEET_PROCESSES} processes, one shard each, on one Redis, upstreams time-compressed ×${TIME_SCALE}`);
  const redis = await startRedisServer();
  const snapshotDir = fromFullRun.snapshotDir ?? (await prepareFleetSnapshot());
  try {
    const { oneProcess } = fromFullRun;
    return await benchFleet({ processes: FLEET_PROCESSES, workload, timeScale: TIME_SCALE, snapshotDir, compiledScript, redis, progress, ...(oneProcess ? { oneProcess } : {}) });
  } finally {
    if (fromFullRun.snapshotDir === undefined) await removeDir(snapshotDir);
    await redis.stop();
  }
}

/** A card database snapshot for the fleet's processes, written by the bot's own code. */
async function prepareFleetSnapshot(): Promise<string> {
  const upstreams = await startBenchUpstreams();
  try {
    return await prepareSnapshotDir(upstreams.ygoprodeck.url);
  } finally {
    await upstreams.close();
  }
}

function fleetRows(fleet: FleetResult | null): Row[] {
  const area = 'Fleet';
  if (fleet === null) {
    return [{ area, measure: `${FLEET_PROCESSES} processes on one Redis`, target: '–', measured: 'skipped', comparison: REDIS_INSTALL_HINT, pass: null }];
  }
  const perThousand = (traffic: FleetResult['fleet']) =>
    traffic.upstreams
      .filter((row) => row.upstream !== 'YGOPRODeck (API + images)')
      .map((row) => `${row.upstream} ${fixed(row.perThousandCommands, 1)}`)
      .join('; ');
  const rows: Row[] = [
    {
      area,
      measure: `upstream requests per 1,000 commands, ${fleet.processes} processes (one shard each) vs one process`,
      target: `≤ ${TARGETS.fleetRequestsRatio}× one process`,
      measured: `${fixed(fleet.requestsRatio, 2)}×: ${perThousand(fleet.fleet)}`,
      comparison: `one process: ${perThousand(fleet.oneProcess)}; fleet unanswered ${fleet.unanswered}, outcomes ${Object.entries(fleet.outcomes)
        .map(([outcome, count]) => `${outcome} ${count}`)
        .join(', ')}`,
      pass: fleet.requestsRatio <= TARGETS.fleetRequestsRatio && fleet.unanswered === 0,
    },
  ];
  for (const upstream of fleet.fleet.upstreams.filter((row) => row.limit !== null)) {
    const limit = upstream.limit!;
    rows.push({
      area,
      measure: `${upstream.upstream}: the fleet's most requests in any ${upstream.windowLabel} (×${TIME_SCALE} compressed)`,
      target: `≤ ${limit}`,
      measured: String(upstream.maxInWindow),
      comparison: `${fixed(upstream.maxInWindow / limit, 2)}× the limit; one process ${fleet.oneProcess.upstreams.find((row) => row.upstream === upstream.upstream)?.maxInWindow ?? '–'}`,
      pass: upstream.maxInWindow <= limit && !(upstream.upstream.startsWith('YGOPRODeck') && fleet.fleet.ygoprodeckBlocked),
    });
  }
  rows.push(
    {
      area,
      measure: 'cost of Redis per cached command (cached mix, p50 / p99)',
      target: '–',
      measured: `${fixed(fleet.cachedCost.withRedis.p50Ms, 2)} / ${fixed(fleet.cachedCost.withRedis.p99Ms, 2)} ms`,
      comparison: `${fixed(fleet.cachedCost.p50Ratio, 2)}× in-process (${fixed(fleet.cachedCost.inProcess.p50Ms, 2)} / ${fixed(fleet.cachedCost.inProcess.p99Ms, 2)} ms), ${fleet.cachedCost.withRedis.count} interleaved samples each`,
      pass: null,
    },
    {
      area,
      measure: 'sharing again after a Redis restart (same new address on two processes → one GeoJS request)',
      target: 'within seconds',
      measured: fleet.recovery.recovered ? `${fixed(fleet.recovery.afterMs / 1000, 2)} s` : 'not recovered',
      comparison: `${fleet.recovery.probes} probes, ${fleet.recovery.probeSpacingMs} ms apart`,
      pass: fleet.recovery.recovered && fleet.recovery.afterMs <= 10_000,
    },
  );
  return rows;
}

interface Figures {
  matcher: MatcherBenchResult;
  e2e: E2eLatencyResult;
  burst: RealLimitBurst;
  httpMode: HttpModeResult;
  startup: StartupResult;
  economy: EconomyResult;
  throughput: ThroughputResult;
  soak: SoakResult;
  newUsers: NewUserCost;
  memory: { atReady: MemorySample; atReadySettled: MemorySample; afterWorkload: MemorySample; afterWorkloadSettled: MemorySample };
  benchMs: number;
}

/** The matcher's rows: labelled accuracy and latency against the libraries, then the newer query sets. */
function matcherRows(matcher: MatcherBenchResult): Row[] {
  const rows: Row[] = [];
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
  const times = (value: number) => `${fixed(value, 2)}×`;
  const [ours, substring, ...libraries] = matcher.contenders as [ContenderResult, ContenderResult, ...ContenderResult[]];
  const bestLibrary = [...libraries].sort((a, b) => b.top1 - a.top1)[0]!;
  rows.push(
    {
      area: 'Card matcher',
      measure: `top-1 accuracy, ${matcher.queries} labelled queries`,
      target: `≥ ${TARGETS.matcherTop1 * 100} %`,
      measured: percent(ours.top1, ours.total),
      comparison: `substring ${percent(substring.top1, substring.total)} (${times(ours.top1 / substring.top1)}); ${bestLibrary.name} ${percent(bestLibrary.top1, bestLibrary.total)} (${times(ours.top1 / bestLibrary.top1)})`,
      pass: ours.top1 / ours.total >= TARGETS.matcherTop1,
    },
    {
      area: 'Card matcher',
      measure: 'top-5 accuracy',
      target: '–',
      measured: percent(ours.top5, ours.total),
      comparison: `substring ${percent(substring.top5, substring.total)}; ${bestLibrary.name} ${percent(bestLibrary.top5, bestLibrary.total)}`,
      pass: null,
    },
    {
      area: 'Card matcher',
      measure: `latency per query, ${matcher.cards} cards (p50 / p99)`,
      target: `p99 ≤ ${TARGETS.matcherP99Ms} ms`,
      measured: `${fixed(ours.p50Ms, 3)} / ${fixed(ours.p99Ms, 3)} ms`,
      comparison: `p99: substring ${fixed(substring.p99Ms, 3)} ms (${times(ours.p99Ms / substring.p99Ms)}); ${bestLibrary.name} ${fixed(bestLibrary.p99Ms, 3)} ms (${times(ours.p99Ms / bestLibrary.p99Ms)})`,
      pass: ours.p99Ms <= TARGETS.matcherP99Ms,
    },
  );

  const [oursSets, , ...librarySets] = matcher.sets.contenders.slice(0, matcher.contenders.length);
  const combined = (sets: ContenderSets | undefined, names: readonly string[]) => {
    const chosen = sets?.sets.filter((set) => names.includes(set.set)) ?? [];
    return { top1: chosen.reduce((sum, set) => sum + set.top1, 0), total: chosen.reduce((sum, set) => sum + set.total, 0) };
  };
  const setGroups: [string, string[]][] = [
    ['sound-alike queries (English and translated names)', ['sound-alike, English', 'sound-alike, translated']],
    ['translated-name queries (fr/de/it/pt users)', ['translated names']],
    ['old names and popular prefixes (misc_info fixture)', ['old names (misc_info)', 'popular prefixes (misc_info)']],
  ];
  for (const [measure, names] of setGroups) {
    const score = combined(oursSets, names);
    const best = librarySets
      .map((sets) => ({ name: sets?.name ?? '', ...combined(sets, names) }))
      .sort((a, b) => b.top1 - a.top1)[0];
    rows.push({
      area: 'Card matcher',
      measure: `top-1 accuracy, ${score.total} ${measure}`,
      target: '–',
      measured: percent(score.top1, score.total),
      comparison: best === undefined ? '–' : `${best.name} ${percent(best.top1, best.total)}`,
      pass: null,
    });
  }
  const { frenchUser, footprint } = matcher.sets;
  rows.push({
    area: 'Card matcher',
    measure: 'latency per query with fr/de/it/pt names loaded, French user (p50 / p99)',
    target: `p99 ≤ ${TARGETS.matcherP99Ms} ms`,
    measured: `${fixed(frenchUser.p50Ms, 3)} / ${fixed(frenchUser.p99Ms, 3)} ms`,
    comparison: `English only: ${fixed(ours.p99Ms, 3)} ms p99`,
    pass: frenchUser.p99Ms <= TARGETS.matcherP99Ms,
  });
  if (footprint !== null) {
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    rows.push({
      area: 'Card matcher',
      measure: 'index memory after GC, heap + typed arrays',
      target: '–',
      measured: `${mb(footprint.withLanguages.heapBytes)} + ${mb(footprint.withLanguages.arrayBufferBytes)} with fr/de/it/pt names`,
      comparison: `English only ${mb(footprint.english.heapBytes)} + ${mb(footprint.english.arrayBufferBytes)}`,
      pass: null,
    });
  }
  return rows;
}

function buildRows(figures: Figures): Row[] {
  const { matcher, e2e, burst, startup, economy, throughput, soak, newUsers, memory } = figures;
  const rows: Row[] = [];
  const times = (value: number) => `${fixed(value, 2)}×`;
  // Decimal megabytes, as the target is stated (the stricter reading of "200 MB").
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

  // --- 1. Matcher ------------------------------------------------------------------------------
  rows.push(...matcherRows(matcher));

  // --- 2. End-to-end latency -------------------------------------------------------------------
  rows.push({
    area: 'End to end',
    measure: 'trivial command (baseline), p50 / p99',
    target: '–',
    measured: `${fixed(e2e.trivial.p50Ms, 2)} / ${fixed(e2e.trivial.p99Ms, 2)} ms`,
    comparison: `${e2e.rounds} interleaved samples each`,
    pass: null,
  });
  for (const scenario of e2e.scenarios) {
    rows.push({
      area: 'End to end',
      measure: `${scenario.label}, p50 / p99`,
      target: scenario.cached ? `p50 ≤ ${TARGETS.cachedLatencyRatio}× trivial` : '–',
      measured: `${fixed(scenario.p50Ms, 2)} / ${fixed(scenario.p99Ms, 2)} ms`,
      comparison: `${times(scenario.p50Ratio)} / ${times(scenario.p99Ratio)} trivial`,
      pass: scenario.cached ? scenario.p50Ratio <= TARGETS.cachedLatencyRatio : null,
    });
  }

  rows.push(...httpModeRows(figures.httpMode));

  // --- 3. Throughput ---------------------------------------------------------------------------
  // The ramp stops at the first rate that failed all its attempts: the last step, when it failed.
  const lastStep = throughput.steps[throughput.steps.length - 1];
  const failedStep = lastStep?.passed === false ? lastStep : undefined;
  rows.push({
    area: 'Throughput',
    measure: `cached interactions/s, one process, p99 < ${THROUGHPUT_P99_LIMIT_MS} ms`,
    target: '–',
    measured: `${throughput.sustainedPerSecond}/s (p99 ${fixed(throughput.p99AtSustainedMs, 1)} ms)`,
    comparison: failedStep
      ? `${failedStep.offeredPerSecond}/s failed: p50 ${fixed(failedStep.p50Ms, 1)} ms, p99 ${fixed(failedStep.p99Ms, 1)} ms, ${failedStep.lost} lost; ` +
        `bot loop stalled ≤ ${fixed(failedStep.botStalls.loopDelayMaxMs, 0)} ms (GC ${fixed(failedStep.botStalls.gcPauseTotalMs, 0)} ms in ${STEP_SECONDS} s), ` +
        `load generator ≤ ${fixed(failedStep.loadGeneratorStalls.loopDelayMaxMs, 0)} ms${throughput.limitedByLoadGenerator ? ' (could not keep up)' : ''}`
      : 'no rate failed',
    pass: null,
  });

  // --- 4. Upstream economy ---------------------------------------------------------------------
  const perThousand = economy.upstreams.map((upstream) => `${upstream.upstream} ${fixed(upstream.perThousandCommands, 1)}`).join('; ');
  rows.push(
    {
      area: 'Economy',
      measure: `upstream requests per 1,000 commands (${economy.commands} commands, ${economy.autocompletes} autocompletes)`,
      target: '–',
      measured: perThousand,
      comparison: `outcomes: ${Object.entries(economy.outcomes)
        .map(([outcome, count]) => `${outcome} ${count}`)
        .join(', ')}; unanswered ${economy.unanswered}`,
      pass: null,
    },
    {
      area: 'Economy',
      measure: '`cardinfo.php` requests for card commands once the databases are loaded (lookups, translations)',
      target: '0',
      measured: String(economy.cardinfoLookups + economy.cardinfoTranslations),
      comparison: `lookups ${economy.cardinfoLookups}; translations (language=…) ${economy.cardinfoTranslations}, ${economy.distinctTranslations} distinct`,
      pass: economy.cardinfoLookups === 0 && economy.cardinfoTranslations === 0,
    },
    {
      area: 'Economy',
      measure: 'card art downloads',
      target: 'each image once',
      measured: `${economy.imageRequests} requests, ${economy.distinctImages} distinct images`,
      comparison: `${fixed(economy.imageRequests / Math.max(1, economy.distinctImages), 2)} requests per image`,
      pass: economy.imageRequests === economy.distinctImages,
    },
  );
  for (const upstream of economy.upstreams.filter((candidate) => candidate.limit !== null || candidate.upstream === 'GeoJS')) {
    const limit = upstream.limit;
    rows.push({
      area: 'Economy',
      measure: `${upstream.upstream}: most requests in any ${upstream.windowLabel} (×${economy.timeScale} compressed)`,
      target: limit === null ? 'none stated' : `≤ ${limit}`,
      measured: String(upstream.maxInWindow),
      comparison: `${limit === null ? '' : `${fixed(upstream.maxInWindow / limit, 2)}× the limit; `}the limiter's spacing allows ${upstream.spacingAllows}`,
      pass: limit === null ? null : upstream.maxInWindow <= limit && !(upstream.upstream.startsWith('YGOPRODeck') && economy.ygoprodeckBlocked),
    });
  }
  rows.push({
    area: 'Economy',
    measure: `YGOPRODeck at real speed: ${burst.commands} /card random at once (production limiter)`,
    target: `≤ ${burst.limitPerSecond} in any 1 s`,
    measured: `${burst.maxPerSecond} in 1 s; ${burst.answered}/${burst.commands} answered`,
    comparison: `${fixed(burst.maxPerSecond / burst.limitPerSecond, 2)}× the limit; ${burst.imageRequests} image downloads`,
    pass: burst.maxPerSecond <= burst.limitPerSecond && !burst.blocked && burst.answered === burst.commands,
  });

  // --- 5. Memory and start-up ------------------------------------------------------------------
  const lastSoak = soak.samples[soak.samples.length - 1]!.memory;
  rows.push(
    {
      area: 'Memory',
      measure: `RSS after loading the card database (after GC, ${SETTLE_MS / 1000} s idle)`,
      target: `≤ ${mb(TARGETS.rssBytes)}`,
      measured: mb(memory.atReadySettled.rssBytes),
      comparison: `heap used ${mb(memory.atReadySettled.heapUsedBytes)} of ${mb(memory.atReadySettled.heapTotalBytes)}; at the ready signal ${mb(memory.atReady.rssBytes)}`,
      pass: memory.atReadySettled.rssBytes <= TARGETS.rssBytes,
    },
    {
      area: 'Memory',
      measure: `RSS right after the ${economy.commands}-command workload (after GC)`,
      target: `≤ ${mb(TARGETS.rssBytes)}`,
      measured: mb(memory.afterWorkload.rssBytes),
      comparison: `heap used ${mb(memory.afterWorkload.heapUsedBytes)} of ${mb(memory.afterWorkload.heapTotalBytes)}; ${times(memory.afterWorkload.rssBytes / memory.atReadySettled.rssBytes)} the RSS at ready`,
      pass: memory.afterWorkload.rssBytes <= TARGETS.rssBytes,
    },
    {
      area: 'Memory',
      measure: `RSS ${SETTLE_MS / 1000} s after the workload (after GC)`,
      target: `≤ ${mb(TARGETS.rssBytes)}`,
      measured: mb(memory.afterWorkloadSettled.rssBytes),
      comparison: `heap used ${mb(memory.afterWorkloadSettled.heapUsedBytes)} of ${mb(memory.afterWorkloadSettled.heapTotalBytes)}`,
      pass: memory.afterWorkloadSettled.rssBytes <= TARGETS.rssBytes,
    },
    {
      area: 'Memory',
      measure: `heap growth over a ${soak.interactions}-interaction soak (after GC)`,
      target: `plateau: < ${mb(soak.plateauToleranceBytes)} over the 2nd half`,
      measured: `${fixed(soak.heapGrowthBytes / 1e6, 1)} MB in all, ${fixed(soak.secondHalfHeapGrowthBytes / 1e6, 2)} MB in the 2nd half`,
      comparison: `RSS at the end ${mb(lastSoak.rssBytes)}; ${soak.lost} lost; ${fixed(soak.interactions / (soak.durationMs / 1000), 0)} interactions/s`,
      pass: soak.plateaued && soak.lost === 0,
    },
    {
      area: 'Memory',
      measure: 'heap per new distinct user (discord.js caches)',
      target: '–',
      measured: `${fixed(newUsers.bytesPerUser, 0)} B`,
      comparison: `${newUsers.users} new users: heap ${fixed(newUsers.heapGrowthBytes / 1e6, 1)} MB, +${newUsers.cachedUsersAdded} cached users, +${newUsers.cachedMembersAdded} cached members`,
      pass: null,
    },
    {
      area: 'Start-up',
      measure: 'process start → ready, with a snapshot (median)',
      target: `≤ ${TARGETS.readyWithSnapshotMs / 1000} s`,
      measured: `${fixed(startup.withSnapshotMedianMs / 1000, 2)} s`,
      comparison: `modules loaded at ${fixed(startup.modulesLoadedMedianMs / 1000, 2)} s; under tsx ${fixed(startup.underTsx.fullyReadyMs / 1000, 2)} s`,
      pass: startup.withSnapshotMedianMs <= TARGETS.readyWithSnapshotMs,
    },
    {
      area: 'Start-up',
      measure: 'process start → ready, without a snapshot (median)',
      target: '–',
      measured: `${fixed(startup.withoutSnapshotMedianMs / 1000, 2)} s`,
      comparison: `${times(startup.withoutSnapshotMedianMs / startup.withSnapshotMedianMs)} with a snapshot; answering (upstream lookups) from ${fixed(startup.withoutSnapshotDiscordReadyMedianMs / 1000, 2)} s`,
      pass: null,
    },
    {
      area: 'Bench',
      measure: '`npm run bench` duration',
      target: `< ${TARGETS.benchMs / 60_000} min`,
      measured: `${fixed(figures.benchMs / 60_000, 1)} min`,
      comparison: `load average ${machine.loadAverageAtStart.map((load) => load.toFixed(1)).join(' ')} at start`,
      pass: figures.benchMs < TARGETS.benchMs,
    },
  );
  return rows;
}

function renderTable(rows: readonly Row[]): string {
  const passCell = (pass: boolean | null) => (pass === null ? '–' : pass ? '✅' : '❌ missed');
  const escape = (text: string) => text.replaceAll('|', '\\|');
  return [
    `## Almanac benchmarks — ${machine.startedAt.slice(0, 10)}, ${machine.cpus} × ${machine.cpuModel}, ${(machine.memoryBytes / 1e9).toFixed(1)} GB RAM, Node ${machine.node}`,
    '',
    '| area | measure | target | measured | side by side | pass |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.area} | ${escape(row.measure)} | ${escape(row.target)} | ${escape(row.measured)} | ${escape(row.comparison)} | ${passCell(row.pass)} |`),
    '',
  ].join('\n');
}
