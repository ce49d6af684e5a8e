/**
 * The world map under IP answers (src/services/world-map): the time to draw one, with a few places
 * (an `/ip lookup`) and with many (a whole log), against re-encoding the bare map alone in the same
 * run (what any answer with a map pays at least). Drawn one after the other, in process, after one
 * first draw that rasterizes the outline.
 */
import type { MapPoint } from '../src/ip/world-map.js';
import { WorldMap } from '../src/services/world-map/world-map.js';
import sharp from 'sharp';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, percentile } from './stats.js';

const SIZES: Readonly<Record<BenchSize, { draws: number }>> = { full: { draws: 40 }, tiny: { draws: 2 } };
const TARGET_P99_MS = 200;

/** `count` places spread over the inhabited latitudes, from a fixed sequence (no randomness between runs). */
function places(count: number): MapPoint[] {
  return Array.from({ length: count }, (_, index) => ({
    latitude: -40 + ((index * 37) % 100),
    longitude: -170 + ((index * 73) % 340),
    count: 1 + (index % 7),
  }));
}

async function timed(draws: number, draw: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < draws; i++) {
    const start = performance.now();
    await draw();
    samples.push(performance.now() - start);
  }
  return samples;
}

export const worldMapSection: BenchSection = {
  name: 'map',
  title: 'world map under IP answers: a few places and a whole log, against the bare map re-encoded',
  assertions: false,
  async run(size) {
    const { draws } = SIZES[size];
    const map = new WorldMap();
    const bare = await map.draw([]);
    const baseline = await timed(draws, () => sharp(bare).png({ compressionLevel: 6 }).toBuffer());
    const rows: Row[] = [];
    const figures: Record<string, unknown> = { bareMs: baseline };
    for (const [label, count] of [['2 places (/ip lookup)', 2], ['10 places', 10], ['500 places (a whole log)', 500]] as const) {
      const samples = await timed(draws, () => map.draw(places(count)));
      figures[label] = samples;
      const p99 = percentile(samples, 0.99);
      rows.push({
        area: 'World map',
        measure: `draw a 1,200 × 600 map, ${label}, p50 / p99 (${draws} draws)`,
        target: `p99 < ${TARGET_P99_MS} ms`,
        measured: `${fixed(percentile(samples, 0.5), 1)} / ${fixed(p99, 1)} ms`,
        comparison: `the bare map re-encoded: ${fixed(percentile(baseline, 0.5), 1)} / ${fixed(percentile(baseline, 0.99), 1)} ms`,
        pass: p99 < TARGET_P99_MS,
      });
    }
    return sectionResult(rows, { worldMap: figures });
  },
};
