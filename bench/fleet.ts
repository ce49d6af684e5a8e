/**
 * The fleet section: the 10,000-command workload (workload.ts) replayed over several bot processes,
 * each running one gateway shard of a fake Discord whose guilds spread over the shards, all sharing
 * one Redis, against the same time-compressed fake upstreams as the one-process replay (economy.ts).
 *
 * - Upstream requests per 1,000 commands, fleet against one process: sharing budgets and caches
 *   through Redis should make N processes cost what one costs.
 * - The fleet's busiest window at each upstream, against its limit.
 * - What Redis costs a cached command: p50 acknowledgement time of the cached mix (cached-mix.ts) on
 *   a fleet process against a process without REDIS_URL, samples interleaved.
 * - How long after a Redis restart (empty, same address) sharing works again: the same new address
 *   asked on two processes costs one GeoJS request.
 */
import type { RawCard } from '../src/cards/normalise-card.js';
import type { RecordedRequest } from '../test/fakes/fake-server.js';
import { shardOf, type FakeDiscord } from '../test/fakes/discord.js';
import { POSTGRES, startTestDatabase } from '../test/helpers/postgres-server.js';
import { REDIS, startRedisServer } from '../test/helpers/redis-server.js';
import { startBenchDiscord, startBotChild, type BotChild, type BotChildOptions } from './bot-child.js';
import { CachedMix, mixUser } from './cached-mix.js';
import { benchEconomy, holdsUnderLoad, REPLAY_CONCURRENCY, replay, upstreamMarks, upstreamTraffic, type EconomyResult, type UpstreamTraffic } from './economy.js';
import type { BenchFixtures } from './fixtures.js';
import { copyDataDir, removeDir, settle, sleep, startBenchUpstreams, timeCallback, type BenchUpstreams } from './harness.js';
import { TIME_SCALE } from './one-process.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, seededRandom, summarize, type LatencySummary } from './stats.js';
import { spreadOverGuilds, type Workload } from './workload.js';

/** Guilds per shard in the fleet's fake Discord: enough that each process serves several. */
const GUILDS_PER_SHARD = 3;
/** The fleet's upstream requests per 1,000 commands may be at most this many times one process's. */
const REQUESTS_RATIO_TARGET = 1.1;
/** Sharing must work again this soon after Redis restarts. */
const RECOVERY_TARGET_MS = 10_000;
/** Give up measuring the recovery after this long (reported as not recovered). */
const RECOVERY_LIMIT_MS = 60_000;
const RECOVERY_PROBE_SPACING_MS = 100;
const ANSWER_TIMEOUT_MS = 60_000;

/** The fleet's Redis, which the section restarts (empty, same address) to time the recovery. */
export interface FleetRedis {
  url: string;
  restart(): Promise<void>;
}

/** Bot processes (one gateway shard each), cached-cost samples and distinct cached items at each size. */
interface FleetSize {
  processes: number;
  cachedCostRounds: number;
  cachedCostWarmupRounds: number;
  variety?: number;
}

/** The section's workload at each size: `full` is what BENCHMARKS.md reports. */
const SIZES: Readonly<Record<BenchSize, FleetSize>> = {
  full: { processes: 4, cachedCostRounds: 400, cachedCostWarmupRounds: 40 },
  tiny: { processes: 2, cachedCostRounds: 4, cachedCostWarmupRounds: 1, variety: 1 },
};

export interface FleetOptions extends FleetSize {
  /** The cards the fake YGOPRODeck serves (those of the snapshot). */
  cards: RawCard[];
  workload: Workload;
  timeScale: number;
  snapshotDir: string;
  compiledScript: string;
  redis: FleetRedis;
  /** The fleet's PostgreSQL (DATABASE_URL): the start refuses SQLite with REDIS_URL. */
  databaseUrl: string;
  /** The one-process replay of the same workload at the same scale; replayed here when absent. */
  oneProcess?: EconomyResult;
  progress(message: string): void;
}

export interface FleetResult {
  processes: number;
  timeScale: number;
  commands: number;
  replayMs: number;
  unanswered: number;
  /** Router outcomes summed over the fleet. */
  outcomes: Record<string, number>;
  fleet: UpstreamTraffic;
  oneProcess: UpstreamTraffic;
  /** Upstream requests of every upstream per 1,000 commands: the fleet's over one process's. */
  requestsRatio: number;
  cachedCost: { withRedis: LatencySummary; inProcess: LatencySummary; p50Ratio: number };
  recovery: { recovered: boolean; afterMs: number; probes: number; probeSpacingMs: number };
}

export async function benchFleet(options: FleetOptions): Promise<FleetResult> {
  const { processes, timeScale, progress } = options;
  const soloUpstreams = await startBenchUpstreams(timeScale, options.cards);
  const soloDir = await copyDataDir(options.snapshotDir);
  const upstreams = await startBenchUpstreams(timeScale, options.cards);
  const discord = await startBenchDiscord({ guilds: processes * GUILDS_PER_SHARD, shardCount: processes, maxConcurrency: processes });
  const dataDirs: string[] = [];
  const starting: Promise<BotChild>[] = [];
  /** Starts a process; a start that fails is reported where it is awaited (`Promise.all` below), not as unhandled before. */
  const start = (child: BotChildOptions): Promise<BotChild> => {
    const bot = startBotChild(child);
    bot.catch(() => undefined);
    starting.push(bot);
    return bot;
  };
  try {
    // Start-up is not measured here: the processes start side by side (the fake lets every shard
    // identify at once), except while the one-process baseline is replayed, which runs alone.
    const soloStart = start(childOptions(options, soloUpstreams, soloDir));
    let oneProcess = options.oneProcess;
    if (!oneProcess) {
      progress(`fleet: one-process baseline, replaying ${options.workload.commands} commands`);
      oneProcess = await benchEconomy(await soloStart, soloUpstreams, options.workload, timeScale);
    }

    progress(`fleet: starting ${processes} bot processes (one shard each) on one Redis, side by side`);
    for (let shard = 0; shard < processes; shard++) {
      const dataDir = await copyDataDir(options.snapshotDir);
      dataDirs.push(dataDir);
      const env = { SHARD_COUNT: String(processes), SHARD_IDS: String(shard), REDIS_URL: options.redis.url, DATABASE_URL: options.databaseUrl };
      void start({ ...childOptions(options, upstreams, dataDir), discord, env });
    }
    const [solo, ...bots] = await Promise.all([soloStart, ...starting.slice(1)]);

    progress(`fleet: replaying ${options.workload.commands} commands over ${discord.guilds.length} guilds`);
    const marks = upstreamMarks(upstreams);
    const before = await fleetOutcomes(bots);
    const actions = spreadOverGuilds(options.workload.actions, discord.guilds.map((guild) => guild.id));
    const started = performance.now();
    // As many users at once per process as the one-process replay has in all.
    const unanswered = await replay(discord, actions, REPLAY_CONCURRENCY * processes);
    const replayMs = performance.now() - started;
    const after = await fleetOutcomes(bots);
    const fleet = upstreamTraffic(upstreams, marks, options.workload.commands, timeScale);

    progress('fleet: cost of Redis per cached command');
    const cachedCost = await benchCachedCost(discord, solo.discord, options);

    progress('fleet: Redis restart, time until sharing works again');
    const recovery = await benchRecovery(discord, upstreams, options.redis, processes);

    return {
      processes,
      timeScale,
      commands: options.workload.commands,
      replayMs,
      unanswered,
      outcomes: Object.fromEntries(Object.entries(after).map(([outcome, count]) => [outcome, count - (before[outcome] ?? 0)])),
      fleet,
      oneProcess,
      requestsRatio: totalPerThousand(fleet) / totalPerThousand(oneProcess),
      cachedCost,
      recovery,
    };
  } finally {
    // Every process that started, the solo one first, even when another failed to.
    for (const result of await Promise.allSettled(starting)) if (result.status === 'fulfilled') await result.value.stop();
    await discord.close();
    await Promise.all([upstreams.close(), soloUpstreams.close()]);
    for (const dir of [soloDir, ...dataDirs]) await removeDir(dir);
  }
}

function childOptions(options: FleetOptions, upstreams: BenchUpstreams, dataDir: string) {
  return { upstreamEnv: upstreams.env, dataDir, timeScale: options.timeScale, compiledScript: options.compiledScript };
}

async function fleetOutcomes(bots: readonly BotChild[]): Promise<Record<string, number>> {
  const total: Record<string, number> = {};
  for (const bot of bots) {
    for (const [outcome, count] of Object.entries(await bot.interactionCounts())) total[outcome] = (total[outcome] ?? 0) + count;
  }
  return total;
}

/** Requests to every upstream (YGOPRODeck counted once, API and images) per 1,000 commands. */
function totalPerThousand(traffic: UpstreamTraffic): number {
  const counted = ['GeoJS', 'Wallhaven API', 'YGOPRODeck (API + images)'];
  return traffic.upstreams.filter((row) => counted.includes(row.upstream)).reduce((total, row) => total + row.perThousandCommands, 0);
}

/**
 * The cached mix on the fleet (the fake's first guild, so one process answers) and on the process
 * without Redis, one sample of each per round, in alternating order.
 */
async function benchCachedCost(fleet: FakeDiscord, solo: FakeDiscord, size: FleetSize): Promise<FleetResult['cachedCost']> {
  const mix = new CachedMix(size.variety);
  await mix.warm(fleet);
  await mix.warm(solo);
  const samples = { fleet: [] as number[], solo: [] as number[] };
  const randoms = { fleet: seededRandom(11), solo: seededRandom(11) };
  for (let round = 0; round < size.cachedCostWarmupRounds + size.cachedCostRounds; round++) {
    const order = round % 2 === 0 ? (['fleet', 'solo'] as const) : (['solo', 'fleet'] as const);
    for (const side of order) {
      const discord = side === 'fleet' ? fleet : solo;
      const timed = await timeCallback(mix.start(discord, round, mixUser(round % 50), randoms[side]));
      if (round >= size.cachedCostWarmupRounds) samples[side].push(timed.latencyMs);
      await settle();
    }
  }
  const withRedis = summarize(samples.fleet);
  const inProcess = summarize(samples.solo);
  return { withRedis, inProcess, p50Ratio: withRedis.p50Ms / inProcess.p50Ms };
}

/**
 * Restarts Redis empty, then probes until sharing works again: a new address asked on the process
 * of shard 0, then on the process of shard 1, must cost one GeoJS request.
 */
async function benchRecovery(discord: FakeDiscord, upstreams: BenchUpstreams, redis: FleetRedis, processes: number): Promise<FleetResult['recovery']> {
  const guildOn = (shard: number) => discord.guilds.find((guild) => shardOf(guild.id, processes) === shard)!.id;
  const [first, second] = [guildOn(0), guildOn(1)];
  await redis.restart();
  const restartedAt = performance.now();
  let probes = 0;
  while (performance.now() - restartedAt < RECOVERY_LIMIT_MS) {
    probes++;
    // 45.0.0.0/8 is ordinary public space, and no workload or mix address is in it.
    const address = `45.${(probes >> 8) & 255}.${probes & 255}.9`;
    const mark = upstreams.geojs.requests.length;
    for (const guildId of [first, second]) {
      const exchange = await discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, guildId });
      await exchange.final(ANSWER_TIMEOUT_MS);
    }
    const asked = upstreams.geojs.requests.slice(mark).filter((request: RecordedRequest) => (request.query.get('ip') ?? '').split(',').includes(address));
    if (asked.length === 1) return { recovered: true, afterMs: performance.now() - restartedAt, probes, probeSpacingMs: RECOVERY_PROBE_SPACING_MS };
    await sleep(RECOVERY_PROBE_SPACING_MS);
  }
  return { recovered: false, afterMs: RECOVERY_LIMIT_MS, probes, probeSpacingMs: RECOVERY_PROBE_SPACING_MS };
}

export function fleetRows(fleet: FleetResult): Row[] {
  const area = 'Fleet';
  const perThousand = (traffic: UpstreamTraffic) =>
    traffic.upstreams
      .filter((row) => row.upstream !== 'YGOPRODeck (API + images)')
      .map((row) => `${row.upstream} ${fixed(row.perThousandCommands, 1)}`)
      .join('; ');
  const rows: Row[] = [
    {
      area,
      measure: `upstream requests per 1,000 commands, ${fleet.processes} processes (one shard each) vs one process`,
      target: `≤ ${REQUESTS_RATIO_TARGET}× one process`,
      measured: `${fixed(fleet.requestsRatio, 2)}×: ${perThousand(fleet.fleet)}`,
      comparison: `one process: ${perThousand(fleet.oneProcess)}; fleet unanswered ${fleet.unanswered}, outcomes ${Object.entries(fleet.outcomes)
        .map(([outcome, count]) => `${outcome} ${count}`)
        .join(', ')}`,
      pass: fleet.requestsRatio <= REQUESTS_RATIO_TARGET && fleet.unanswered === 0,
    },
  ];
  for (const upstream of fleet.fleet.upstreams.filter((row) => row.limit !== null)) {
    const limit = upstream.limit!;
    rows.push({
      area,
      measure: `${upstream.upstream}: the fleet's most requests in any ${upstream.windowLabel} (×${fleet.timeScale} compressed)`,
      target: `≤ ${limit}`,
      measured: String(upstream.maxInWindow),
      comparison: `${fixed(upstream.maxInWindow / limit, 2)}× the limit; one process ${fleet.oneProcess.upstreams.find((row) => row.upstream === upstream.upstream)?.maxInWindow ?? '–'}`,
      pass: upstream.maxInWindow <= limit && !(upstream.upstream.startsWith('YGOPRODeck') && fleet.fleet.ygoprodeckBlocked),
      ...(holdsUnderLoad(upstream) ? { assertion: true as const } : {}),
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
      pass: fleet.recovery.recovered && fleet.recovery.afterMs <= RECOVERY_TARGET_MS,
    },
  );
  return rows;
}

/**
 * The fleet on a fresh `redis-server` and PostgreSQL database, against the one-process replay of
 * the same workload when the run has one (the one-process section), or its own. Without
 * redis-server or PostgreSQL, one row says why.
 */
export const fleetSection: BenchSection = {
  name: 'fleet',
  title: 'fleet: several bot processes, one shard each, on one Redis',
  assertions: true,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const settings = SIZES[size];
    const missing = [REDIS, POSTGRES].find((tool) => !tool.installed);
    if (missing) {
      fixtures.progress(`fleet section skipped: ${missing.installHint}`);
      const skipped = { area: 'Fleet', measure: `${settings.processes} processes on one Redis`, target: '–', measured: 'skipped', comparison: missing.installHint, pass: null };
      return sectionResult([skipped], { fleet: null });
    }
    const snapshotDir = await fixtures.snapshotDir();
    const compiledScript = await fixtures.compiledScript();
    fixtures.progress(`fleet: ${settings.processes} processes, one shard each, on one Redis, upstreams time-compressed ×${TIME_SCALE}`);
    const [redis, database] = await Promise.all([startRedisServer(), startTestDatabase()]);
    try {
      const fleet = await benchFleet({
        ...settings,
        cards: fixtures.cards(),
        workload: fixtures.workload(),
        timeScale: TIME_SCALE,
        snapshotDir,
        compiledScript,
        redis,
        databaseUrl: database.url,
        progress: fixtures.progress,
        ...(fixtures.oneProcessEconomy ? { oneProcess: fixtures.oneProcessEconomy } : {}),
      });
      return sectionResult(fleetRows(fleet), { fleet, timeScale: TIME_SCALE });
    } finally {
      await redis.stop();
      await database.drop();
    }
  },
};
