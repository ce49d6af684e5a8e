/**
 * Memory: the bot's RSS and heap measured inside its own process after a full GC (so the bench's
 * allocations never count), over a soak of cached interactions that must not keep growing the heap.
 */
import type { BotChild } from './bot-child.js';
import type { MemorySample } from './bot-shared.js';
import { mixUser, sendCachedInteractions, startCachedInteraction } from './cached-mix.js';
import { seededRandom } from './stats.js';

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

export async function benchSoak(bot: BotChild, options: SoakOptions = {}): Promise<SoakResult> {
  const interactions = options.interactions ?? 50_000;
  const sampleEvery = options.sampleEvery ?? 5_000;
  const tolerance = options.plateauToleranceBytes ?? 2e6;
  const random = seededRandom(13);
  const samples: SoakSample[] = [{ interactions: 0, memory: await bot.measureMemory() }];
  let done = 0;
  let lost = 0;
  const started = performance.now();
  while (done < interactions) {
    const batchEnd = Math.min(interactions, done + sampleEvery);
    const batch = await sendCachedInteractions(bot.discord, { first: done, count: batchEnd - done }, random, {
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
export async function benchNewUserCost(bot: BotChild, users = 10_000): Promise<NewUserCost> {
  const random = seededRandom(17);
  const before = await bot.measureMemory();
  let next = 0;
  const worker = async () => {
    while (next < users) {
      const index = next++;
      const exchange = await startCachedInteraction(bot.discord, index, mixUser(1_000_000 + index), random);
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
