/**
 * What a part of `npm run bench` is to the runner (bench/run.ts): a name, and a `run(size)` that
 * returns the table's rows, the pass/fail assertions that failed, and every figure for the results
 * file. The runner only dispatches; each section builds its own rows (see bench/sections.ts for
 * the list, and bench/http-mode.ts for a section with the least around it).
 */
import type { BenchFixtures } from './fixtures.js';
import type { BenchSize, Row } from './row.js';

export type { BenchSize, Row } from './row.js';

export interface SectionResult {
  rows: Row[];
  /** Pass/fail assertions that failed, one sentence each; any of them makes `npm run bench` exit 1. */
  failed: string[];
  /** Every figure the section measured, merged into the results file (bench/results/*.json). */
  figures: Record<string, unknown>;
  /** More detail than the table holds (markdown), printed before the table when the section runs alone. */
  details?: string;
}

export interface BenchSection {
  /** What `--only` selects it by. */
  name: string;
  /** One line for the progress log. */
  title: string;
  /** True when the section holds pass/fail assertions: `npm run bench -- --assertions` runs those sections alone. */
  assertions: boolean;
  /** False for a comparison too long for every run: it runs only when `--only` names it. */
  inFullRun?: false;
  /** Runs the section at `size`; `fixtures` hold what sections share in one run (card database snapshot, compiled bot, baselines). */
  run(size: BenchSize, fixtures: BenchFixtures): Promise<SectionResult>;
}

/** The failed assertions among `rows`, one sentence each. */
export function failedAssertions(rows: readonly Row[]): string[] {
  return rows.filter((row) => row.assertion === true && row.pass === false).map((row) => `${row.area}: ${row.measure}: ${row.measured} (expected ${row.target})`);
}

/** A section's result from its rows and figures, its failed assertions read off the rows. */
export function sectionResult(rows: Row[], figures: Record<string, unknown>, details?: string): SectionResult {
  return { rows, failed: failedAssertions(rows), figures, ...(details === undefined ? {} : { details }) };
}
