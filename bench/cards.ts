/**
 * The card databases' cost: RSS settled after load, and GC time per 1,000 cached interactions, in a
 * child process running the compiled bot (as `npm start` does); `/card show` latency against the
 * trivial command in-process. Run alone with `npm run bench -- --only cards`.
 */
import { CARD_LANGUAGES } from '../src/cards/card.js';
import { withBotChild } from './bot-child.js';
import type { MemorySample, StallReading } from './bot-shared.js';
import { CachedMix } from './cached-mix.js';
import { benchE2eLatency, E2E_SIZES } from './e2e-latency.js';
import type { BenchFixtures } from './fixtures.js';
import { sleep, type BenchUpstreams } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, median, seededRandom } from './stats.js';

/**
 * The layout the card databases had before they became compact (one English database of plain card
 * objects), measured on main at 18ab8b2 (`--only cards`, median of 3 runs; recorded in 9c64b16's BENCHMARKS.md);
 * the GC target is half of it.
 */
export const MAIN_LAYOUT = {
  gcMsPerThousand: 233,
  cardShowP50Ratio: 1.6,
  rssSettledBytes: 182e6,
  /** Measured later, alternating with the compact layout (e549577's BENCHMARKS.md): what load does not distort. */
  allocatedMBPerThousand: 158,
  cardShowCpuP50Ratio: 1.78,
} as const;

const CONCURRENCY = 16;
const USERS = 500;
const CALLBACK_TIMEOUT_MS = 10_000;

export interface CardMemoryOptions {
  /** Blocks of cached interactions; the GC figure is the median over the blocks. */
  blocks: number;
  interactionsPerBlock: number;
  /** V8 gives back what a load peak grew only after a few idle seconds (its memory reducer): memory is read after this long idle. */
  settleMs: number;
  /** Distinct cached items of the mix (see `CachedMix`). */
  variety?: number;
}

/** The section's workload at each size: `full` is what BENCHMARKS.md reports. */
const SIZES: Readonly<Record<BenchSize, { memory: CardMemoryOptions }>> = {
  full: { memory: { blocks: 3, interactionsPerBlock: 2_500, settleMs: 5_000 } },
  tiny: { memory: { blocks: 1, interactionsPerBlock: 20, settleMs: 0, variety: 1 } },
};

export interface CardMemoryResult {
  /** Card databases the bot had loaded (`en`, then the languages). */
  languages: string[];
  settled: MemorySample;
  settleMs: number;
  /** GC pause time per 1,000 cached interactions, one figure per block, and their median. */
  gcMsPerThousand: number[];
  gcMsPerThousandMedian: number;
  /**
   * Per 1,000 interactions, medians over the blocks of what load does not distort: scavenges and
   * other collections, MB allocated on the JS heap, and the bot's CPU time (all of it, GC included).
   */
  gcWork: { scavenges: number; majorGcs: number; allocatedMB: number; cpuMs: number };
  interactionsPerBlock: number;
  lost: number;
}

/**
 * Starts the bot on a copy of `dataDir`, lets it settle, reads its memory and warms its caches, then,
 * once `blocksAfter` has settled (another child's blocks: timed GC wants the cores to itself), times
 * GC over cached interactions.
 */
export async function benchCardMemory(
  upstreams: BenchUpstreams,
  dataDir: string,
  compiledScript: string,
  languages: string[],
  options: CardMemoryOptions = SIZES.full.memory,
  blocksAfter: Promise<unknown> = Promise.resolve(),
): Promise<CardMemoryResult> {
  const { blocks, interactionsPerBlock: perBlock } = options;
  const mix = new CachedMix(options.variety);
  return withBotChild(dataDir, { upstreamEnv: upstreams.env, compiledScript }, async (bot) => {
    await sleep(options.settleMs);
    const settled = await bot.measureMemory();
    await mix.warm(bot.discord);
    await blocksAfter.catch(() => undefined);
    const random = seededRandom(29);
    const gcMsPerThousand: number[] = [];
    const blockStalls: StallReading[] = [];
    let lost = 0;
    let sequence = 0;
    for (let block = 0; block < blocks; block++) {
      await bot.readStalls();
      const result = await mix.send(bot.discord, { first: sequence, count: perBlock }, random, {
        concurrency: CONCURRENCY,
        users: USERS,
        callbackTimeoutMs: CALLBACK_TIMEOUT_MS,
      });
      sequence += perBlock;
      lost += result.lost;
      const stalls = await bot.readStalls();
      blockStalls.push(stalls);
      gcMsPerThousand.push((stalls.gcPauseTotalMs * 1_000) / perBlock);
    }
    const perThousand = (value: (stalls: StallReading) => number) => median(blockStalls.map((stalls) => (value(stalls) * 1_000) / perBlock));
    const gcWork = {
      scavenges: perThousand((stalls) => stalls.scavenges),
      majorGcs: perThousand((stalls) => stalls.majorGcs),
      allocatedMB: perThousand((stalls) => stalls.allocatedBytes / 1e6),
      cpuMs: perThousand((stalls) => stalls.cpuMs),
    };
    return { languages, settled, settleMs: options.settleMs, gcMsPerThousand, gcMsPerThousandMedian: median(gcMsPerThousand), gcWork, interactionsPerBlock: perBlock, lost };
  });
}

export interface CardSectionResult {
  /** The English database alone (the fake YGOPRODeck refuses every language dump as too short). */
  english: CardMemoryResult;
  /** English and the four language databases, all loaded from their snapshots. */
  allLanguages: CardMemoryResult;
  /** `/card show` (cached card and art) against the trivial command, in-process, all five databases loaded. */
  cardShow: { p50Ms: number; trivialP50Ms: number; p50Ratio: number; cpuP50Ms: number; trivialCpuP50Ms: number; cpuP50Ratio: number; rounds: number };
}

/** The card section of `npm run bench`: memory and GC in child processes, then `/card show` latency in-process. */
export async function benchCardSection(size: BenchSize, fixtures: BenchFixtures): Promise<CardSectionResult> {
  const settings = SIZES[size];
  const { progress } = fixtures;
  const englishDir = await fixtures.snapshotDir('english');
  const allDir = await fixtures.snapshotDir('all');
  const compiledScript = await fixtures.compiledScript();
  // The two children start, settle and warm their caches side by side, each against its own fakes
  // (their memory is their own; warming waits on real upstream spacing); their GC blocks, which load
  // moves, run one child after the other.
  progress('cards: English database alone and all five databases side by side: memory settled, then GC per 1,000 cached interactions in turn');
  const [english, allLanguages] = await fixtures.withUpstreams((englishUpstreams) =>
    fixtures.withUpstreams(async (allUpstreams) => {
      // The fake refuses every language dump as too short, so the bot keeps English alone.
      englishUpstreams.ygoprodeck.languageDumpBody = Object.fromEntries(CARD_LANGUAGES.map((language) => [language, 'few']));
      const englishAlone = benchCardMemory(englishUpstreams, englishDir, compiledScript, ['en'], settings.memory);
      const all = benchCardMemory(allUpstreams, allDir, compiledScript, ['en', ...CARD_LANGUAGES], settings.memory, englishAlone);
      return Promise.all([englishAlone, all]);
    }),
  );

  // The e2e section's bot is this one (in process, five databases), its samples the same scenarios
  // interleaved: a run with both reads them there rather than taking them twice.
  let latency = fixtures.e2eLatency;
  if (latency === undefined) {
    progress('cards: /card show against the trivial command (in-process)');
    latency = await fixtures.withInProcessBot((bot) => benchE2eLatency(bot, E2E_SIZES[size]), 'all');
  }
  const show = latency.scenarios.find((scenario) => scenario.key === 'card-show-cached');
  if (show === undefined) throw new Error('cards: the end-to-end bench has no /card show scenario');
  return {
    english,
    allLanguages,
    cardShow: {
      p50Ms: show.p50Ms,
      trivialP50Ms: latency.trivial.p50Ms,
      p50Ratio: show.p50Ratio,
      cpuP50Ms: show.cpuP50Ms,
      trivialCpuP50Ms: latency.trivialCpuP50Ms,
      cpuP50Ratio: show.cpuP50Ratio,
      rounds: latency.rounds,
    },
  };
}

export function cardRows(cards: CardSectionResult): Row[] {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const memoryRow = (label: string, result: CardMemoryResult, targetBytes: number): Row => ({
    area: 'Cards',
    measure: `RSS settled after load, ${label} (after GC, ${result.settleMs / 1000} s idle)`,
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

export const cardSection: BenchSection = {
  name: 'cards',
  title: 'card databases: memory, GC and /card show',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const cards = await benchCardSection(size, fixtures);
    return sectionResult(cardRows(cards), { cards });
  },
};
