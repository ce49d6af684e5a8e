/**
 * End-to-end latency: INTERACTION_CREATE dispatched by the fake Discord → the bot's acknowledgement
 * arriving back at it, through the real discord.js client and the fake upstreams on loopback. Every
 * scenario runs interleaved with a trivial command (one sample of each per round, in a shuffled
 * order), so each ratio compares samples taken under the same conditions.
 *
 * This part runs the bot in the bench's own process (`startTestBot`, production limiter settings);
 * only ratios between scenarios are meaningful here, since the fake Discord shares the event loop.
 */
import { InteractionResponseType } from 'discord.js';
import type { InteractionCallback } from '../test/fakes/discord.js';
import type { TestBot } from '../test/helpers/bot.js';
import { CACHED_ADDRESSES, CACHED_CARDS, CACHED_WALLPAPERS, TYPED_QUERIES } from './cached-mix.js';
import { TRIVIAL_COMMAND } from './bot-shared.js';
import { answerOf, settle, sleep, timeCallback, type TimedCallback } from './harness.js';
import type { BenchSize, Row } from './row.js';
import { fixed, median, seededRandom, shuffled, summarize, type LatencySummary } from './stats.js';

/** Few: warming each costs a request at Wallhaven's real 1.4 s spacing. */
const E2E_WALLPAPERS = 3;
/** GeoJS's limiter spaces request starts 100 ms apart; uncached samples are spaced wider so none waits in its queue. */
const UNCACHED_SPACING_MS = 110;
/**
 * An uncached sample is taken every this many rounds: the spacing above, not the bot, set the
 * section's length (250 × 110 ms of its 36 s), and the uncached row has no target.
 */
const UNCACHED_EVERY_ROUNDS = 2;
/** The most a cached scenario's p50 may be over the trivial command's. */
const CACHED_LATENCY_RATIO_TARGET = 1.3;

export interface E2eLatencyOptions {
  rounds?: number;
  warmupRounds?: number;
  /** Distinct cached items each scenario rotates through (all by default; see `CachedMix`). */
  variety?: number;
}

const FULL = { rounds: 250, warmupRounds: 30 } as const;
/** The section's workload at each size: `full` is what BENCHMARKS.md reports. */
export const E2E_SIZES: Readonly<Record<BenchSize, E2eLatencyOptions>> = {
  full: FULL,
  tiny: { rounds: 3, warmupRounds: 1, variety: 1 },
};

export interface ScenarioLatency extends LatencySummary {
  key: string;
  label: string;
  cached: boolean;
  /** p50 and p99 over the trivial command's p50 and p99 in the same run. */
  p50Ratio: number;
  p99Ratio: number;
  /**
   * Median CPU time of this process (bot and fake Discord together) from dispatch to the answer,
   * and its ratio to the trivial command's: unlike wall time, not stretched while other processes
   * hold the cores.
   */
  cpuP50Ms: number;
  cpuP50Ratio: number;
  /** Samples the bot deferred (slower than 250 ms: load on the machine), timed to the deferral. */
  deferred: number;
}

export interface E2eLatencyResult {
  rounds: number;
  trivial: LatencySummary;
  trivialCpuP50Ms: number;
  trivialDeferred: number;
  scenarios: ScenarioLatency[];
}

interface Scenario {
  key: string;
  label: string;
  cached: boolean;
  run(bot: TestBot, sample: number): Promise<TimedCallback>;
  /** Throws when the answer (see `answerOf`) is not the one the scenario is about (an error reply would be timed otherwise). */
  check(answer: InteractionCallback): void;
}

function expectMessage(callback: InteractionCallback, what: string, holds: (callback: InteractionCallback) => boolean): void {
  if (callback.type !== InteractionResponseType.ChannelMessageWithSource || !holds(callback)) {
    throw new Error(`${what}: unexpected answer ${JSON.stringify({ type: callback.type, content: callback.data?.content })}`);
  }
}

const TRIVIAL: Scenario = {
  key: 'trivial',
  label: 'trivial command (constant reply)',
  cached: true,
  run: (bot) => timeCallback(bot.discord.chatInput({ name: TRIVIAL_COMMAND.data.name })),
  check: (callback) => expectMessage(callback, 'trivial', (c) => c.data?.content === 'pong'),
};

/** The scenarios, each rotating through its first `variety` cached items. */
function scenarios(variety: number): Scenario[] {
  const cards = CACHED_CARDS.slice(0, variety);
  const addresses = CACHED_ADDRESSES.slice(0, variety);
  const wallpapers = CACHED_WALLPAPERS.slice(0, Math.min(E2E_WALLPAPERS, variety));
  return [
    {
      key: 'card-show-cached',
      label: '/card show (cached card and art)',
      cached: true,
      run: (bot, sample) =>
        timeCallback(bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(cards[sample % cards.length]) } })),
      check: (callback) => expectMessage(callback, '/card show', (c) => (c.data?.embeds?.length ?? 0) === 1 && c.files.length === 1),
    },
    {
      key: 'card-autocomplete',
      label: '/card show autocomplete (typed queries)',
      cached: true,
      run: (bot, sample) =>
        timeCallback(
          bot.discord.autocomplete({
            name: 'card',
            subcommand: 'show',
            options: { name: TYPED_QUERIES[sample % TYPED_QUERIES.length]! },
            focused: 'name',
          }),
        ),
      check: (callback) => {
        if (callback.type !== InteractionResponseType.ApplicationCommandAutocompleteResult || (callback.data?.choices?.length ?? 0) === 0) {
          throw new Error(`autocomplete: unexpected answer of type ${callback.type}`);
        }
      },
    },
    {
      key: 'ip-lookup-cached',
      label: '/ip lookup (cached)',
      cached: true,
      run: (bot, sample) =>
        timeCallback(bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: addresses[sample % addresses.length]! } })),
      check: (callback) => expectMessage(callback, '/ip lookup', (c) => (c.data?.embeds?.length ?? 0) === 1),
    },
    {
      key: 'ip-lookup-uncached',
      label: '/ip lookup (uncached: one GeoJS request)',
      cached: false,
      // 11.0.0.0/8 is ordinary public space; each sample asks an address never asked before.
      run: (bot, sample) =>
        timeCallback(bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: `11.${(sample >> 8) & 255}.${sample & 255}.7` } })),
      check: (callback) => expectMessage(callback, '/ip lookup uncached', (c) => (c.data?.embeds?.length ?? 0) === 1),
    },
    {
      key: 'wallpaper-show-cached',
      label: '/wallpaper show (cached)',
      cached: true,
      run: (bot, sample) =>
        timeCallback(bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: wallpapers[sample % wallpapers.length]! } })),
      check: (callback) => expectMessage(callback, '/wallpaper show', (c) => (c.data?.embeds?.length ?? 0) >= 1),
    },
  ];
}

export async function benchE2eLatency(bot: TestBot, options: E2eLatencyOptions = {}): Promise<E2eLatencyResult> {
  const rounds = options.rounds ?? FULL.rounds;
  const warmupRounds = options.warmupRounds ?? FULL.warmupRounds;
  const variety = options.variety ?? Number.POSITIVE_INFINITY;
  const random = seededRandom(7);
  const measured = scenarios(variety);
  // Enough samples to warm every item a cached scenario rotates through.
  const warmingSamples = Math.min(variety, Math.max(CACHED_CARDS.length, CACHED_ADDRESSES.length, E2E_WALLPAPERS));

  const cachedScenarios = [TRIVIAL, ...measured.filter((candidate) => candidate.cached)];
  // Fill the caches (card art, GeoJS records, Wallhaven details); a first fetch may be deferred.
  for (const scenario of cachedScenarios) {
    for (let sample = 0; sample < warmingSamples; sample++) {
      const { exchange, callback } = await scenario.run(bot, sample);
      if (callback.type === InteractionResponseType.DeferredChannelMessageWithSource) await exchange.final(30_000);
    }
  }
  // Now every cached answer must be the right one.
  for (const scenario of cachedScenarios) {
    for (let sample = 0; sample < warmingSamples; sample++) scenario.check((await answerOf(await scenario.run(bot, sample))).answer);
  }
  // Warm the JIT on every path before anything is recorded.
  for (let round = 0; round < warmupRounds; round++) {
    for (const scenario of cachedScenarios) {
      await scenario.run(bot, round);
      await settle();
    }
  }

  const samples = new Map<string, number[]>([TRIVIAL, ...measured].map((scenario) => [scenario.key, []]));
  const cpuSamples = new Map<string, number[]>([TRIVIAL, ...measured].map((scenario) => [scenario.key, []]));
  const deferred = new Map<string, number>();
  let lastUncachedAt = -Infinity;
  for (let round = 0; round < rounds; round++) {
    const taken = [TRIVIAL, ...measured].filter((scenario) => scenario.cached || round % UNCACHED_EVERY_ROUNDS === 0);
    for (const scenario of shuffled(taken, random)) {
      if (!scenario.cached) {
        const wait = lastUncachedAt + UNCACHED_SPACING_MS - performance.now();
        if (wait > 0) await sleep(wait);
        lastUncachedAt = performance.now();
      }
      const cpuBefore = process.cpuUsage();
      const timed = await scenario.run(bot, round);
      const cpu = process.cpuUsage(cpuBefore);
      const answer = await answerOf(timed);
      scenario.check(answer.answer);
      if (answer.deferred) deferred.set(scenario.key, (deferred.get(scenario.key) ?? 0) + 1);
      samples.get(scenario.key)!.push(timed.latencyMs);
      cpuSamples.get(scenario.key)!.push((cpu.user + cpu.system) / 1e3);
      await settle();
    }
  }

  const trivial = summarize(samples.get(TRIVIAL.key)!);
  const trivialCpuP50Ms = median(cpuSamples.get(TRIVIAL.key)!);
  return {
    rounds,
    trivial,
    trivialCpuP50Ms,
    trivialDeferred: deferred.get(TRIVIAL.key) ?? 0,
    scenarios: measured.map((scenario) => {
      const summary = summarize(samples.get(scenario.key)!);
      const cpuP50Ms = median(cpuSamples.get(scenario.key)!);
      return {
        key: scenario.key,
        label: scenario.label,
        cached: scenario.cached,
        ...summary,
        p50Ratio: summary.p50Ms / trivial.p50Ms,
        p99Ratio: summary.p99Ms / trivial.p99Ms,
        cpuP50Ms,
        cpuP50Ratio: cpuP50Ms / trivialCpuP50Ms,
        deferred: deferred.get(scenario.key) ?? 0,
      };
    }),
  };
}

/** The section's rows: the trivial command, then each scenario against it. */
export function e2eLatencyRows(e2e: E2eLatencyResult): Row[] {
  const times = (value: number) => `${fixed(value, 2)}×`;
  const deferrals = (count: number) => (count === 0 ? '' : `; ${count} deferred (timed to the deferral)`);
  return [
    {
      area: 'End to end',
      measure: 'trivial command (baseline), p50 / p99',
      target: '–',
      measured: `${fixed(e2e.trivial.p50Ms, 2)} / ${fixed(e2e.trivial.p99Ms, 2)} ms`,
      comparison: `${e2e.rounds} interleaved samples of it and of each cached scenario${deferrals(e2e.trivialDeferred)}`,
      pass: null,
    },
    ...e2e.scenarios.map((scenario) => ({
      area: 'End to end',
      measure: `${scenario.label}, p50 / p99`,
      target: scenario.cached ? `p50 ≤ ${CACHED_LATENCY_RATIO_TARGET}× trivial` : '–',
      measured: `${fixed(scenario.p50Ms, 2)} / ${fixed(scenario.p99Ms, 2)} ms`,
      comparison: `${times(scenario.p50Ratio)} / ${times(scenario.p99Ratio)} trivial${scenario.cached ? '' : `; ${scenario.count} samples, ${UNCACHED_SPACING_MS} ms apart`}${deferrals(scenario.deferred)}`,
      pass: scenario.cached ? scenario.p50Ratio <= CACHED_LATENCY_RATIO_TARGET : null,
    })),
  ];
}
