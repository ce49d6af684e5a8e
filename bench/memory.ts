/**
 * Memory: the bot's RSS and heap measured inside its own process after a full GC (so the bench's
 * allocations never count), over a soak of cached interactions that must not keep growing the heap,
 * and what each user never seen before costs. Run by the one-process section (one-process.ts).
 */
import type { BotChild } from './bot-child.js';
import type { MemorySample } from './bot-shared.js';
import { mixUser, type CachedMix } from './cached-mix.js';
import type { Row } from './section.js';
import { fixed, seededRandom } from './stats.js';

/** The process budget (#38), in decimal megabytes as stated (the stricter reading): settled with the five databases loaded. */
const RSS_SETTLED_TARGET_BYTES = 180e6;
/** Right after the workload replay, and at the end of the soak. */
const RSS_UNDER_LOAD_TARGET_BYTES = 240e6;

const SOAK_CONCURRENCY = 16;
/** Users of the soak: few enough that all of them have been seen long before the plateau is judged. */
const SOAK_USERS = 500;
const CALLBACK_TIMEOUT_MS = 10_000;

export interface SoakSample {
  interactions: number;
  memory: MemorySample;
}

export interface SoakResult {
  interactions: number;
  durationMs: number;
  lost: number;
  samples: SoakSample[];
  /** Heap after GC: growth over the second half of the soak, and over the whole of it. */
  secondHalfHeapGrowthBytes: number;
  heapGrowthBytes: number;
  /** The second half grew the heap by less than `plateauToleranceBytes`. */
  plateaued: boolean;
  plateauToleranceBytes: number;
}

export interface SoakOptions {
  interactions?: number;
  sampleEvery?: number;
  /** Largest heap growth over the soak's second half still called a plateau. */
  plateauToleranceBytes?: number;
}

export async function benchSoak(bot: BotChild, mix: CachedMix, options: SoakOptions = {}): Promise<SoakResult> {
  const interactions = options.interactions ?? 20_000;
  const sampleEvery = options.sampleEvery ?? 2_500;
  const tolerance = options.plateauToleranceBytes ?? 2e6;
  const random = seededRandom(13);
  const samples: SoakSample[] = [{ interactions: 0, memory: await bot.measureMemory() }];
  let done = 0;
  let lost = 0;
  const started = performance.now();
  while (done < interactions) {
    const batchEnd = Math.min(interactions, done + sampleEvery);
    const batch = await mix.send(bot.discord, { first: done, count: batchEnd - done }, random, {
      concurrency: SOAK_CONCURRENCY,
      users: SOAK_USERS,
      callbackTimeoutMs: CALLBACK_TIMEOUT_MS,
    });
    lost += batch.lost;
    done = batchEnd;
    samples.push({ interactions: done, memory: await bot.measureMemory() });
  }
  const durationMs = performance.now() - started;
  const heapAt = (index: number) => samples[index]!.memory.heapUsedBytes;
  const middle = samples.findIndex((sample) => sample.interactions >= interactions / 2);
  const secondHalfHeapGrowthBytes = heapAt(samples.length - 1) - heapAt(middle);
  return {
    interactions,
    durationMs,
    lost,
    samples,
    secondHalfHeapGrowthBytes,
    heapGrowthBytes: heapAt(samples.length - 1) - heapAt(0),
    plateaued: secondHalfHeapGrowthBytes < tolerance,
    plateauToleranceBytes: tolerance,
  };
}

export interface NewUserCost {
  users: number;
  heapGrowthBytes: number;
  bytesPerUser: number;
  /** Growth of discord.js's user and member caches: one entry each per new user means unbounded. */
  cachedUsersAdded: number;
  cachedMembersAdded: number;
}

/**
 * What each user never seen before costs the heap: discord.js keeps every user and guild member
 * an interaction brings in its caches (no limits are configured), so this grows with the audience.
 */
export async function benchNewUserCost(bot: BotChild, mix: CachedMix, users = 10_000): Promise<NewUserCost> {
  const random = seededRandom(17);
  const before = await bot.measureMemory();
  let next = 0;
  const worker = async () => {
    while (next < users) {
      const index = next++;
      const exchange = await mix.start(bot.discord, index, mixUser(1_000_000 + index), random);
      await exchange.callback(CALLBACK_TIMEOUT_MS);
    }
  };
  await Promise.all(Array.from({ length: SOAK_CONCURRENCY }, worker));
  const after = await bot.measureMemory();
  const heapGrowthBytes = after.heapUsedBytes - before.heapUsedBytes;
  return {
    users,
    heapGrowthBytes,
    bytesPerUser: heapGrowthBytes / users,
    cachedUsersAdded: after.cachedUsers - before.cachedUsers,
    cachedMembersAdded: after.cachedMembers - before.cachedMembers,
  };
}

/** The bot's memory at the points the one-process section reads it (after GC each time). */
export interface ProcessMemory {
  atReady: MemorySample;
  /** After `settleMs` without interactions. */
  atReadySettled: MemorySample;
  /** Right after the workload replay, and `settleMs` later. */
  afterWorkload: MemorySample;
  afterWorkloadSettled: MemorySample;
  settleMs: number;
  /** Commands in the workload replayed. */
  workloadCommands: number;
}

export function memoryRows(memory: ProcessMemory, soak: SoakResult, newUsers: NewUserCost): Row[] {
  const area = 'Memory';
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  // Each reading follows the bot's trim of glibc's heaps (bench/bot-process.ts): what it held before is kept beside.
  const beforeTrim = (sample: MemorySample) => `${mb(sample.rssBeforeTrimBytes)} before the trim`;
  const settleSeconds = memory.settleMs / 1000;
  const lastSoak = soak.samples[soak.samples.length - 1]!.memory;
  return [
    {
      area,
      measure: `RSS after loading the card database (after GC, ${settleSeconds} s idle)`,
      target: `≤ ${mb(RSS_SETTLED_TARGET_BYTES)}`,
      measured: mb(memory.atReadySettled.rssBytes),
      comparison: `heap used ${mb(memory.atReadySettled.heapUsedBytes)} of ${mb(memory.atReadySettled.heapTotalBytes)}; at the ready signal ${mb(memory.atReady.rssBytes)}`,
      pass: memory.atReadySettled.rssBytes <= RSS_SETTLED_TARGET_BYTES,
    },
    {
      area,
      measure: `RSS right after the ${memory.workloadCommands}-command workload (after GC)`,
      target: `≤ ${mb(RSS_UNDER_LOAD_TARGET_BYTES)}`,
      measured: mb(memory.afterWorkload.rssBytes),
      comparison: `heap used ${mb(memory.afterWorkload.heapUsedBytes)} of ${mb(memory.afterWorkload.heapTotalBytes)}; ${beforeTrim(memory.afterWorkload)}; ${fixed(memory.afterWorkload.rssBytes / memory.atReadySettled.rssBytes, 2)}× the RSS at ready`,
      pass: memory.afterWorkload.rssBytes <= RSS_UNDER_LOAD_TARGET_BYTES,
    },
    {
      area,
      measure: `RSS ${settleSeconds} s after the workload (after GC)`,
      target: '–',
      measured: mb(memory.afterWorkloadSettled.rssBytes),
      comparison: `heap used ${mb(memory.afterWorkloadSettled.heapUsedBytes)} of ${mb(memory.afterWorkloadSettled.heapTotalBytes)}`,
      pass: null,
    },
    {
      area,
      measure: `RSS at the end of the ${soak.interactions}-interaction soak (after GC)`,
      target: `≤ ${mb(RSS_UNDER_LOAD_TARGET_BYTES)}`,
      measured: mb(lastSoak.rssBytes),
      comparison: `heap used ${mb(lastSoak.heapUsedBytes)} of ${mb(lastSoak.heapTotalBytes)}; ${beforeTrim(lastSoak)}`,
      pass: lastSoak.rssBytes <= RSS_UNDER_LOAD_TARGET_BYTES,
    },
    {
      area,
      measure: `heap growth over a ${soak.interactions}-interaction soak (after GC)`,
      target: `plateau: < ${mb(soak.plateauToleranceBytes)} over the 2nd half`,
      measured: `${fixed(soak.heapGrowthBytes / 1e6, 1)} MB in all, ${fixed(soak.secondHalfHeapGrowthBytes / 1e6, 2)} MB in the 2nd half`,
      comparison: `${soak.lost} lost; ${fixed(soak.interactions / (soak.durationMs / 1000), 0)} interactions/s`,
      pass: soak.plateaued && soak.lost === 0,
    },
    {
      area,
      measure: 'heap per new distinct user (discord.js caches)',
      target: '–',
      measured: `${fixed(newUsers.bytesPerUser, 0)} B`,
      comparison: `${newUsers.users} new users: heap ${fixed(newUsers.heapGrowthBytes / 1e6, 1)} MB, +${newUsers.cachedUsersAdded} cached users, +${newUsers.cachedMembersAdded} cached members`,
      pass: null,
    },
  ];
}
