/**
 * The first seconds after a fresh start (empty DATA_DIR): the bot answers interactions, then
 * downloads English and the four languages, and rebuilds its card matcher after each. This section
 * watches the bot's event loop from the moment it logged in until every language is loaded and
 * matched (`perf_hooks.monitorEventLoopDelay`, GC pauses apart), while autocomplete queries go one
 * after another from the moment autocomplete first answers. The same-run baseline is what each of
 * those loads used to hold the event loop for: one matcher build over every card in five
 * languages, on this process's event loop.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InteractionResponseType } from 'discord.js';
import { DEFAULT_ALIASES } from '../src/cards/aliases.js';
import { CARD_LANGUAGES } from '../src/cards/card.js';
import { CardMatcher } from '../src/cards/matcher.js';
import { translatedDump } from '../test/fakes/card-translations.js';
import { startBotChild } from './bot-child.js';
import type { StallReading } from './bot-shared.js';
import { TYPED_QUERIES } from './cached-mix.js';
import { matchableCards } from './card-pool.js';
import type { BenchFixtures } from './fixtures.js';
import { copyDataDir, removeDir, timeCallback, type BenchUpstreams } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, summarize, type LatencySummary } from './stats.js';
import type { RawCard } from '../src/cards/normalise-card.js';

/** The targets (#26): from ready through the four language loads. */
const LOOP_DELAY_MAX_TARGET_MS = 50;
const AUTOCOMPLETE_P99_TARGET_MS = 20;
/** Autocompletes between two questions to the bot about its languages. */
const QUERIES_PER_CHECK = 10;
const LANGUAGES_TIMEOUT_MS = 240_000;

interface AfterStartOptions {
  /** Start on an empty DATA_DIR and run until the four languages are matched; otherwise on the English snapshot, for `queries` autocompletes. */
  fresh: boolean;
  queries: number;
}

const SIZES: Readonly<Record<BenchSize, AfterStartOptions>> = {
  full: { fresh: true, queries: 0 },
  // The bot refuses a tiny run's few hundred cards as a truncated download: a start on the snapshot instead.
  tiny: { fresh: false, queries: 5 },
};

export interface AfterStartResult {
  /** The bot's event loop and GC from logged in until English was downloaded and matched (the bot then reports ready). */
  untilEnglish: StallReading;
  /** From then until every language was matched, with autocomplete queries one after another. */
  languages: StallReading;
  /** Autocomplete from the moment it first answered. */
  autocomplete: LatencySummary;
  /** Autocompletes not acknowledged within the timeout (Discord would have shown the user nothing). */
  unanswered: number;
  languagesMatched: string[];
  /** Same-run baseline: one matcher build over every card in five languages on an event loop. */
  onLoopBuildMs: number;
}

/** Longer than Discord's 3 s: a late answer still counts, with its latency. */
const AUTOCOMPLETE_TIMEOUT_MS = 5_000;

async function benchAfterStart(upstreams: BenchUpstreams, cards: RawCard[], compiledScript: string, dataDir: string, options: AfterStartOptions): Promise<AfterStartResult> {
  // The bodies the bot is about to download, built before it starts: the fake building them (seconds
  // of CPU for five databases) would otherwise compete with the bot for the two cores it measures.
  if (options.fresh) upstreams.ygoprodeck.prepareWholeDumps();
  const bot = await startBotChild({ upstreamEnv: upstreams.env, dataDir, compiledScript, splitLongestDelay: true });
  const latencies: number[] = [];
  let unanswered = 0;
  let languages: string[] = [];
  try {
    // The bot reports ready once its English card database is matched: autocomplete answers from here.
    const untilEnglish = bot.stallsUntilReady;
    const deadline = performance.now() + LANGUAGES_TIMEOUT_MS;
    for (let sample = 0; options.fresh ? languages.length < CARD_LANGUAGES.length : sample < options.queries; sample++) {
      const started = bot.discord.autocomplete({ name: 'card', subcommand: 'show', options: { name: TYPED_QUERIES[sample % TYPED_QUERIES.length]! }, focused: 'name' });
      const timed = await timeCallback(started, AUTOCOMPLETE_TIMEOUT_MS).catch(() => null);
      if (timed === null) unanswered++;
      else if (timed.callback.type !== InteractionResponseType.ApplicationCommandAutocompleteResult) throw new Error(`autocomplete answered with type ${timed.callback.type}`);
      else latencies.push(timed.latencyMs);
      if (sample % QUERIES_PER_CHECK === QUERIES_PER_CHECK - 1 || !options.fresh) languages = await bot.languagesReady();
      if (performance.now() > deadline) throw new Error(`after a fresh start: languages ${languages.join(', ') || 'none'} matched within ${LANGUAGES_TIMEOUT_MS / 1000} s`);
    }
    const duringLanguages = await bot.readStalls();
    return { untilEnglish, languages: duringLanguages, autocomplete: summarize(latencies), unanswered, languagesMatched: languages, onLoopBuildMs: onLoopBuild(cards) };
  } finally {
    await bot.stop();
  }
}

/** One build of the five-language matcher on this event loop, as each language load did before #26. */
function onLoopBuild(cards: readonly RawCard[]): number {
  const names = new Map(CARD_LANGUAGES.map((language) => [language, translatedDump(cards, language).map((card): readonly [number, string] => [card.id, card.name])]));
  const started = performance.now();
  new CardMatcher(matchableCards(cards), DEFAULT_ALIASES, { localizedNames: (language) => names.get(language) ?? [] });
  return performance.now() - started;
}

/** The longest delay's split, where the bot could measure it: the bot's own work, and the wait for a core on a busy machine. */
function longest(stalls: StallReading): string {
  const split = stalls.longestDelay;
  if (split === undefined) return '';
  return `longest ${fixed(split.ms, 0)} ms: ${fixed(split.onCpuMs, 0)} ms on a core, ${fixed(split.waitingMs, 0)} ms waiting for one; `;
}

function afterStartRows(result: AfterStartResult): Row[] {
  const { languages, untilEnglish, autocomplete, onLoopBuildMs } = result;
  const baseline = `one five-language matcher build on an event loop (what each load held it for before #26): ${fixed(onLoopBuildMs, 0)} ms in this run`;
  const details = (stalls: StallReading) => `${longest(stalls)}GC pauses max ${fixed(stalls.gcPauseMaxMs, 0)} ms, ${fixed(stalls.gcPauseTotalMs, 0)} ms in all`;
  return [
    {
      area: 'After a fresh start',
      measure: 'event-loop delay, English matched → four languages matched: max (p99)',
      target: `max ≤ ${LOOP_DELAY_MAX_TARGET_MS} ms`,
      measured: `${fixed(languages.loopDelayMaxMs, 0)} ms (${fixed(languages.loopDelayP99Ms, 0)} ms)`,
      comparison: `${fixed(languages.loopDelayMaxMs / onLoopBuildMs, 2)}× ${baseline}; ${details(languages)}`,
      pass: languages.loopDelayMaxMs <= LOOP_DELAY_MAX_TARGET_MS,
    },
    {
      area: 'After a fresh start',
      measure: `autocomplete one after another meanwhile: p99 (${autocomplete.count} queries)`,
      target: `≤ ${AUTOCOMPLETE_P99_TARGET_MS} ms`,
      measured: `${fixed(autocomplete.p99Ms, 1)} ms`,
      comparison: `p50 ${fixed(autocomplete.p50Ms, 1)} ms, max ${fixed(autocomplete.maxMs, 0)} ms, ${result.unanswered} unanswered in ${AUTOCOMPLETE_TIMEOUT_MS / 1000} s; ${fixed(autocomplete.p99Ms / onLoopBuildMs, 2)}× the on-loop build`,
      pass: autocomplete.p99Ms <= AUTOCOMPLETE_P99_TARGET_MS && result.unanswered === 0,
    },
    {
      area: 'After a fresh start',
      measure: 'event-loop delay, logged in → English downloaded and matched: max (p99)',
      target: `max ≤ ${LOOP_DELAY_MAX_TARGET_MS} ms`,
      measured: `${fixed(untilEnglish.loopDelayMaxMs, 0)} ms (${fixed(untilEnglish.loopDelayP99Ms, 0)} ms)`,
      comparison: `${fixed(untilEnglish.loopDelayMaxMs / onLoopBuildMs, 2)}× the on-loop build; ${details(untilEnglish)}`,
      pass: untilEnglish.loopDelayMaxMs <= LOOP_DELAY_MAX_TARGET_MS,
    },
  ];
}

export const afterStartSection: BenchSection = {
  name: 'after-start',
  title: 'the first seconds after a fresh start: event loop and autocomplete while the languages load',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const options = SIZES[size];
    const compiledScript = await fixtures.compiledScript();
    const dataDir = options.fresh ? await mkdtemp(join(tmpdir(), 'almanac-bench-empty-')) : await copyDataDir(await fixtures.snapshotDir('english'));
    try {
      const result = await fixtures.withUpstreams((upstreams) => benchAfterStart(upstreams, fixtures.cards(), compiledScript, dataDir, options));
      return sectionResult(afterStartRows(result), { afterStart: result });
    } finally {
      await removeDir(dataDir);
    }
  },
};
