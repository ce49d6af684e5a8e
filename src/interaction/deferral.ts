import type { ComponentContext, DeferrableContext } from './context.js';
import { LATE, raceDeadline } from './deadline.js';

/**
 * Acknowledging an interaction costs a round trip to Discord, so answers that are ready at once
 * (cache hits, local data) skip it; anything that takes longer than `afterMs` is deferred first, well
 * inside Discord's 3 s, with the ephemerality the final answer will have.
 */
const DEFER_AFTER_MS = 250;
/** Work expected to wait at least this long in an upstream's queue says so at once (`deferWithWaitNote`). */
const WAIT_NOTE_FROM_MS = 3_000;

export async function deferWhenSlow<T>(
  ctx: { defer(options: { ephemeral: boolean }): Promise<void> },
  work: Promise<T>,
  options: { ephemeral: boolean; afterMs?: number },
): Promise<T> {
  const first = await raceDeadline(work, options.afterMs ?? DEFER_AFTER_MS);
  if (first !== LATE) return first;
  await ctx.defer({ ephemeral: options.ephemeral });
  return work;
}

/** How one interaction is acknowledged while its work goes on. */
export interface Acknowledger {
  defer(): Promise<void>;
  /** Shows a short note in place of "thinking…" (deferring first when needed); the answer replaces it. */
  progress(note: string): Promise<void>;
}

/** A slash command's or context menu's acknowledgement, public or private like its answer. */
export function chatAcknowledger(ctx: DeferrableContext, ephemeral: boolean): Acknowledger {
  return { defer: () => ctx.defer({ ephemeral }), progress: (note) => ctx.progress(note, { ephemeral }) };
}

/** A component's acknowledgement: the message it sits on is updated in place. */
export function componentAcknowledger(ctx: Pick<ComponentContext, 'deferUpdate' | 'progress'>): Acknowledger {
  return { defer: () => ctx.deferUpdate(), progress: (note) => ctx.progress(note) };
}

/**
 * Runs `work`, which may queue behind an upstream's limiter that expects a wait of
 * `wait.expectedWaitMs`. From `WAIT_NOTE_FROM_MS` on the user sees why at once (`wait.note`);
 * otherwise the interaction is deferred only if the work turns out slow. Work that settles at once
 * (a cached answer, or a refusal: the member's share spent, the upstream paused) needs no note, and a
 * public note would only flash in the channel before a private refusal.
 */
export async function deferWithWaitNote<T>(
  acknowledge: Acknowledger,
  wait: { expectedWaitMs: number; note: (expectedWaitMs: number) => string },
  work: () => Promise<T>,
): Promise<T> {
  const running = work();
  if (wait.expectedWaitMs >= WAIT_NOTE_FROM_MS) {
    // A failure is the caller's to handle: here it only means the work settled.
    const first = await raceDeadline(running, 0).catch(() => undefined);
    if (first === LATE) await acknowledge.progress(wait.note(wait.expectedWaitMs));
    return running;
  }
  return deferWhenSlow({ defer: () => acknowledge.defer() }, running, { ephemeral: false });
}
