/**
 * What the sections of one bench run share, each made on first use and kept for the run: the
 * cards of the run's size, the bot compiled for the child processes, card database snapshots
 * written by the bot's own code, the replayed workload, the one-process replay that the fleet
 * compares itself with, the end-to-end samples the cards section reads `/card show` from, and the
 * test run's environment the vitest sections share. Sharing them keeps a full run from downloading
 * the card databases or replaying 10,000 commands twice; a section run alone makes what it needs.
 */
import type { RawCard } from '../src/cards/normalise-card.js';
import startTestRun from '../test/global-setup.js';
import type { TestBot } from '../test/helpers/bot.js';
import { benchCards } from './card-pool.js';
import { compileBotForNode, type CompiledBot } from './compile.js';
import type { E2eLatencyResult } from './e2e-latency.js';
import type { EconomyResult } from './economy.js';
import { prepareSnapshotDir, removeDir, startBenchUpstreams, startInProcessBot, type BenchUpstreams } from './harness.js';
import type { BenchSize } from './row.js';
import { buildWorkload, type Workload } from './workload.js';

/** Commands in the replayed workload (see workload.ts). */
const WORKLOAD_COMMANDS: Readonly<Record<BenchSize, number>> = { full: 10_000, tiny: 40 };

/** Which card databases a snapshot holds: English alone, or English and the four languages. */
export type SnapshotDatabases = 'english' | 'all';

export class BenchFixtures {
  /** The one-process replay of `workload()`, when a section made it: the fleet's baseline. */
  oneProcessEconomy: EconomyResult | undefined;
  /** The `e2e` section's samples, when it ran: the cards section reads `/card show` over trivial from them. */
  e2eLatency: E2eLatencyResult | undefined;
  private cardList: RawCard[] | undefined;
  private compiled: Promise<CompiledBot> | undefined;
  private readonly snapshots = new Map<SnapshotDatabases, Promise<string>>();
  private builtWorkload: Workload | undefined;
  private testRun: Promise<() => Promise<void>> | undefined;

  constructor(
    readonly size: BenchSize,
    readonly progress: (message: string) => void = () => undefined,
  ) {}

  /** The cards the fake YGOPRODeck serves in this run (see `benchCards`). */
  cards(): RawCard[] {
    this.cardList ??= benchCards(this.size);
    return this.cardList;
  }

  /** Fresh fake upstreams serving this run's cards (cheap: each section starts its own). */
  startUpstreams(timeScale = 1): Promise<BenchUpstreams> {
    return startBenchUpstreams(timeScale, this.cards());
  }

  /** Runs `use` with fresh fake upstreams (time-compressed by `timeScale`), closed afterwards. */
  async withUpstreams<T>(use: (upstreams: BenchUpstreams) => Promise<T>, timeScale = 1): Promise<T> {
    const upstreams = await this.startUpstreams(timeScale);
    try {
      return await use(upstreams);
    } finally {
      await upstreams.close();
    }
  }

  /** Runs `use` with the bot in this process (see `startInProcessBot`) on the snapshot, against fresh upstreams at real speed. */
  async withInProcessBot<T>(use: (bot: TestBot, upstreams: BenchUpstreams) => Promise<T>, databases: SnapshotDatabases = 'all'): Promise<T> {
    const snapshotDir = await this.snapshotDir(databases);
    return this.withUpstreams(async (upstreams) => {
      const inProcess = await startInProcessBot(upstreams, snapshotDir);
      try {
        return await use(inProcess.bot, upstreams);
      } finally {
        await inProcess.stop();
      }
    });
  }

  /** The compiled `bench/bot-process.js` (see compile.ts). */
  async compiledScript(): Promise<string> {
    return (await this.compiledBot()).script;
  }

  /** Where the compiled tree starts (see compile.ts): `src/x.ts` is `<root>/src/x.js`. */
  async compiledRoot(): Promise<string> {
    return (await this.compiledBot()).root;
  }

  /**
   * A DATA_DIR holding the card database snapshots, written by the bot's own code from a fake
   * YGOPRODeck at real speed; sections copy it and never write to it.
   */
  snapshotDir(databases: SnapshotDatabases = 'all'): Promise<string> {
    let dir = this.snapshots.get(databases);
    if (dir === undefined) {
      dir = this.prepareSnapshot(databases);
      this.snapshots.set(databases, dir);
    }
    return dir;
  }

  /** The replayed command workload, from a fixed seed. */
  workload(): Workload {
    this.builtWorkload ??= buildWorkload(this.cards(), { commands: WORKLOAD_COMMANDS[this.size] });
    return this.builtWorkload;
  }

  /**
   * What a vitest run's global setup makes (test/global-setup.ts: bundled entry points, the
   * PostgreSQL cluster), made once in this process: the vitest sections' children inherit it through
   * the environment and skip their own, seconds each.
   */
  async testRunEnvironment(): Promise<void> {
    this.testRun ??= startTestRun();
    await this.testRun;
  }

  private compiledBot(): Promise<CompiledBot> {
    this.compiled ??= (this.progress('compiling the bot to JavaScript for the child processes'), compileBotForNode());
    return this.compiled;
  }

  /** Removes what the run wrote (snapshots, compiled files). */
  async close(): Promise<void> {
    const dirs = await Promise.allSettled(this.snapshots.values());
    await Promise.all(dirs.map((dir) => (dir.status === 'fulfilled' ? removeDir(dir.value) : undefined)));
    this.snapshots.clear();
    const compiled = await this.compiled?.catch(() => undefined);
    await compiled?.remove();
    this.compiled = undefined;
    const endTestRun = await this.testRun?.catch(() => undefined);
    await endTestRun?.();
    this.testRun = undefined;
  }

  private async prepareSnapshot(databases: SnapshotDatabases): Promise<string> {
    this.progress(`card database snapshot (${databases === 'all' ? 'English and the four languages' : 'English alone'}), written by the bot from the fake YGOPRODeck`);
    // The bot refuses a download of fewer than 5,000 cards as truncated; a tiny run serves a few hundred.
    const minCards = this.size === 'tiny' ? 1 : undefined;
    return this.withUpstreams((upstreams) => prepareSnapshotDir(upstreams.ygoprodeck.url, { languages: databases === 'all', ...(minCards === undefined ? {} : { minCards }) }));
  }
}
