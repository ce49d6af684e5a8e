/**
 * Every section of `npm run bench`, in the order a full run takes them. The order matters twice:
 * the one-process section's replay is the fleet's baseline, and sections that share a card
 * database snapshot or the compiled bot (bench/fixtures.ts) make it once, for the first of them.
 *
 * To add a section (a flood or a replay with pass/fail assertions, say): write a `BenchSection`
 * (bench/section.ts) whose `run(size)` returns its rows and failed assertions, give it a `tiny`
 * size, list it here and in one of test/bench/smoke.ts's `SMOKE_GROUPS`; `npm run test:bench`
 * then runs it on its tiny workload.
 */
import { afterStartSection } from './after-start.js';
import { burstSection } from './burst.js';
import { cardSection } from './cards.js';
import { deckSection } from './deck.js';
import { deckLoadSection } from './deck-load.js';
import { e2eLatencySection } from './e2e-section.js';
import { fleetSection } from './fleet.js';
import { guildsSection } from './guilds.js';
import { httpModeSection } from './http-mode.js';
import { matcherLibrariesSection, matcherSection } from './matcher.js';
import { oneProcessSection } from './one-process.js';
import { schedulerSection } from './scheduler.js';
import type { BenchSection } from './section.js';
import { settingsSection } from './settings.js';
import { startupSection } from './startup.js';
import { floodsSection, fuzzSection } from './vitest-section.js';
import { worldMapSection } from './world-map.js';

export const SECTIONS: readonly BenchSection[] = [
  matcherSection,
  e2eLatencySection,
  httpModeSection,
  startupSection,
  afterStartSection,
  oneProcessSection,
  guildsSection,
  burstSection,
  fleetSection,
  floodsSection,
  fuzzSection,
  cardSection,
  deckSection,
  deckLoadSection,
  schedulerSection,
  settingsSection,
  worldMapSection,
  matcherLibrariesSection,
];
