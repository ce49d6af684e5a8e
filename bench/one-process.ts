/**
 * The bot alone in its own process (the compiled bot, as `npm start` runs it), its limiters and
 * member shares and the fake upstreams' windows time-compressed alike: memory at ready, the
 * workload replay (economy.ts), memory after it, throughput, the soak and the cost of new users,
 * in that order on one process, so that each memory figure is read after what it says it follows.
 * The replay is kept as the fleet section's one-process baseline.
 */
import { withBotChild } from './bot-child.js';
import type { MemorySample } from './bot-shared.js';
import { CachedMix } from './cached-mix.js';
import { benchEconomy, economyRows, type EconomyResult } from './economy.js';
import type { BenchFixtures } from './fixtures.js';
import { sleep } from './harness.js';
import { benchNewUserCost, benchSoak, memoryRows, type NewUserCost, type ProcessMemory, type SoakOptions, type SoakResult } from './memory.js';
import { sectionResult, type BenchSection, type BenchSize } from './section.js';
import { benchThroughput, throughputRows, THROUGHPUT_SIZES, type ThroughputOptions, type ThroughputResult } from './throughput.js';

/** Limiter spacings and upstream windows are divided by this in the replay (see economy.ts). */
export const TIME_SCALE = 10;

interface OneProcessSize {
  /**
   * V8 gives back the heap it grew under load only once the process has been idle a few seconds
   * (its memory reducer), so memory is read both at once and after this long without interactions.
   */
  settleMs: number;
  throughput: ThroughputOptions;
  soak: SoakOptions;
  newUsers: number;
  /** Distinct cached items of the mix (see `CachedMix`). */
  variety?: number;
}

/**
 * The section's workload at each size: `full` is what BENCHMARKS.md reports. The soak was 50,000
 * interactions until cf3c521's run showed RSS 320-337 MB and the heap 130-131 MB at every sample
 * from 5,000 to 50,000: 20,000 reads the same plateau in 30 s less.
 */
const SIZES: Readonly<Record<BenchSize, OneProcessSize>> = {
  full: { settleMs: 5_000, throughput: THROUGHPUT_SIZES.full, soak: { interactions: 20_000, sampleEvery: 2_500 }, newUsers: 10_000 },
  tiny: { settleMs: 0, throughput: THROUGHPUT_SIZES.tiny, soak: { interactions: 60, sampleEvery: 30 }, newUsers: 20, variety: 1 },
};

export interface OneProcessResult {
  economy: EconomyResult;
  throughput: ThroughputResult;
  memory: ProcessMemory & { soak: SoakResult; newUsers: NewUserCost };
  timeScale: number;
}

export async function benchOneProcess(size: BenchSize, fixtures: BenchFixtures): Promise<OneProcessResult> {
  const settings = SIZES[size];
  const { progress } = fixtures;
  const snapshotDir = await fixtures.snapshotDir();
  const compiledScript = await fixtures.compiledScript();
  const workload = fixtures.workload();
  const mix = new CachedMix(settings.variety);
  const child = { timeScale: TIME_SCALE, compiledScript };
  return fixtures.withUpstreams(
    (upstreams) =>
      withBotChild(snapshotDir, { ...child, upstreamEnv: upstreams.env }, async (bot) => {
        const settled = async (): Promise<MemorySample> => {
          await sleep(settings.settleMs);
          return bot.measureMemory();
        };
        const atReadySettled = await settled();
        progress(`economy: replaying ${workload.commands} commands`);
        const economy = await benchEconomy(bot, upstreams, workload, TIME_SCALE);
        const afterWorkloadSettled = await settled();
        progress('throughput: cached interactions at rising rates');
        await mix.warm(bot.discord);
        const throughput = await benchThroughput(bot, mix, settings.throughput);
        progress(`soak: ${settings.soak.interactions} cached interactions`);
        const soak = await benchSoak(bot, mix, settings.soak);
        const newUsers = await benchNewUserCost(bot, mix, settings.newUsers);
        const memory = {
          atReady: bot.memoryAtReady,
          atReadySettled,
          afterWorkload: economy.memoryAfter,
          afterWorkloadSettled,
          settleMs: settings.settleMs,
          workloadCommands: economy.commands,
        };
        return { economy, throughput, memory: { ...memory, soak, newUsers }, timeScale: TIME_SCALE };
      }),
    TIME_SCALE,
  );
}

export const oneProcessSection: BenchSection = {
  name: 'process',
  title: `bot in its own process, upstreams time-compressed ×${TIME_SCALE}: replay economy, memory, throughput, soak`,
  assertions: true,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const result = await benchOneProcess(size, fixtures);
    fixtures.oneProcessEconomy = result.economy;
    const { memory } = result;
    return sectionResult([...throughputRows(result.throughput), ...economyRows(result.economy), ...memoryRows(memory, memory.soak, memory.newUsers)], { ...result });
  },
};
