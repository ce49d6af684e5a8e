/**
 * Start-up: from process start to ready, with a card database snapshot in DATA_DIR and without one
 * (the database is then downloaded from the fake YGOPRODeck serving the whole real dump). Each
 * start is a fresh child process running the compiled bot, as `npm start` does; the median of a few
 * starts is reported, plus one start under tsx for comparison.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBotChild } from './bot-child.js';
import type { StartupTimings } from './bot-shared.js';
import { copyDataDir, removeDir, type BenchUpstreams } from './harness.js';
import { median } from './stats.js';

export interface StartupRun extends StartupTimings {
  /** Ready to answer every command: logged in and the card database loaded. */
  fullyReadyMs: number;
  spawnToReadyMs: number;
}

export interface StartupResult {
  withSnapshot: StartupRun[];
  withoutSnapshot: StartupRun[];
  /** Medians of `fullyReadyMs`. */
  withSnapshotMedianMs: number;
  withoutSnapshotMedianMs: number;
  /** Median time until the bot answers interactions without a snapshot (card lookups go upstream until the download lands). */
  withoutSnapshotDiscordReadyMedianMs: number;
  modulesLoadedMedianMs: number;
  /** One start with a snapshot running the TypeScript under tsx (as `npm run dev` does). */
  underTsx: StartupRun;
}

export interface StartupOptions {
  withSnapshotRuns?: number;
  withoutSnapshotRuns?: number;
}

export async function benchStartup(upstreams: BenchUpstreams, snapshotDir: string, compiledScript: string, options: StartupOptions = {}): Promise<StartupResult> {
  const withSnapshot: StartupRun[] = [];
  const withoutSnapshot: StartupRun[] = [];
  for (let run = 0; run < (options.withSnapshotRuns ?? 3); run++) {
    withSnapshot.push(await startOnce(upstreams, await copyDataDir(snapshotDir), compiledScript));
  }
  for (let run = 0; run < (options.withoutSnapshotRuns ?? 2); run++) {
    withoutSnapshot.push(await startOnce(upstreams, await mkdtemp(join(tmpdir(), 'almanac-bench-empty-')), compiledScript));
  }
  const underTsx = await startOnce(upstreams, await copyDataDir(snapshotDir), undefined);
  return {
    withSnapshot,
    withoutSnapshot,
    underTsx,
    withSnapshotMedianMs: median(withSnapshot.map((run) => run.fullyReadyMs)),
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
