/**
 * Start-up: from process start to ready, with a card database snapshot in DATA_DIR and without one
 * (the database is then downloaded from the fake YGOPRODeck serving the whole real dump). Each
 * start is a fresh child process running the compiled bot, as `npm start` does; the median of a few
 * starts is reported, plus one start under tsx for comparison.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORED_TABLES_DIR } from '../src/services/off-thread/stored-tables.js';
import { startBotChild } from './bot-child.js';
import type { StartupTimings } from './bot-shared.js';
import type { BenchFixtures } from './fixtures.js';
import { copyDataDir, removeDir, type BenchUpstreams } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, median } from './stats.js';

/** The longest start with a snapshot that meets the target. */
const READY_WITH_SNAPSHOT_TARGET_MS = 3_000;

export interface StartupRun extends StartupTimings {
  /** Ready to answer every command: logged in and the card database loaded. */
  fullyReadyMs: number;
  spawnToReadyMs: number;
}

export interface StartupResult {
  /** Restarts: the snapshots and the matcher tables the previous start kept. */
  withSnapshot: StartupRun[];
  /** The first start after a new database version: the snapshots, the matcher tables built again. */
  tablesBuilt: StartupRun[];
  withoutSnapshot: StartupRun[];
  /** Medians of `fullyReadyMs`. */
  withSnapshotMedianMs: number;
  tablesBuiltMedianMs: number;
  withoutSnapshotMedianMs: number;
  /** Median time until the bot answers interactions without a snapshot (card lookups go upstream until the download lands). */
  withoutSnapshotDiscordReadyMedianMs: number;
  modulesLoadedMedianMs: number;
  /** One start with a snapshot running the TypeScript under tsx (as `npm run dev` does); null when not asked for. */
  underTsx: StartupRun | null;
}

export interface StartupOptions {
  withSnapshotRuns?: number;
  tablesBuiltRuns?: number;
  withoutSnapshotRuns?: number;
  underTsx?: boolean;
}

const FULL = { withSnapshotRuns: 3, tablesBuiltRuns: 1, withoutSnapshotRuns: 2, underTsx: true } as const;
/** The section's workload at each size: `full` is what BENCHMARKS.md reports. */
const SIZES: Readonly<Record<BenchSize, StartupOptions>> = {
  full: FULL,
  // No start without a snapshot: the bot (production settings) refuses a tiny run's few hundred cards
  // as a truncated download. No start under tsx: it compiles every module first, seconds for nothing.
  tiny: { withSnapshotRuns: 1, tablesBuiltRuns: 1, withoutSnapshotRuns: 0, underTsx: false },
};

export async function benchStartup(upstreams: BenchUpstreams, snapshotDir: string, compiledScript: string, options: StartupOptions = {}): Promise<StartupResult> {
  const withSnapshot: StartupRun[] = [];
  const tablesBuilt: StartupRun[] = [];
  const withoutSnapshot: StartupRun[] = [];
  for (let run = 0; run < (options.withSnapshotRuns ?? FULL.withSnapshotRuns); run++) {
    withSnapshot.push(await startOnce(upstreams, await copyDataDir(snapshotDir), compiledScript));
  }
  for (let run = 0; run < (options.tablesBuiltRuns ?? FULL.tablesBuiltRuns); run++) {
    const dataDir = await copyDataDir(snapshotDir);
    await removeDir(join(dataDir, STORED_TABLES_DIR));
    tablesBuilt.push(await startOnce(upstreams, dataDir, compiledScript));
  }
  for (let run = 0; run < (options.withoutSnapshotRuns ?? FULL.withoutSnapshotRuns); run++) {
    withoutSnapshot.push(await startOnce(upstreams, await mkdtemp(join(tmpdir(), 'almanac-bench-empty-')), compiledScript));
  }
  const underTsx = (options.underTsx ?? FULL.underTsx) ? await startOnce(upstreams, await copyDataDir(snapshotDir), undefined) : null;
  return {
    withSnapshot,
    tablesBuilt,
    withoutSnapshot,
    underTsx,
    withSnapshotMedianMs: median(withSnapshot.map((run) => run.fullyReadyMs)),
    tablesBuiltMedianMs: median(tablesBuilt.map((run) => run.fullyReadyMs)),
    withoutSnapshotMedianMs: median(withoutSnapshot.map((run) => run.fullyReadyMs)),
    withoutSnapshotDiscordReadyMedianMs: median(withoutSnapshot.map((run) => run.discordReadyMs)),
    modulesLoadedMedianMs: median([...withSnapshot, ...withoutSnapshot].map((run) => run.modulesLoadedMs)),
  };
}

async function startOnce(upstreams: BenchUpstreams, dataDir: string, compiledScript: string | undefined): Promise<StartupRun> {
  try {
    const bot = await startBotChild({ upstreamEnv: upstreams.env, dataDir, ...(compiledScript === undefined ? {} : { compiledScript }) });
    await bot.stop();
    const { timings } = bot;
    if (timings.cardsReadyMs === null) throw new Error('start-up: the card database never loaded');
    return { ...timings, fullyReadyMs: Math.max(timings.discordReadyMs, timings.cardsReadyMs), spawnToReadyMs: bot.spawnToReadyMs };
  } finally {
    await removeDir(dataDir);
  }
}

export function startupRows(startup: StartupResult): Row[] {
  return [
    {
      area: 'Start-up',
      measure: 'process start → ready, with the snapshots of all five languages, a restart (median)',
      target: `≤ ${READY_WITH_SNAPSHOT_TARGET_MS / 1000} s`,
      measured: `${fixed(startup.withSnapshotMedianMs / 1000, 2)} s`,
      comparison: `modules loaded at ${fixed(startup.modulesLoadedMedianMs / 1000, 2)} s; first start after a new database version (matcher built, not read) ${fixed(startup.tablesBuiltMedianMs / 1000, 2)} s; under tsx ${fixed((startup.underTsx?.fullyReadyMs ?? Number.NaN) / 1000, 2)} s`,
      pass: startup.withSnapshotMedianMs <= READY_WITH_SNAPSHOT_TARGET_MS,
    },
    {
      area: 'Start-up',
      measure: 'process start → ready (English downloaded and matched), without snapshots (median)',
      target: '–',
      measured: `${fixed(startup.withoutSnapshotMedianMs / 1000, 2)} s`,
      comparison: `${fixed(startup.withoutSnapshotMedianMs / startup.withSnapshotMedianMs, 2)}× with a snapshot; answering (upstream lookups) from ${fixed(startup.withoutSnapshotDiscordReadyMedianMs / 1000, 2)} s`,
      pass: null,
    },
  ];
}

export const startupSection: BenchSection = {
  name: 'startup',
  title: 'start-up with and without a snapshot (fresh child processes)',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const snapshotDir = await fixtures.snapshotDir();
    const compiledScript = await fixtures.compiledScript();
    const startup = await fixtures.withUpstreams((upstreams) => benchStartup(upstreams, snapshotDir, compiledScript, SIZES[size]));
    return sectionResult(startupRows(startup), { startup });
  },
};
