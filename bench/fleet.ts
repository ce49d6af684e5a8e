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
import type { RecordedRequest } from '../test/fakes/fake-server.js';
import { shardOf, type FakeDiscord } from '../test/fakes/discord.js';
import { startBenchDiscord, startBotChild, type BotChild } from './bot-child.js';
import { mixUser, startCachedInteraction, warmCachedMix } from './cached-mix.js';
import { benchEconomy, REPLAY_CONCURRENCY, replay, upstreamMarks, upstreamTraffic, type EconomyResult, type UpstreamTraffic } from './economy.js';
import { copyDataDir, removeDir, settle, sleep, startBenchUpstreams, timeCallback, type BenchUpstreams } from './harness.js';
import { seededRandom, summarize, type LatencySummary } from './stats.js';
import { spreadOverGuilds, type Workload } from './workload.js';

/** Guilds per shard in the fleet's fake Discord: enough that each process serves several. */
const GUILDS_PER_SHARD = 3;
const CACHED_COST_ROUNDS = 400;
const CACHED_COST_WARMUP_ROUNDS = 40;
/** Give up measuring the recovery after this long (reported as not recovered). */
const RECOVERY_LIMIT_MS = 60_000;
const RECOVERY_PROBE_SPACING_MS = 100;
const ANSWER_TIMEOUT_MS = 60_000;

/** The fleet's Redis, which the section restarts (empty, same address) to time the recovery. */
export interface FleetRedis {
  url: string;
  restart(): Promise<void>;
}

export interface FleetOptions {
  processes: number;
  workload: Workload;
  timeScale: number;
  snapshotDir: string;
  compiledScript: string;
  redis: FleetRedis;
  /** The one-process replay of the same workload at the same scale; replayed here when absent. */
  oneProcess?: EconomyResult;
  progress(message: string): void;
}

export interface FleetResult {
  processes: number;
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
  const soloUpstreams = await startBenchUpstreams(timeScale);
  const soloDir = await copyDataDir(options.snapshotDir);
  const solo = await startBotChild(childOptions(options, soloUpstreams, soloDir));
  const upstreams = await startBenchUpstreams(timeScale);
  const discord = await startBenchDiscord({ guilds: processes * GUILDS_PER_SHARD, shardCount: processes, maxConcurrency: processes });
  const dataDirs: string[] = [];
  const bots: BotChild[] = [];
  try {
    let oneProcess = options.oneProcess;
    if (!oneProcess) {
      progress(`fleet: one-process baseline, replaying ${options.workload.commands} commands`);
      oneProcess = await benchEconomy(solo, soloUpstreams, options.workload, timeScale);
    }

    progress(`fleet: starting ${processes} bot processes (one shard each) on one Redis`);
    for (let shard = 0; shard < processes; shard++) {
      const dataDir = await copyDataDir(options.snapshotDir);
      dataDirs.push(dataDir);
      const env = { SHARD_COUNT: String(processes), SHARD_IDS: String(shard), REDIS_URL: options.redis.url };
      bots.push(await startBotChild({ ...childOptions(options, upstreams, dataDir), discord, env }));
    }

    progress(`fleet: replaying ${options.workload.commands} commands over ${discord.guilds.length} guilds`);
    const start = upstreamMarks(upstreams);
    const before = await fleetOutcomes(bots);
    const actions = spreadOverGuilds(options.workload.actions, discord.guilds.map((guild) => guild.id));
    const started = performance.now();
    // As many users at once per process as the one-process replay has in all.
    const unanswered = await replay(discord, actions, REPLAY_CONCURRENCY * processes);
    const replayMs = performance.now() - started;
    const after = await fleetOutcomes(bots);
    const fleet = upstreamTraffic(upstreams, start, options.workload.commands, timeScale);

    progress('fleet: cost of Redis per cached command');
    const cachedCost = await benchCachedCost(discord, solo.discord);

    progress('fleet: Redis restart, time until sharing works again');
    const recovery = await benchRecovery(discord, upstreams, options.redis, processes);

    return {
      processes,
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
    for (const bot of bots) await bot.stop();
    await solo.stop();
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
async function benchCachedCost(fleet: FakeDiscord, solo: FakeDiscord): Promise<FleetResult['cachedCost']> {
  await warmCachedMix(fleet);
  await warmCachedMix(solo);
  const samples = { fleet: [] as number[], solo: [] as number[] };
  const randoms = { fleet: seededRandom(11), solo: seededRandom(11) };
  for (let round = 0; round < CACHED_COST_WARMUP_ROUNDS + CACHED_COST_ROUNDS; round++) {
    const order = round % 2 === 0 ? (['fleet', 'solo'] as const) : (['solo', 'fleet'] as const);
    for (const side of order) {
      const discord = side === 'fleet' ? fleet : solo;
      const timed = await timeCallback(startCachedInteraction(discord, round, mixUser(round % 50), randoms[side]));
      if (round >= CACHED_COST_WARMUP_ROUNDS) samples[side].push(timed.latencyMs);
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
