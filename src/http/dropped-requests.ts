import type { Logger } from 'pino';

/**
 * Why a request to `POST /interactions` was dropped without an answer:
 * - `incomplete`: its body never arrived whole, because the client aborted it or sent it too slowly
 *   (Node answers that one 408). No valid signature is needed to get this far: the body is read
 *   before the signature over it can be checked.
 * - `replayed`: a correctly signed interaction that was already received: Discord never sends one
 *   twice, so it is someone replaying a request they captured (answered 200 with an empty body).
 */
export type DroppedReason = 'incomplete' | 'replayed';

/** Drops are summed up in one log line at most this often. */
export const DROP_SUMMARY_INTERVAL_MS = 60_000;

export interface DroppedRequestsOptions {
  log: Logger;
  /** Counts each drop (a metric). */
  count?: (reason: DroppedReason) => void;
}

/**
 * What a dropped request costs: a counter and, at most once a minute, one summary line for all of
 * them. Anyone can abort or stall requests by the hundred, so one line (let alone a stack trace)
 * each would let them fill the log; each one's error is logged at debug only.
 */
export class DroppedRequests {
  private readonly pending = new Map<DroppedReason, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DroppedRequestsOptions) {}

  /** `details` (the error, the interaction id) go to the debug line. */
  drop(reason: DroppedReason, details: { err?: unknown; interactionId?: string } = {}): void {
    this.options.count?.(reason);
    this.options.log.debug({ reason, ...details }, 'dropped an interactions request');
    this.pending.set(reason, (this.pending.get(reason) ?? 0) + 1);
    // The first drop after a quiet spell starts the clock: a quiet server runs no timer at all.
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), DROP_SUMMARY_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Logs the summary of the drops not summed up yet, if any (also on close, so none goes unsaid). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const counts = Object.fromEntries(this.pending);
    const total = [...this.pending.values()].reduce((sum, count) => sum + count, 0);
    this.pending.clear();
    const parts = Object.entries(counts).map(([reason, count]) => `${count} ${reason}`);
    this.options.log.warn({ dropped: counts }, `${total} interactions requests dropped in the last minute (${parts.join(', ')})`);
  }
}
