/**
 * What the bench and the bot in its child process (`bench/bot-process.ts`) share: the trivial
 * command, time-compressed limiters and the IPC messages. Kept free of the test fakes so the child
 * loads nothing the bot itself would not.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { AppServices } from '../src/app/services.js';
import { createLocalLimiter, type LimiterFactory } from '../src/upstream/limiter.js';
import { watchLongestDelay, type LongestDelay } from './longest-delay.js';

/** A command with no work at all: the floor every other command's latency is measured against. */
export const TRIVIAL_COMMAND: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: { name: 'bench-trivial', description: 'Replies with a constant (benchmark baseline)' },
  execute() {
    return Promise.resolve({ content: 'pong' });
  },
};

/**
 * Limiter spacings divided by `timeScale`. Paired with fakes whose windows are divided by the same
 * scale, the count of requests per window (what every limit is about) is unchanged, and a workload
 * that real limits would spread over many minutes runs `timeScale` times faster. `base` makes the
 * limiters: in-process ones by default, or a shared state's fleet limiters.
 */
export function scaledLimiterFactory(timeScale: number, base: LimiterFactory = createLocalLimiter): LimiterFactory {
  return (options) => base({ ...options, minTimeMs: options.minTimeMs / timeScale });
}

export interface MemorySample {
  /** After a full collection and the bot's trim of glibc's heaps that follows one. */
  rssBytes: number;
  /** After the full collection, before that trim (the same where there is no glibc). */
  rssBeforeTrimBytes: number;
  /** Linux only: the anonymous (heaps, malloc) and file-backed (code) parts of the RSS. */
  rssAnonBytes?: number;
  rssFileBytes?: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  /** Committed bytes of each V8 heap space (`new_space`, `old_space`, `code_space`…): where heapTotal goes. */
  heapSpaceBytes?: Record<string, number>;
  externalBytes: number;
  arrayBuffersBytes: number;
  /** Entries in discord.js's user and guild-member caches (unbounded unless configured). */
  cachedUsers: number;
  cachedMembers: number;
}

/** Milliseconds since the child process started (its `performance.now()`). */
export interface StartupTimings {
  /** Node started and every module of the bot was loaded (and, under tsx, compiled). */
  modulesLoadedMs: number;
  /** `createApp` done: services built, card snapshot loaded when there was one. */
  servicesReadyMs: number;
  /** Logged in to the gateway: interactions are answered from here on. */
  discordReadyMs: number;
  /** The card database is loaded (from the snapshot, or downloaded); null if it never was. */
  cardsReadyMs: number | null;
}

/** How long a process's event loop was held up since the last reading, and by garbage collection. */
export interface StallReading {
  /** Longest event-loop delay seen (10 ms resolution). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  /** Longest single GC pause, and all GC pauses added up. */
  gcPauseMaxMs: number;
  gcPauseTotalMs: number;
  /**
   * What load on a shared machine does not distort (pause times do: a preempted pause counts the
   * wait). Collections by kind: scavenges (young generation) and the rest (mark-sweep, incremental
   * marking steps).
   */
  scavenges: number;
  majorGcs: number;
  /**
   * Bytes allocated on the JS heap: each collection's heap used before it, less what the last one
   * left. Young-generation GC time grows with this (and with what survives it).
   */
  allocatedBytes: number;
  /** This process's CPU time (user + system), which does not count time spent waiting for a core. */
  cpuMs: number;
  /** The longest delay split into the bot's work and waiting for a core (Linux only). */
  longestDelay?: LongestDelay;
}

export type ParentMessage =
  | { type: 'measure-memory'; id: number }
  | { type: 'interaction-counts'; id: number }
  | { type: 'read-stalls'; id: number }
  | { type: 'languages'; id: number }
  | { type: 'stop' };

export type BotReport =
  | { type: 'ready'; timings: StartupTimings; cards: number; memory: MemorySample; stalls: StallReading }
  | { type: 'memory'; id: number; memory: MemorySample }
  /** Interactions answered so far, by the router's outcome label (ok, user_error, upstream_error, error). */
  | { type: 'interaction-counts'; id: number; counts: Record<string, number> }
  | { type: 'stalls'; id: number; stalls: StallReading }
  /** The languages whose databases are loaded and matched (`CardService.languageReady`). */
  | { type: 'languages'; id: number; ready: string[] };

/**
 * Watches this process's event loop and GC pauses; `read()` returns what happened since the last
 * reading. Used on both sides, to tell a bot that stalled from a load generator that did. With
 * `splitLongestDelay` (the bot's side), the longest delay is split into work and waiting for a core.
 */
export function watchStalls(options: { splitLongestDelay?: boolean } = {}): { read(): StallReading; stop(): void } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const longest = options.splitLongestDelay ? watchLongestDelay() : undefined;
  let gcPauseMaxMs = 0;
  let gcPauseTotalMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcPauseMaxMs = Math.max(gcPauseMaxMs, entry.duration);
      gcPauseTotalMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let profiler = new GCProfiler();
  profiler.start();
  let heapUsedAtRead = getHeapStatistics().used_heap_size;
  let cpuAtRead = process.cpuUsage();
  return {
    read() {
      const collections = profiler.stop()?.statistics ?? [];
      profiler = new GCProfiler();
      profiler.start();
      const heapUsedNow = getHeapStatistics().used_heap_size;
      let allocatedBytes = 0;
      let heapUsedAfterLast = heapUsedAtRead;
      for (const collection of collections) {
        allocatedBytes += Math.max(0, collection.beforeGC.heapStatistics.usedHeapSize - heapUsedAfterLast);
        heapUsedAfterLast = collection.afterGC.heapStatistics.usedHeapSize;
      }
      allocatedBytes += Math.max(0, heapUsedNow - heapUsedAfterLast);
      const scavenges = collections.filter((collection) => collection.gcType === 'Scavenge').length;
      const cpu = process.cpuUsage(cpuAtRead);
      const longestDelay = longest?.read();
      const reading: StallReading = {
        loopDelayMaxMs: delay.max / 1e6,
        loopDelayP99Ms: delay.percentile(99) / 1e6,
        gcPauseMaxMs,
        gcPauseTotalMs,
        scavenges,
        majorGcs: collections.length - scavenges,
        allocatedBytes,
        cpuMs: (cpu.user + cpu.system) / 1e3,
        ...(longestDelay === undefined ? {} : { longestDelay }),
      };
      delay.reset();
      gcPauseMaxMs = 0;
      gcPauseTotalMs = 0;
      heapUsedAtRead = heapUsedNow;
      cpuAtRead = process.cpuUsage();
      return reading;
    },
    stop() {
      delay.disable();
      longest?.stop();
      observer.disconnect();
      profiler.stop();
    },
  };
}
