/**
 * Card-name matcher evaluation: accuracy on the labelled queries and latency over the real
 * 13,703-card dump, for CardMatcher and a plain substring filter, and with `--only matcher-libraries`
 * four fuzzy-search libraries too (bench/matcher-contenders.ts); then the sound-alike,
 * translated-name and misc_info sets (bench/matcher-sets.ts); `/card search` over the whole database
 * (bench/card-search.ts).
 *
 * `npm run bench -- --only matcher` (or `matcher-libraries`) prints its markdown tables before the bench table.
 */
import type { RawCard } from '../src/cards/normalise-card.js';
import { CardMatcher, type MatchableCard } from '../src/cards/matcher.js';
import { loadCardDump } from '../test/helpers/card-dump.js';
import { matchableCards } from './card-pool.js';
import { CARD_QUERIES, type LabelledQuery, type QueryCategory } from './card-queries.js';
import type { BenchFixtures } from './fixtures.js';
import { benchCardSearch } from './card-search.js';
import { benchInlineSearch } from './inline-search.js';
import { CONTENDERS, searchDocuments, type Contender, type SearchDocument } from './matcher-contenders.js';
import { benchMatcherSets, formatMatcherSets, type ContenderSets, type MatcherSetsResult } from './matcher-sets.js';
import { timeQueries } from './query-timing.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, percentile } from './stats.js';

/**
 * Timed passes over the whole query set, and the most queries taken from each query list, at each
 * size (the untimed accuracy pass before the timed ones warms the JIT).
 */
const SIZES: Readonly<Record<BenchSize, Required<Omit<MatcherBenchOptions, 'dump' | 'libraries'>>>> = {
  full: { rounds: 5, queryLimit: Number.POSITIVE_INFINITY },
  tiny: { rounds: 1, queryLimit: 8 },
};
/** Timed passes of each /card search (bench/card-search.ts). */
const SEARCH_ROUNDS: Readonly<Record<BenchSize, number>> = { full: 40, tiny: 1 };
/** CardMatcher's targets: top-1 accuracy on the labelled queries, and p99 latency per query. */
const TOP1_TARGET = 0.95;
const P99_TARGET_MS = 2;
/** Stop adding timed passes after this long, so one slow contender (Fuse.js) does not take minutes. */
const TIMING_BUDGET_MS = 3_000;
/** Queries that are not about a card's current name: a library only sees the extra strings we feed it. */
const NON_NAME_CATEGORIES: ReadonlySet<QueryCategory> = new Set(['abbreviation', 'old-name', 'id']);
/**
 * Generated queries: random card names with one random typo each, from a fixed seed. Nobody
 * tuned a matcher on these, unlike the labelled set, so they check that it generalises.
 */
const RANDOM_TYPO_QUERIES = 300;
const RANDOM_TYPO_SEED = 20250425;
/** CONTENDERS' first two: CardMatcher and the substring filter. */
const BASELINE_CONTENDERS = 2;

export interface CategoryAccuracy {
  top1: number;
  total: number;
}

export interface ContenderResult {
  name: string;
  /** Time to build the index from the card list. */
  buildMs: number;
  top1: number;
  top5: number;
  total: number;
  /** Top-1 on queries for current names only (typo, punctuation, partial, word order, prefix, exact). */
  nameTop1: number;
  nameTotal: number;
  /** Top-1 on the generated one-typo queries. */
  randomTypoTop1: number;
  randomTypoTotal: number;
  p50Ms: number;
  p99Ms: number;
  /** Timed passes actually run (fewer than asked when a pass exceeds the time budget). */
  timedRounds: number;
  byCategory: Partial<Record<QueryCategory, CategoryAccuracy>>;
  misses: { query: string; expected: string; got: string | null }[];
}

export interface MatcherBenchResult {
  cards: number;
  queries: number;
  /** Timed passes asked for per contender. */
  rounds: number;
  node: string;
  contenders: ContenderResult[];
  /** How often CardMatcher.best() said "clear" and how often that clear pick was wrong. */
  clearDecisions: { clear: number; wrong: number; total: number };
  /** Sound-alike, translated-name and misc_info sets, CardMatcher's index heap and its latency with languages. */
  sets: MatcherSetsResult;
  markdown: string;
}

export interface MatcherBenchOptions {
  rounds?: number;
  /**
   * Reads the card dump searched, once per use (the whole of it, parsed afresh, by default). A fresh
   * parse each time lets the dump be collected while the contenders are timed, as it always was:
   * 13,703 cards held alive would lengthen the collections that land in the timed queries.
   */
  dump?: () => readonly RawCard[];
  /** At most this many queries from each query list (all of them by default). */
  queryLimit?: number;
  /**
   * The four fuzzy-search libraries and the sound-key variants too, beside CardMatcher and the
   * substring filter (the baseline every run keeps): a third of a full run's time, so only
   * `--only matcher-libraries` compares them.
   */
  libraries?: boolean;
}

/** The whole dump, parsed again (the helper types fewer of its fields). */
function freshDump(): readonly RawCard[] {
  return loadCardDump() as unknown as RawCard[];
}

export async function benchMatcher(options: MatcherBenchOptions = {}): Promise<MatcherBenchResult> {
  const rounds = options.rounds ?? SIZES.full.rounds;
  const queryLimit = options.queryLimit ?? SIZES.full.queryLimit;
  const dump = options.dump ?? freshDump;
  const cards = matchableCards(dump());
  const documents = searchDocuments(cards);
  const expectedIndex = new Map(cards.map((card, index) => [card.name, index]));
  const labelled = CARD_QUERIES.slice(0, queryLimit);
  const randomTypos = randomTypoQueries(cards, Math.min(RANDOM_TYPO_QUERIES, queryLimit));

  const contenders: ContenderResult[] = [];
  for (const contender of options.libraries === true ? CONTENDERS : CONTENDERS.slice(0, BASELINE_CONTENDERS)) {
    contenders.push(evaluate(contender, cards, documents, expectedIndex, labelled, randomTypos, rounds));
    // Let the event loop breathe between contenders so a caller's timers and logs are not starved.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const clearDecisions = measureClearDecisions(cards, labelled);
  const sets = await benchMatcherSets(dump, cards, { timedRounds: rounds, queryLimit, libraries: options.libraries === true });
  const result = {
    cards: cards.length,
    queries: labelled.length,
    rounds,
    node: process.version,
    contenders,
    clearDecisions,
    sets,
  };
  return { ...result, markdown: `${formatMarkdown(result)}\n${formatMatcherSets(sets)}` };
}

function evaluate(
  contender: Contender,
  cards: readonly MatchableCard[],
  documents: readonly SearchDocument[],
  expectedIndex: ReadonlyMap<string, number>,
  labelled: readonly LabelledQuery[],
  randomTypos: readonly RandomTypoQuery[],
  rounds: number,
): ContenderResult {
  const buildStart = performance.now();
  const search = contender.build(cards, documents);
  const buildMs = performance.now() - buildStart;

  const result: ContenderResult = {
    name: contender.name,
    buildMs,
    top1: 0,
    top5: 0,
    total: labelled.length,
    nameTop1: 0,
    nameTotal: 0,
    randomTypoTop1: randomTypos.filter(({ query, card }) => search(query)[0] === card).length,
    randomTypoTotal: randomTypos.length,
    p50Ms: 0,
    p99Ms: 0,
    timedRounds: 0,
    byCategory: {},
    misses: [],
  };
  for (const query of labelled) {
    const found = search(query.query);
    const expected = expectedIndex.get(query.expected);
    const hit = found[0] === expected;
    const category = (result.byCategory[query.category] ??= { top1: 0, total: 0 });
    category.total++;
    if (hit) {
      result.top1++;
      category.top1++;
    } else {
      const first = found[0];
      result.misses.push({ ...pick(query), got: first === undefined ? null : (cards[first] as MatchableCard).name });
    }
    if (found.slice(0, 5).includes(expected as number)) result.top5++;
    if (!NON_NAME_CATEGORIES.has(query.category)) {
      result.nameTotal++;
      if (hit) result.nameTop1++;
    }
  }

  const latencies = timeQueries(({ query }) => search(query), labelled, rounds, TIMING_BUDGET_MS);
  result.timedRounds = latencies.length / labelled.length;
  result.p50Ms = percentile(latencies, 0.5);
  result.p99Ms = percentile(latencies, 0.99);
  return result;
}

interface RandomTypoQuery {
  query: string;
  card: number;
}

/** One deletion, insertion, substitution or swap of adjacent letters in a lowercased name of 8+ characters. */
function randomTypoQueries(cards: readonly MatchableCard[], count: number): RandomTypoQuery[] {
  let state = RANDOM_TYPO_SEED;
  // Park–Miller LCG: deterministic across runs and Node versions, unlike Math.random.
  const next = (bound: number): number => {
    state = (state * 48_271) % 2_147_483_647;
    return state % bound;
  };
  const queries: RandomTypoQuery[] = [];
  while (queries.length < count) {
    const card = next(cards.length);
    const name = (cards[card] as MatchableCard).name.toLowerCase();
    if (name.length < 8) continue;
    const at = next(name.length - 1);
    const letter = String.fromCharCode(97 + next(26));
    const edits = [
      name.slice(0, at) + name.slice(at + 1),
      name.slice(0, at) + letter + name.slice(at),
      name.slice(0, at) + letter + name.slice(at + 1),
      name.slice(0, at) + name.charAt(at + 1) + name.charAt(at) + name.slice(at + 2),
    ];
    queries.push({ query: edits[next(edits.length)] as string, card });
  }
  return queries;
}

function pick({ query, expected }: LabelledQuery): { query: string; expected: string } {
  return { query, expected };
}

function measureClearDecisions(cards: readonly MatchableCard[], labelled: readonly LabelledQuery[]): MatcherBenchResult['clearDecisions'] {
  const matcher = new CardMatcher(cards);
  let clear = 0;
  let wrong = 0;
  for (const { query, expected } of labelled) {
    const best = matcher.best(query);
    if (!best?.clear) continue;
    clear++;
    if (best.match.name !== expected) wrong++;
  }
  return { clear, wrong, total: labelled.length };
}

const CATEGORY_ORDER: readonly QueryCategory[] = [
  'exact',
  'punctuation',
  'typo',
  'partial',
  'word-order',
  'prefix',
  'abbreviation',
  'old-name',
  'id',
];

function formatMarkdown(result: Omit<MatcherBenchResult, 'markdown'>): string {
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
  const lines = [
    `### Card name matcher — ${result.cards} cards, ${result.queries} labelled queries, Node ${result.node}`,
    '',
    '| contender | top-1 | top-5 | top-1 current names | top-1 random typos | p50 ms | p99 ms | build ms | timed rounds |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.contenders.map(
      (c) =>
        `| ${c.name} | ${percent(c.top1, c.total)} | ${percent(c.top5, c.total)} | ${percent(c.nameTop1, c.nameTotal)} | ` +
        `${percent(c.randomTypoTop1, c.randomTypoTotal)} | ${c.p50Ms.toFixed(3)} | ${c.p99Ms.toFixed(3)} | ` +
        `${c.buildMs.toFixed(0)} | ${c.timedRounds} |`,
    ),
    '',
    'Accuracy and latency are over the labelled queries. "top-1 current names" leaves out abbreviations, old ' +
      'names and passcodes, which the libraries only find because they are given those strings as extra ' +
      `documents. "top-1 random typos" is ${result.contenders[0]?.randomTypoTotal ?? 0} card names with one random typo each (fixed seed).`,
    '',
    '#### Top-1 by category',
    '',
    `| contender | ${CATEGORY_ORDER.join(' | ')} |`,
    `|---|${CATEGORY_ORDER.map(() => '---:').join('|')}|`,
    ...result.contenders.map((c) => {
      const cells = CATEGORY_ORDER.map((category) => {
        const accuracy = c.byCategory[category];
        return accuracy ? `${accuracy.top1}/${accuracy.total}` : '–';
      });
      return `| ${c.name} | ${cells.join(' | ')} |`;
    }),
    '',
    `CardMatcher.best() called ${result.clearDecisions.clear} of ${result.clearDecisions.total} queries "clear" ` +
      `(opened without a menu); ${result.clearDecisions.wrong} of those were the wrong card.`,
    '',
  ];
  const ours = result.contenders[0];
  if (ours && ours.misses.length > 0) {
    lines.push(`${ours.name} misses:`, '');
    for (const miss of ours.misses) lines.push(`- \`${miss.query}\` → ${miss.got ?? 'nothing'} (expected ${miss.expected})`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The matcher's rows: labelled accuracy and latency against the libraries, then the newer query sets. */
export function matcherRows(matcher: MatcherBenchResult): Row[] {
  const rows: Row[] = [];
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
  const times = (value: number) => `${fixed(value, 2)}×`;
  const [ours, substring, ...libraries] = matcher.contenders as [ContenderResult, ContenderResult, ...ContenderResult[]];
  const bestLibrary = [...libraries].sort((a, b) => b.top1 - a.top1)[0];
  /** `; Fuse.js 7 …` when the libraries ran, else nothing. */
  const library = (figure: (contender: ContenderResult) => string) => (bestLibrary === undefined ? '' : `; ${bestLibrary.name} ${figure(bestLibrary)}`);
  rows.push(
    {
      area: 'Card matcher',
      measure: `top-1 accuracy, ${matcher.queries} labelled queries`,
      target: `≥ ${TOP1_TARGET * 100} %`,
      measured: percent(ours.top1, ours.total),
      comparison: `substring ${percent(substring.top1, substring.total)} (${times(ours.top1 / substring.top1)})${library((best) => `${percent(best.top1, best.total)} (${times(ours.top1 / best.top1)})`)}`,
      pass: ours.top1 / ours.total >= TOP1_TARGET,
    },
    {
      area: 'Card matcher',
      measure: 'top-5 accuracy',
      target: '–',
      measured: percent(ours.top5, ours.total),
      comparison: `substring ${percent(substring.top5, substring.total)}${library((best) => percent(best.top5, best.total))}`,
      pass: null,
    },
    {
      area: 'Card matcher',
      measure: `latency per query, ${matcher.cards} cards (p50 / p99)`,
      target: `p99 ≤ ${P99_TARGET_MS} ms`,
      measured: `${fixed(ours.p50Ms, 3)} / ${fixed(ours.p99Ms, 3)} ms`,
      comparison: `p99: substring ${fixed(substring.p99Ms, 3)} ms (${times(ours.p99Ms / substring.p99Ms)})${library((best) => `${fixed(best.p99Ms, 3)} ms (${times(ours.p99Ms / best.p99Ms)})`)}`,
      pass: ours.p99Ms <= P99_TARGET_MS,
    },
  );

  const [oursSets, substringSets, ...librarySets] = matcher.sets.contenders.slice(0, matcher.contenders.length);
  // Without the libraries, the substring filter is the comparison.
  const others = librarySets.length > 0 ? librarySets : [substringSets];
  const combined = (sets: ContenderSets | undefined, names: readonly string[]) => {
    const chosen = sets?.sets.filter((set) => names.includes(set.set)) ?? [];
    return { top1: chosen.reduce((sum, set) => sum + set.top1, 0), total: chosen.reduce((sum, set) => sum + set.total, 0) };
  };
  const setGroups: [string, string[]][] = [
    ['sound-alike queries (English and translated names)', ['sound-alike, English', 'sound-alike, translated']],
    ['translated-name queries (fr/de/it/pt users)', ['translated names']],
    ['old names and popular prefixes (misc_info fixture)', ['old names (misc_info)', 'popular prefixes (misc_info)']],
  ];
  for (const [measure, names] of setGroups) {
    const score = combined(oursSets, names);
    const best = others
      .map((sets) => ({ name: sets?.name ?? '', ...combined(sets, names) }))
      .sort((a, b) => b.top1 - a.top1)[0];
    rows.push({
      area: 'Card matcher',
      measure: `top-1 accuracy, ${score.total} ${measure}`,
      target: '–',
      measured: percent(score.top1, score.total),
      comparison: best === undefined ? '–' : `${best.name} ${percent(best.top1, best.total)}`,
      pass: null,
    });
  }
  const { frenchUser, footprint } = matcher.sets;
  rows.push({
    area: 'Card matcher',
    measure: 'latency per query with fr/de/it/pt names loaded, French user (p50 / p99)',
    target: `p99 ≤ ${P99_TARGET_MS} ms`,
    measured: `${fixed(frenchUser.p50Ms, 3)} / ${fixed(frenchUser.p99Ms, 3)} ms`,
    comparison: `English only: ${fixed(ours.p99Ms, 3)} ms p99`,
    pass: frenchUser.p99Ms <= P99_TARGET_MS,
  });
  if (footprint !== null) {
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    rows.push({
      area: 'Card matcher',
      measure: 'index memory after GC, heap + typed arrays',
      target: '–',
      measured: `${mb(footprint.withLanguages.heapBytes)} + ${mb(footprint.withLanguages.arrayBufferBytes)} with fr/de/it/pt names`,
      comparison: `English only ${mb(footprint.english.heapBytes)} + ${mb(footprint.english.arrayBufferBytes)}`,
      pass: null,
    });
  }
  return rows;
}

export const matcherSection: BenchSection = {
  name: 'matcher',
  title: 'card matcher against the substring filter (labelled, random-typo, sound-alike, translated-name and misc_info queries), inline search',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const dump = size === 'full' ? freshDump : () => fixtures.cards();
    const matcher = await benchMatcher({ ...SIZES[size], dump });
    const { markdown, ...figures } = matcher;
    const inline = benchInlineSearch(matchableCards(dump()), SIZES[size].rounds, SIZES[size].queryLimit);
    const cardSearch = await benchCardSearch(dump(), SEARCH_ROUNDS[size]);
    return sectionResult([...matcherRows(matcher), ...inline, ...cardSearch], { matcher: figures, inlineSearch: inline, cardSearch }, markdown);
  },
};

/** The same queries against the four fuzzy-search libraries and the sound-key variants: why CardMatcher is hand-written. */
export const matcherLibrariesSection: BenchSection = {
  name: 'matcher-libraries',
  title: 'card matcher against four fuzzy-search libraries and other sound keys (only with --only)',
  assertions: false,
  inFullRun: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const dump = size === 'full' ? freshDump : () => fixtures.cards();
    const matcher = await benchMatcher({ ...SIZES[size], dump, libraries: true });
    const { markdown, ...figures } = matcher;
    return sectionResult(matcherRows(matcher), { matcherLibraries: figures }, markdown);
  },
};
