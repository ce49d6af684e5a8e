/**
 * Small statistics shared by the benchmark parts: percentiles over latency samples, number
 * formatting, and seeded random draws (uniform, Zipf, weighted) so that every run replays the same
 * workload.
 */

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
}

/**
 * Nearest-rank percentile (`fraction` in (0, 1]) of samples in any order; NaN when there are none
 * (shown as `–` by `fixed`), so that a missing figure is never mistaken for a measured 0.
 */
export function percentile(samples: ArrayLike<number>, fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  // A typed array sorts numerically, and the copy leaves the caller's samples in their order.
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sum = samples.reduce((total, sample) => total + sample, 0);
  return {
    count: samples.length,
    p50Ms: percentile(samples, 0.5),
    p99Ms: percentile(samples, 0.99),
    meanMs: samples.length === 0 ? Number.NaN : sum / samples.length,
    maxMs: samples.length === 0 ? Number.NaN : Math.max(...samples),
  };
}

/** The median; NaN when there are no values, as `percentile`. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A number formatted with `digits` decimals, or `–` when it is not finite. */
export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '–';
}

export { seededRandom } from '../test/helpers/seeded-random.js';

/**
 * Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1)^exponent: popular items
 * repeat, as in real command traffic, and a long tail is still asked for now and then.
 */
export function zipfSampler(n: number, exponent: number, random: () => number): () => number {
  if (!Number.isInteger(n) || n <= 0) throw new TypeError(`zipfSampler: "n" must be a positive integer, got ${n}`);
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank++) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** A seeded Fisher–Yates shuffle (a copy). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/** Picks one of `choices` with the given relative weights. */
export function weightedPick<T>(choices: readonly (readonly [T, number])[], random: () => number): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let target = random() * total;
  for (const [choice, weight] of choices) {
    target -= weight;
    if (target < 0) return choice;
  }
  return choices[choices.length - 1]![0];
}
