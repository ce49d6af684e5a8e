/**
 * Acknowledging an interaction costs a round trip to Discord, so answers that are ready at once
 * (cache hits, local data) skip it; anything that takes longer than `afterMs` is deferred first, well
 * inside Discord's 3 s, with the ephemerality the final answer will have.
 */
export const DEFER_AFTER_MS = 250;

export async function deferWhenSlow<T>(
  ctx: { defer(options: { ephemeral: boolean }): Promise<void> },
  work: Promise<T>,
  options: { ephemeral: boolean; afterMs?: number },
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), options.afterMs ?? DEFER_AFTER_MS);
  });
  try {
    const first = await Promise.race([work, slow]);
    if (first !== 'slow') return first;
    await ctx.defer({ ephemeral: options.ephemeral });
    return await work;
  } finally {
    clearTimeout(timer);
  }
}
