import type { CardMatcherOptions } from '../src/cards/matcher.js';

/** Latency sampling for the matcher benchmarks: every query timed alone, several passes. */

/**
 * For a matcher whose searches are timed: the passes ask the same queries again, which the
 * matcher's memory of recent searches would answer without searching.
 */
export const SEARCHES_TIMED: Pick<CardMatcherOptions, 'rememberedMatches'> = { rememberedMatches: 0 };

/** Up to `rounds` timed passes over the queries (fewer once `budgetMs` has passed), one sample per query per pass, in ms. */
export function timeQueries<Q extends { query: string }>(search: (query: Q) => unknown, queries: readonly Q[], rounds: number, budgetMs: number): Float64Array {
  const samples = new Float64Array(rounds * queries.length);
  const budgetEnd = performance.now() + budgetMs;
  let sample = 0;
  for (let round = 0; round < rounds && (round === 0 || performance.now() < budgetEnd); round++) {
    for (const query of queries) {
      const start = performance.now();
      search(query);
      samples[sample++] = performance.now() - start;
    }
  }
  return samples.subarray(0, sample);
}
