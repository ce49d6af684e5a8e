import type { LimiterFactory, UpstreamLimiter } from '../upstream/limiter.js';
import type { FleetUpstreamReport } from '../runtime/status-report.js';

const MINUTE_MS = 60_000;

/**
 * Wraps a limiter factory so this process can say, per upstream, how many requests it started in the
 * last minute, how many wait and whether it is paused: the figures its fleet heartbeat carries.
 */
export class TrackedLimiters {
  /** Each limiter with its own starts: an upstream may have several (one per RDAP registry). */
  private readonly tracked: { limiter: UpstreamLimiter; starts: number[] }[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  wrap(factory: LimiterFactory): LimiterFactory {
    return (options) => {
      const limiter = factory(options);
      const starts: number[] = [];
      this.tracked.push({ limiter, starts });
      return {
        upstream: limiter.upstream,
        schedule: (job) =>
          limiter.schedule(() => {
            starts.push(this.now());
            if (starts.length > 1_000) this.prune(starts);
            return job();
          }),
        pause: (ms, reason) => limiter.pause(ms, reason),
        expectedWaitMs: () => limiter.expectedWaitMs(),
        state: () => limiter.state(),
        stop: () => limiter.stop(),
      };
    };
  }

  reports(): FleetUpstreamReport[] {
    return this.tracked.map(({ limiter, starts }) => {
      this.prune(starts);
      const state = limiter.state();
      return { upstream: limiter.upstream, requestsLastMinute: starts.length, queued: state.queued, pausedUntil: state.pausedUntil };
    });
  }

  private prune(starts: number[]): void {
    const since = this.now() - MINUTE_MS;
    const firstRecent = starts.findIndex((at) => at > since);
    starts.splice(0, firstRecent === -1 ? starts.length : firstRecent);
  }
}
