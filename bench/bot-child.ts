/**
 * Starts `bench/bot-process.ts` in a child process, logged in to a fresh fake Discord in this
 * process, and talks to it over IPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { commands } from '../commands/index.js';
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from '../test/fakes/discord.js';
import { TRIVIAL_COMMAND, type BotReport, type MemorySample, type ParentMessage, type StallReading, type StartupTimings } from './bot-shared.js';
import { BENCH_TOKEN, copyDataDir, removeDir } from './harness.js';
import { productionEnvironment, productionNodeFlags } from './production-flags.js';

const BOT_SCRIPT = fileURLToPath(new URL('./bot-process.ts', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A first start downloads and validates the whole database; allow for a slow, busy machine. */
const READY_TIMEOUT_MS = 180_000;
const REPLY_TIMEOUT_MS = 60_000;
/** The end of the child's stderr kept for error messages. */
const STDERR_TAIL_CHARS = 4_000;

export interface BotChildOptions {
  /** Upstream URLs (GEOJS_URL, WALLHAVEN_URL, YGOPRODECK_URL, YGOPRODECK_IMAGES_URL). */
  upstreamEnv: Record<string, string>;
  dataDir: string;
  /** Divides the bot's limiter spacings (see `scaledLimiterFactory`). */
  timeScale?: number;
  /** The compiled `bot-process.js` (see `compileBotForNode`); without it the TypeScript runs under tsx. */
  compiledScript?: string;
  logLevel?: string;
  /** A fake Discord to join (a fleet of shards shares one) instead of a fresh one; the caller closes it. */
  discord?: FakeDiscord;
  /** More environment, e.g. SHARD_COUNT, SHARD_IDS, REDIS_URL. */
  env?: Record<string, string>;
  /** The bot's stall readings split their longest delay (`StallReading.longestDelay`), at the cost of a 5 ms probe in the bot. */
  splitLongestDelay?: boolean;
  /** The deck composer's child leaves after this long idle (the bot's default: 20 s); a bench that waits for it to leave shortens it. */
  deckComposerIdleMs?: number;
}

export interface BotChild {
  discord: FakeDiscord;
  /** The bot's process id: its RSS and its own children's (the deck composer) are read from /proc. */
  pid: number;
  timings: StartupTimings;
  /** From spawning the process to its ready report arriving here. */
  spawnToReadyMs: number;
  cards: number;
  /** Memory right after start-up (after a full GC). */
  memoryAtReady: MemorySample;
  /** The bot's event-loop delays and GC pauses from logging in until ready (its cards matched), the memory measurement left out. */
  stallsUntilReady: StallReading;
  measureMemory(): Promise<MemorySample>;
  interactionCounts(): Promise<Record<string, number>>;
  /** The bot's event-loop delays and GC pauses since the last call (the first call: since it was ready). */
  readStalls(): Promise<StallReading>;
  /** The languages whose card databases the bot has loaded and matched. */
  languagesReady(): Promise<string[]>;
  stop(): Promise<void>;
}

/** A fake Discord that knows the bot's commands and the trivial one; `options` for a fleet's guilds and shards. */
export function startBenchDiscord(options: Omit<FakeDiscordOptions, 'token' | 'commands'> = {}): Promise<FakeDiscord> {
  return startFakeDiscord({ ...options, token: BENCH_TOKEN, commands: [...commands, TRIVIAL_COMMAND].map((command) => command.data) });
}

export async function startBotChild(options: BotChildOptions): Promise<BotChild> {
  const discord = options.discord ?? (await startBenchDiscord());
  const closeDiscord = () => (options.discord ? Promise.resolve() : discord.close());
  const spawnedAt = performance.now();
  const script = options.compiledScript === undefined ? ['--import', 'tsx', BOT_SCRIPT] : [options.compiledScript];
  // BENCH_BOT_CPU_PROF=<dir>: the bot's process writes a CPU profile there (BENCHMARKS.md, How to run),
  // sampled every 200 µs: fine enough to see what one turn of a busy event loop held.
  const profileDir = process.env.BENCH_BOT_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200'] : [];
  // Settings of the bot's own construction travel as arguments (bench/bot-process.ts reads them): not environment the bot would read.
  const botArguments = options.deckComposerIdleMs === undefined ? [] : [`--deck-composer-idle-ms=${options.deckComposerIdleMs}`];
  const child = spawn(process.execPath, ['--expose-gc', ...productionNodeFlags('start'), ...profile, ...script, ...botArguments], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      ...productionEnvironment('start'),
      NODE_ENV: 'production',
      // Nothing from the caller's environment may add a key or an ops server to what is measured.
      WALLHAVEN_API_KEY: '',
      METRICS_PORT: '',
      DISCORD_TOKEN: BENCH_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel ?? 'info',
      BENCH_TIME_SCALE: String(options.timeScale ?? 1),
      BENCH_SPLIT_LONGEST_DELAY: options.splitLongestDelay ? '1' : '',
      ...options.upstreamEnv,
      ...options.env,
    },
    // Logs go nowhere: written and serialised as in production, but not kept.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const failure = (what: string) => new Error(`bench bot child: ${what}\n${stderr}`);

  let ready: Extract<BotReport, { type: 'ready' }>;
  try {
    ready = await withTimeout(
      Promise.race([
        waitForReport(child, (report): report is Extract<BotReport, { type: 'ready' }> => report.type === 'ready'),
        exited.then((code) => Promise.reject(failure(`exited with code ${code} before it was ready`))),
      ]),
      READY_TIMEOUT_MS,
      () => failure(`not ready within ${READY_TIMEOUT_MS} ms`),
    );
  } catch (error) {
    child.kill();
    await closeDiscord();
    throw error;
  }
  const spawnToReadyMs = performance.now() - spawnedAt;

  let nextId = 1;
  const ask = async <T extends BotReport>(message: ParentMessage & { id: number }, accept: (report: BotReport) => report is T): Promise<T> => {
    const reply = waitForReport(child, (report): report is T => accept(report) && 'id' in report && report.id === message.id);
    child.send(message);
    return withTimeout(reply, REPLY_TIMEOUT_MS, () => failure(`no answer to ${message.type} within ${REPLY_TIMEOUT_MS} ms`));
  };

  return {
    discord,
    pid: child.pid!,
    timings: ready.timings,
    spawnToReadyMs,
    cards: ready.cards,
    memoryAtReady: ready.memory,
    stallsUntilReady: ready.stalls,
    async measureMemory() {
      const report = await ask({ type: 'measure-memory', id: nextId++ }, (r): r is Extract<BotReport, { type: 'memory' }> => r.type === 'memory');
      return report.memory;
    },
    async interactionCounts() {
      const report = await ask(
        { type: 'interaction-counts', id: nextId++ },
        (r): r is Extract<BotReport, { type: 'interaction-counts' }> => r.type === 'interaction-counts',
      );
      return report.counts;
    },
    async readStalls() {
      const report = await ask({ type: 'read-stalls', id: nextId++ }, (r): r is Extract<BotReport, { type: 'stalls' }> => r.type === 'stalls');
      return report.stalls;
    },
    async languagesReady() {
      const report = await ask({ type: 'languages', id: nextId++ }, (r): r is Extract<BotReport, { type: 'languages' }> => r.type === 'languages');
      return report.ready;
    },
    async stop() {
      if (child.exitCode === null) {
        child.send({ type: 'stop' } satisfies ParentMessage);
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await closeDiscord();
    },
  };
}

/** Runs `use` with a bot child on a fresh copy of the DATA_DIR `snapshotDir`; stops it and removes the copy afterwards, whatever happened. */
export async function withBotChild<T>(snapshotDir: string, options: Omit<BotChildOptions, 'dataDir'>, use: (bot: BotChild) => Promise<T>): Promise<T> {
  const dataDir = await copyDataDir(snapshotDir);
  try {
    const bot = await startBotChild({ ...options, dataDir });
    try {
      return await use(bot);
    } finally {
      await bot.stop();
    }
  } finally {
    await removeDir(dataDir);
  }
}

function waitForReport<T extends BotReport>(child: ChildProcess, accept: (report: BotReport) => report is T): Promise<T> {
  return new Promise((resolve) => {
    const listener = (report: BotReport) => {
      if (!accept(report)) return;
      child.off('message', listener);
      resolve(report);
    };
    child.on('message', listener);
  });
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}
