import { afterAll, describe, expect, it } from 'vitest';
import { BenchFixtures } from '../../bench/fixtures.js';
import { SECTIONS } from '../../bench/sections.js';

/**
 * Every section of `npm run bench` on its tiny workload, in the full run's order and sharing its
 * fixtures as a full run does: a section that no longer runs to the end (a moved module, a new
 * refusal in the bot, a changed answer) fails here rather than minutes into a full bench nobody
 * ran. Nothing is timed: tiny figures mean nothing, only that each section produces its rows and
 * that its pass/fail assertions (limits kept, art fetched once…) hold, which load does not move.
 */

/** What a cell must never show: a value that was missing or not formatted. */
const UNFORMATTED = /undefined|NaN|\[object /;

/** The files the sections are spread over, so that test workers run them side by side. */
export const SMOKE_GROUPS = {
  'in-process': ['matcher', 'matcher-libraries', 'e2e', 'cards', 'deck', 'scheduler', 'settings', 'map'],
  // The sections that run the compiled bot in child processes, sharing one compile (and the
  // one-process replay, the fleet's baseline, with the fleet).
  'child-process': ['startup', 'after-start', 'process', 'guilds', 'burst', 'fleet', 'deck-load'],
  // The two nested vitest runs, and the HTTP section for balance (it compiles its own children):
  // beside the child-process group it made that file the run's longest (70 s in .ci/run, the others 26 and 48 s).
  'vitest-and-http': ['floods', 'fuzz', 'http'],
} as const;

/** Runs the sections of `group` on their tiny workload, sharing one set of fixtures as a full run does. */
export function smokeTestSections(group: keyof typeof SMOKE_GROUPS): void {
  const names: readonly string[] = SMOKE_GROUPS[group];
  const sections = SECTIONS.filter((section) => names.includes(section.name));
  const fixtures = new BenchFixtures('tiny');
  afterAll(() => fixtures.close());

  describe(`npm run bench, the ${group} sections on a tiny workload`, () => {
    for (const section of sections) {
      it(`${section.name}: runs to the end and produces its rows`, { timeout: 180_000 }, async () => {
        const result = await section.run('tiny', fixtures);

        expect(result.rows.length).toBeGreaterThan(0);
        for (const row of result.rows) {
          for (const cell of [row.area, row.measure, row.target, row.measured, row.comparison]) {
            expect(cell, `${row.area}: ${row.measure}`).not.toBe('');
            expect(cell, `${row.area}: ${row.measure}`).not.toMatch(UNFORMATTED);
          }
        }
        expect(result.failed).toEqual([]);
        expect(Object.keys(result.figures).length).toBeGreaterThan(0);
      });
    }
  });
}
