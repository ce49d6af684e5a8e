/**
 * What `npm run bench` hands back: the markdown table on stdout, and the figures of a full-size run
 * in `bench/results/*.json` (the tracked record BENCHMARKS.md quotes), with the machine it ran on.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Row } from './section.js';

export interface Machine {
  cpuModel: string;
  cpus: number;
  memoryBytes: number;
  node: string;
  /** 1, 5 and 15-minute load averages: tail latencies and throughput move with them. */
  loadAverageAtStart: number[];
  startedAt: string;
}

export function describeMachine(): Machine {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpus: availableParallelism(),
    memoryBytes: totalmem(),
    node: process.version,
    loadAverageAtStart: loadavg(),
    startedAt: new Date().toISOString(),
  };
}

/**
 * The table's areas in the order BENCHMARKS.md has always listed them, whatever order the sections
 * ran in (the burst row, for one, belongs with the economy figures); unknown areas come last.
 */
const AREA_ORDER = ['Card matcher', 'End to end', 'HTTP mode', 'Throughput', 'Economy', 'Memory', 'Start-up', 'Bench', 'Cards', 'Fleet'];

export function renderTable(rows: readonly Row[], machine: Machine): string {
  const areaRank = (row: Row) => {
    const rank = AREA_ORDER.indexOf(row.area);
    return rank < 0 ? AREA_ORDER.length : rank;
  };
  // Array.prototype.sort is stable: rows keep their order within an area.
  const ordered = [...rows].sort((a, b) => areaRank(a) - areaRank(b));
  const passCell = (row: Row) => (row.pass === null ? '–' : row.pass ? '✅' : row.assertion ? '❌ failed' : '❌ missed');
  const escape = (text: string) => text.replaceAll('|', '\\|');
  return [
    `## Almanac benchmarks — ${machine.startedAt.slice(0, 10)}, ${machine.cpus} × ${machine.cpuModel}, ${(machine.memoryBytes / 1e9).toFixed(1)} GB RAM, Node ${machine.node}`,
    '',
    '| area | measure | target | measured | side by side | pass |',
    '|---|---|---|---|---|---|',
    ...ordered.map((row) => `| ${row.area} | ${escape(row.measure)} | ${escape(row.target)} | ${escape(row.measured)} | ${escape(row.comparison)} | ${passCell(row)} |`),
    '',
  ].join('\n');
}

/** Writes `bench/results/<name>.json` and returns its path. */
export async function writeResults(name: string, figures: Record<string, unknown>): Promise<string> {
  const directory = new URL('./results/', import.meta.url);
  await mkdir(fileURLToPath(directory), { recursive: true });
  const file = fileURLToPath(new URL(`${name}.json`, directory));
  await writeFile(file, `${JSON.stringify(figures, null, 2)}\n`);
  return file;
}
