import { LATE, raceDeadline } from '../interaction/deadline.js';

/** Adds a listener and returns its removal. */
type Subscribe = (listener: () => void) => () => void;

/**
 * Resolves true as soon as something is ready (at once when `isReady()` already holds), false after
 * `timeoutMs` without it, or as soon as `events.failed` fires (the caller can then say why rather
 * than keep the user waiting). Never starts a load itself: the owner's own schedule does that.
 */
export async function whenReady(isReady: () => boolean, timeoutMs: number, events: { ready: Subscribe; failed?: Subscribe }): Promise<boolean> {
  if (isReady()) return true;
  const unsubscribe: (() => void)[] = [];
  try {
    const settled = new Promise<boolean>((resolve) => {
      unsubscribe.push(events.ready(() => resolve(true)));
      if (events.failed) unsubscribe.push(events.failed(() => resolve(false)));
    });
    const outcome = await raceDeadline(settled, timeoutMs);
    return outcome !== LATE && outcome;
  } finally {
    for (const stop of unsubscribe) stop();
  }
}
