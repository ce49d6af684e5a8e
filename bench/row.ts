/**
 * What a section's helpers share with the runner without reaching the run's fixtures
 * (bench/fixtures.ts builds on them): how much work a run does, and one line of the table.
 */

/**
 * How much work a section does. `full` is what `npm run bench` measures and what BENCHMARKS.md
 * reports; `tiny` runs every step of the section on a workload a few hundred times smaller, to
 * prove it still runs (`npm run test:bench` through test/bench/smoke.ts, or `--size tiny`). Tiny
 * figures mean nothing.
 */
export type BenchSize = 'full' | 'tiny';

/** One line of the bench table. */
export interface Row {
  area: string;
  measure: string;
  target: string;
  measured: string;
  comparison: string;
  /** true/false against a target; null when there is no target (reported for information). */
  pass: boolean | null;
  /**
   * The row is a pass/fail assertion (a property that holds whatever the machine's load, such as
   * staying under an upstream's limit), not a performance target: a false `pass` fails the run.
   * Targets are reported ✅ or ❌ missed and never fail it, since load on a shared machine moves them.
   */
  assertion?: true;
}
