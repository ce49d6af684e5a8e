/**
 * The matcher benchmark's newer query sets, side by side for every contender: names typed by
 * sound (English and translated), names in the user's language, and on the `misc_info` fixture old
 * names and popular prefixes; then CardMatcher's own figures with translations loaded: the heap its
 * index holds with English names only and with four more languages, and its latency for a French
 * user.
 */
import { exposedGc } from './gc.js';
import { DEFAULT_ALIASES } from '../src/cards/aliases.js';
import { CARD_LANGUAGES, type CardLanguage } from '../src/cards/card.js';
import type { RawCard } from '../src/cards/normalise-card.js';
import type { LocalizedCardNames } from '../src/cards/localized-names.js';
import { CardMatcher, type MatchableCard } from '../src/cards/matcher.js';
import { cardsWithMiscInfo } from './card-pool.js';
import { translatedDump } from '../test/fakes/card-translations.js';
import { CARD_QUERIES } from './card-queries.js';
import { SOUND_ALIKE_QUERIES, TRANSLATED_QUERIES, type LanguageQuery } from './language-queries.js';
import { CONTENDERS, searchDocuments, SOUND_KEY_VARIANTS, type Contender, type Search } from './matcher-contenders.js';
import { BETA_NAME_QUERIES, POPULAR_PREFIX_QUERIES } from './misc-info-queries.js';
import { SEARCHES_TIMED, timeQueries } from './query-timing.js';
import { percentile } from './stats.js';

const TIMING_BUDGET_MS = 3_000;
const FOOTPRINT_COPIES = 4;

export interface SetAccuracy {
  set: string;
  top1: number;
  total: number;
  misses: { query: string; expected: string; got: string | null }[];
}

export interface ContenderSets {
  name: string;
  sets: SetAccuracy[];
}

export interface IndexFootprint {
  /** Live heap the matcher holds after a full GC (its own strings, maps and arrays). */
  heapBytes: number;
  /** Typed-array memory outside the heap (postings, scratch buffers). */
  arrayBufferBytes: number;
  entries: number;
  buildMs: number;
}

export interface MatcherSetsResult {
  contenders: ContenderSets[];
  /** CardMatcher on the labelled set with every card's `misc_info` (views, beta names, Konami ids). */
  labelledWithMiscInfo: { top1: number; total: number };
  /** Null when the heap could not be measured (no GC access). */
  footprint: { english: IndexFootprint; withLanguages: IndexFootprint } | null;
  /** CardMatcher with all four languages loaded, a French user typing the labelled and translated queries. */
  frenchUser: { p50Ms: number; p99Ms: number; samples: number };
}

interface SetDefinition {
  set: string;
  queries: readonly LanguageQuery[];
  /** The card list: the plain dump, or the dump with the `misc_info` fixture. */
  pool: 'plain' | 'misc';
}

const SET_DEFINITIONS: readonly SetDefinition[] = [
  { set: 'sound-alike, English', queries: SOUND_ALIKE_QUERIES.filter((query) => query.language === undefined), pool: 'plain' },
  { set: 'sound-alike, translated', queries: SOUND_ALIKE_QUERIES.filter((query) => query.language !== undefined), pool: 'plain' },
  { set: 'translated names', queries: TRANSLATED_QUERIES, pool: 'plain' },
  { set: 'old names (misc_info)', queries: BETA_NAME_QUERIES, pool: 'misc' },
  { set: 'popular prefixes (misc_info)', queries: POPULAR_PREFIX_QUERIES, pool: 'misc' },
];

export interface MatcherSetsOptions {
  /** Timed passes for the French user's latency. */
  timedRounds: number;
  /** At most this many queries from each set. */
  queryLimit: number;
  /** The libraries and sound-key variants too (see `MatcherBenchOptions.libraries`), else CardMatcher and the substring filter. */
  libraries: boolean;
}

/** The sets over the card dump `dump()` reads (`plainCards` is it as the matcher sees it). */
export async function benchMatcherSets(dump: () => readonly RawCard[], plainCards: readonly MatchableCard[], options: MatcherSetsOptions): Promise<MatcherSetsResult> {
  const miscCards = cardsWithMiscInfo(dump());
  const names = materializedNames(dump());
  const labelledQueries = CARD_QUERIES.slice(0, options.queryLimit);
  const sets = SET_DEFINITIONS.map((definition) => ({ ...definition, queries: definition.queries.slice(0, options.queryLimit) }));
  const contenders: ContenderSets[] = [];
  for (const contender of options.libraries ? CONTENDERS : CONTENDERS.slice(0, 2)) {
    const searches = new SearchCache(contender, plainCards, miscCards, names);
    contenders.push({ name: contender.name, sets: sets.map((definition) => accuracy(definition, searches)) });
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const variant of options.libraries ? SOUND_KEY_VARIANTS : []) {
    const searches = new SearchCache(variant, plainCards, miscCards, names);
    const soundSets = sets.filter((definition) => definition.set.startsWith('sound-alike'));
    const labelled = accuracy({ set: 'labelled', queries: labelledQueries, pool: 'plain' }, searches);
    contenders.push({ name: variant.name, sets: [...soundSets.map((definition) => accuracy(definition, searches)), labelled] });
  }

  const miscMatcher = new CardMatcher(miscCards, DEFAULT_ALIASES);
  const labelledWithMiscInfo = {
    top1: labelledQueries.filter(({ query, expected }) => miscMatcher.search(query, 1)[0]?.name === expected).length,
    total: labelledQueries.length,
  };

  const allLanguages: LocalizedCardNames = (language) => names.get(language) ?? [];
  const french = new CardMatcher(plainCards, DEFAULT_ALIASES, { ...SEARCHES_TIMED, localizedNames: allLanguages });
  const frenchQueries = [...labelledQueries, ...TRANSLATED_QUERIES.filter((query) => query.language === 'fr').slice(0, options.queryLimit)];
  for (const { query } of frenchQueries) french.search(query, 25, 'fr');
  const samples = timeQueries(({ query }) => french.search(query, 25, 'fr'), frenchQueries, options.timedRounds, TIMING_BUDGET_MS);

  return {
    contenders,
    labelledWithMiscInfo,
    footprint: measureFootprints(plainCards, allLanguages),
    frenchUser: { p50Ms: percentile(samples, 0.5), p99Ms: percentile(samples, 0.99), samples: samples.length },
  };
}

/**
 * Each language's names as the fake YGOPRODeck's language dumps have them (generated for the whole
 * pool, printed names for well-known cards), made once and kept as a language database holds them:
 * the matcher then only references them, and its measured heap is its own.
 */
function materializedNames(dump: readonly RawCard[]): Map<CardLanguage, (readonly [number, string])[]> {
  return new Map(CARD_LANGUAGES.map((language) => [language, translatedDump(dump, language).map((card): readonly [number, string] => [card.id, card.name])]));
}

/** One contender's searches per card pool and language, built on first use. */
class SearchCache {
  private readonly built = new Map<string, Search>();

  constructor(
    private readonly contender: Contender,
    private readonly plainCards: readonly MatchableCard[],
    private readonly miscCards: readonly MatchableCard[],
    private readonly names: ReadonlyMap<CardLanguage, (readonly [number, string])[]>,
  ) {}

  /** The search and the card list its results index into. */
  get(pool: SetDefinition['pool'], language: CardLanguage | undefined): { search: Search; cards: readonly MatchableCard[] } {
    const cards = pool === 'plain' ? this.plainCards : this.miscCards;
    const key = `${pool}:${language ?? 'en'}`;
    let search = this.built.get(key);
    if (search === undefined) {
      const names = language === undefined ? undefined : this.names.get(language);
      const searchLanguage = language === undefined || names === undefined ? undefined : { language, names: () => names };
      search = this.contender.build(cards, searchDocuments(cards, searchLanguage), searchLanguage);
      this.built.set(key, search);
    }
    return { search, cards };
  }
}

function accuracy(definition: SetDefinition, searches: SearchCache): SetAccuracy {
  const result: SetAccuracy = { set: definition.set, top1: 0, total: definition.queries.length, misses: [] };
  for (const { query, expected, language } of definition.queries) {
    const { search, cards } = searches.get(definition.pool, language);
    const first = search(query)[0];
    const got = first === undefined ? null : (cards[first] as MatchableCard).name;
    if (got === expected) result.top1++;
    else result.misses.push({ query: language === undefined ? query : `${query} (${language})`, expected, got });
  }
  return result;
}

/** The matcher's retained heap with English names only, and with all four languages' names. */
function measureFootprints(cards: readonly MatchableCard[], allLanguages: LocalizedCardNames): MatcherSetsResult['footprint'] {
  const gc = exposedGc();
  if (gc === undefined) return null;
  return {
    english: footprint(gc, () => new CardMatcher(cards, DEFAULT_ALIASES)),
    withLanguages: footprint(gc, () => new CardMatcher(cards, DEFAULT_ALIASES, { localizedNames: allLanguages })),
  };
}

/**
 * Heap and typed-array growth per matcher, over a few copies built and kept together: one
 * matcher's delta alone varies by several MB with what the collector happens to leave.
 */
function footprint(gc: () => void, build: () => CardMatcher): IndexFootprint {
  gc();
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const first = build();
  const buildMs = performance.now() - started;
  const copies = [first, ...Array.from({ length: FOOTPRINT_COPIES - 1 }, build)];
  gc();
  gc();
  const after = process.memoryUsage();
  return {
    heapBytes: (after.heapUsed - before.heapUsed) / copies.length,
    arrayBufferBytes: (after.arrayBuffers - before.arrayBuffers) / copies.length,
    entries: first.entryCount,
    buildMs,
  };
}

export function formatMatcherSets(result: MatcherSetsResult): string {
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
  const setNames = [...new Set(result.contenders.flatMap((contender) => contender.sets.map((set) => set.set)))];
  const lines = [
    '#### Sound-alike, translated-name and misc_info sets (top-1)',
    '',
    `| contender | ${setNames.join(' | ')} |`,
    `|---|${setNames.map(() => '---:').join('|')}|`,
    ...result.contenders.map((contender) => {
      const cells = setNames.map((name) => {
        const set = contender.sets.find((candidate) => candidate.set === name);
        return set === undefined ? '–' : `${set.top1}/${set.total}`;
      });
      return `| ${contender.name} | ${cells.join(' | ')} |`;
    }),
    '',
    'Translated names are the hand-entered printed names of test/fakes/printed-card-names.ts among the generated ' +
      'translations of every other card that the fake YGOPRODeck serves (test/fakes/card-translations.ts); each contender searches English ' +
      'names plus those of the query\'s language. misc_info sets use test/fixtures/misc-info-2025-04-25.json.br. The two ' +
      'CardMatcher variants show what the sound key adds, and that the labelled set does not depend on it.',
    '',
    `CardMatcher on the labelled set with every card's misc_info (views, beta names, Konami ids): ` +
      `${percent(result.labelledWithMiscInfo.top1, result.labelledWithMiscInfo.total)}.`,
    '',
    `CardMatcher with four languages loaded, a French user (${result.frenchUser.samples} samples): ` +
      `p50 ${result.frenchUser.p50Ms.toFixed(3)} ms, p99 ${result.frenchUser.p99Ms.toFixed(3)} ms.`,
    '',
  ];
  if (result.footprint !== null) {
    const { english, withLanguages } = result.footprint;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    lines.push(
      `CardMatcher index after a full GC: English ${mb(english.heapBytes)} heap + ${mb(english.arrayBufferBytes)} typed arrays ` +
        `(${english.entries} names, built in ${english.buildMs.toFixed(0)} ms); with fr/de/it/pt names ${mb(withLanguages.heapBytes)} heap + ` +
        `${mb(withLanguages.arrayBufferBytes)} typed arrays (${withLanguages.entries} names, ${withLanguages.buildMs.toFixed(0)} ms). ` +
        'The translated names themselves belong to the language databases and are not counted.',
      '',
    );
  }
  const ours = result.contenders[0];
  const misses = ours?.sets.flatMap((set) => set.misses.map((miss) => ({ ...miss, set: set.set }))) ?? [];
  if (ours !== undefined && misses.length > 0) {
    lines.push(`${ours.name} misses in these sets:`, '');
    for (const miss of misses) lines.push(`- ${miss.set}: \`${miss.query}\` → ${miss.got ?? 'nothing'} (expected ${miss.expected})`);
    lines.push('');
  }
  return lines.join('\n');
}
