/**
 * The card databases' cost: RSS settled after load, and GC time per 1,000 cached interactions, in a
 * child process running the compiled bot (as `npm start` does); `/card show` latency against the
 * trivial command in-process. Run alone with `npm run bench -- --only cards`.
 */
import { CARD_LANGUAGES } from '../src/cards/card.js';
import { startBotChild } from './bot-child.js';
import type { MemorySample, StallReading } from './bot-shared.js';
import { sendCachedInteractions, warmCachedMix } from './cached-mix.js';
import { benchE2eLatency, startInProcessBot } from './e2e-latency.js';
import { copyDataDir, prepareSnapshotDir, removeDir, sleep, startBenchUpstreams, type BenchUpstreams } from './harness.js';
import { median, seededRandom } from './stats.js';

/**
 * The layout the card databases had before they became compact (one English database of plain card
 * objects), measured on main at 18ab8b2 (`--only cards`, median of 3 runs) and recorded in BENCHMARKS.md;
 * the GC target is half of it.
 */
export const MAIN_LAYOUT = {
  gcMsPerThousand: 233,
  cardShowP50Ratio: 1.6,
  rssSettledBytes: 182e6,
  /** Measured later, alternating with the compact layout (BENCHMARKS.md, branch card-perf): what load does not distort. */
  allocatedMBPerThousand: 158,
  cardShowCpuP50Ratio: 1.78,
} as const;

const CONCURRENCY = 16;
const USERS = 500;
const CALLBACK_TIMEOUT_MS = 10_000;
/** V8 gives back what a load peak grew only after a few idle seconds (its memory reducer). */
const SETTLE_MS = 5_000;

export interface CardMemoryOptions {
  /** Blocks of cached interactions; the GC figure is the median over the blocks. */
  blocks?: number;
  interactionsPerBlock?: number;
}

export interface CardMemoryResult {
  /** Card databases the bot had loaded (`en`, then the languages). */
  languages: string[];
  settled: MemorySample;
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

/** Starts the bot on a copy of `dataDir`, lets it settle, reads its memory, then times GC over cached interactions. */
export async function benchCardMemory(
  upstreams: BenchUpstreams,
  dataDir: string,
  compiledScript: string,
  languages: string[],
  options: CardMemoryOptions = {},
): Promise<CardMemoryResult> {
  const blocks = options.blocks ?? 3;
  const perBlock = options.interactionsPerBlock ?? 5_000;
  const sessionDir = await copyDataDir(dataDir);
  const bot = await startBotChild({ upstreamEnv: upstreams.env, dataDir: sessionDir, compiledScript });
  try {
    await sleep(SETTLE_MS);
    const settled = await bot.measureMemory();
    await warmCachedMix(bot.discord);
    const random = seededRandom(29);
    const gcMsPerThousand: number[] = [];
    const blockStalls: StallReading[] = [];
    let lost = 0;
    let sequence = 0;
    for (let block = 0; block < blocks; block++) {
      await bot.readStalls();
      const result = await sendCachedInteractions(bot.discord, { first: sequence, count: perBlock }, random, {
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
    return { languages, settled, gcMsPerThousand, gcMsPerThousandMedian: median(gcMsPerThousand), gcWork, interactionsPerBlock: perBlock, lost };
  } finally {
    await bot.stop();
    await removeDir(sessionDir);
  }
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
export async function benchCardSection(compiledScript: string, progress: (message: string) => void): Promise<CardSectionResult> {
  const upstreams = await startBenchUpstreams();
  const dirs: string[] = [];
  try {
    progress('cards: snapshots of English alone and of all five databases, written by the bot from the fake YGOPRODeck');
    const englishDir = await prepareSnapshotDir(upstreams.ygoprodeck.url);
    dirs.push(englishDir);
    const allDir = await prepareSnapshotDir(upstreams.ygoprodeck.url, { languages: true });
    dirs.push(allDir);

    progress('cards: English database alone, memory settled and GC per 1,000 cached interactions');
    upstreams.ygoprodeck.languageDumpBody = Object.fromEntries(CARD_LANGUAGES.map((language) => [language, 'few']));
    const english = await benchCardMemory(upstreams, englishDir, compiledScript, ['en']);
    upstreams.ygoprodeck.languageDumpBody = {};
    progress('cards: all five databases, memory settled and GC per 1,000 cached interactions');
    const allLanguages = await benchCardMemory(upstreams, allDir, compiledScript, ['en', ...CARD_LANGUAGES]);

    progress('cards: /card show against the trivial command (in-process)');
    const inProcess = await startInProcessBot(upstreams, allDir);
    let latency;
    try {
      latency = await benchE2eLatency(inProcess.bot, { rounds: 150 });
    } finally {
      await inProcess.stop();
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
  } finally {
    await upstreams.close();
    await Promise.all(dirs.map((dir) => removeDir(dir)));
  }
}
