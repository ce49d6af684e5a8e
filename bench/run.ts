/**
 * `npm run bench`: runs the sections of bench/sections.ts one after the other, prints one markdown
 * table (target, measured, side-by-side comparison, pass) and, at full size, writes every figure to
 * `bench/results/`. Progress goes to stderr. Exits 1 when a pass/fail assertion failed or a section
 * could not run, 2 on a usage error. BENCHMARKS.md explains the method and holds the latest table.
 *
 *     npm run bench                              the full run: every section but matcher-libraries
 *     npm run bench -- --only cards,matcher      some sections
 *     npm run bench -- --assertions              the sections that hold pass/fail assertions
 *     npm run bench -- --size tiny               a tiny workload: proves the sections run (no figures written)
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { BenchFixtures } from './fixtures.js';
import { describeMachine, renderTable, writeResults } from './report.js';
import type { BenchSection, BenchSize, Row } from './section.js';
import { SECTIONS } from './sections.js';
import { fixed } from './stats.js';

/** The whole bench must stay short enough to run before a merge. */
const FULL_RUN_TARGET_MS = 10 * 60_000;

const benchStarted = performance.now();
const machine = describeMachine();

function progress(message: string): void {
  const seconds = ((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4);
  console.error(`[bench ${seconds} s] ${message}`);
}

function usage(problem: string): never {
  console.error(`${problem}\nnpm run bench -- [--only <section>[,<section>…]] [--assertions] [--size full|tiny]; the sections are ${SECTIONS.map((section) => section.name).join(', ')}`);
  process.exit(2);
}

function selectedSections(): { sections: readonly BenchSection[]; size: BenchSize } {
  let values;
  try {
    ({ values } = parseArgs({ options: { only: { type: 'string', multiple: true }, assertions: { type: 'boolean' }, size: { type: 'string', default: 'full' } } }));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (values.size !== 'full' && values.size !== 'tiny') usage(`--size ${values.size}: full or tiny`);
  const names = (values.only ?? []).flatMap((value) => value.split(',')).filter((name) => name !== '');
  for (const name of names) if (!SECTIONS.some((section) => section.name === name)) usage(`--only ${name}: no such section`);
  const chosen = (section: BenchSection) => (names.length === 0 ? section.inFullRun !== false : names.includes(section.name));
  const sections = SECTIONS.filter((section) => chosen(section) && (!values.assertions || section.assertions));
  return { sections, size: values.size };
}

const { sections, size } = selectedSections();
const fixtures = new BenchFixtures(size, progress);
const rows: Row[] = [];
const failed: string[] = [];
const figures: Record<string, unknown> = {};
/** How long each section took, in seconds (and, in a full run, the shared fixtures made first): where a long run goes. */
const sectionSeconds: Record<string, number> = {};
const fullRun = sections.length === SECTIONS.filter((section) => section.inFullRun !== false).length && size === 'full';
try {
  if (fullRun) {
    // Made side by side before anything is measured, rather than each alone when a section first needs it.
    progress('shared fixtures: card database snapshots and the compiled bot, side by side');
    const fixturesStarted = performance.now();
    await Promise.all([fixtures.snapshotDir('all'), fixtures.snapshotDir('english'), fixtures.compiledScript()]);
    sectionSeconds.fixtures = Math.round((performance.now() - fixturesStarted) / 1000);
  }
  for (const section of sections) {
    progress(section.title);
    const sectionStarted = performance.now();
    try {
      const result = await section.run(size, fixtures);
      rows.push(...result.rows);
      failed.push(...result.failed);
      Object.assign(figures, result.figures);
      if (sections.length === 1 && result.details !== undefined) console.log(result.details);
    } catch (error) {
      // The other sections still run: one broken section should not hide the others' figures.
      console.error(error);
      failed.push(`${section.name}: did not run to the end: ${error instanceof Error ? error.message : String(error)}`);
    }
    sectionSeconds[section.name] = Math.round((performance.now() - sectionStarted) / 1000);
  }
} finally {
  await fixtures.close();
}

const benchMs = performance.now() - benchStarted;
if (fullRun) {
  rows.push({
    area: 'Bench',
    measure: '`npm run bench` duration',
    target: `< ${FULL_RUN_TARGET_MS / 60_000} min`,
    measured: `${fixed(benchMs / 60_000, 1)} min`,
    comparison: `load average ${machine.loadAverageAtStart.map((load) => load.toFixed(1)).join(' ')} at start; ${Object.entries(sectionSeconds)
      .map(([name, seconds]) => `${name} ${seconds} s`)
      .join(', ')}`,
    pass: benchMs < FULL_RUN_TARGET_MS,
  });
}
console.log(renderTable(rows, machine));

// Tiny figures mean nothing, and the tracked results files are the record of full-size runs.
if (size === 'full' && (fullRun || sections.length === 1)) {
  const name = fullRun ? 'latest' : sections[0]!.name;
  const file = await writeResults(name, { machine: { ...machine, loadAverageAtEnd: loadavg() }, benchMs, sectionSeconds, table: rows, failed, ...figures });
  progress(`figures in ${file}`);
}
for (const failure of failed) console.error(`FAILED ${failure}`);
progress(`done in ${(benchMs / 1000).toFixed(0)} s${failed.length > 0 ? `, ${failed.length} failed` : ''}`);
process.exit(failed.length > 0 ? 1 : 0);
