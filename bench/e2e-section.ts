/**
 * The `e2e` section (bench/e2e-latency.ts measures): its samples are kept in the run's fixtures,
 * where the cards section reads `/card show` over the trivial command rather than taking them again.
 */
import { benchE2eLatency, E2E_SIZES, e2eLatencyRows } from './e2e-latency.js';
import type { BenchFixtures } from './fixtures.js';
import { sectionResult, type BenchSection, type BenchSize } from './section.js';

export const e2eLatencySection: BenchSection = {
  name: 'e2e',
  title: 'end-to-end latency (in-process bot, interleaved with the trivial command)',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const e2e = await fixtures.withInProcessBot((bot) => benchE2eLatency(bot, E2E_SIZES[size]));
    fixtures.e2eLatency = e2e;
    return sectionResult(e2eLatencyRows(e2e), { e2eLatency: e2e });
  },
};
