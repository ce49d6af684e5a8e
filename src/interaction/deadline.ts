/** What `raceDeadline` answers when the deadline passes before the work settles. */
export const LATE: unique symbol = Symbol('late');

/**
 * The one way Almanac races work against a deadline: `work`'s result (or its failure) when it
 * settles within `ms`, else `LATE`; the work itself goes on either way. A deadline of 0 means "this
 * turn of the event loop": only work that is settled already, or settles on I/O callbacks already
 * due, beats it.
 */
export async function raceDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    if (ms === 0) immediate = setImmediate(resolve, LATE);
    else timer = setTimeout(resolve, ms, LATE);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    clearImmediate(immediate);
  }
}
