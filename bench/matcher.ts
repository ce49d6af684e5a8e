/**
 * Card-name matcher evaluation: accuracy on the labelled queries and latency over the real
 * 13,703-card dump, for CardMatcher, a plain substring filter and four fuzzy-search libraries.
 *
 * Standalone: `npx tsx bench/matcher.ts` prints a markdown table. `bench/run.ts` imports
 * `benchMatcher`.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import uFuzzy from '@leeoniya/ufuzzy';
import Fuse from 'fuse.js';
import * as fuzzysort from 'fuzzysort';
import MiniSearch from 'minisearch';
import { DEFAULT_ALIASES } from '../src/cards/aliases.js';
import { CardMatcher, tokenizeCardText, type MatchableCard } from '../src/cards/matcher.js';
import { CARD_QUERIES, OLD_CARD_NAMES, type LabelledQuery, type QueryCategory } from './card-queries.js';

const DUMP_URL = new URL('../test/fixtures/cardinfo-2025-04-25.json.br', import.meta.url);
/** Results each contender returns per query; top-5 accuracy needs 5, autocomplete shows 25. */
const RESULT_LIMIT = 25;
/** Timed passes over the whole query set; the untimed accuracy pass before them warms the JIT. */
const DEFAULT_ROUNDS = 5;
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
  markdown: string;
}

export interface MatcherBenchOptions {
  rounds?: number;
}

/** A built search: query → card indices, best first. */
type Search = (query: string) => number[];

interface Contender {
  name: string;
  build: (cards: readonly MatchableCard[], documents: readonly SearchDocument[]) => Search;
}

/**
 * What a library indexes: one string per current name, old name, alias key and zero-padded
 * passcode, each pointing at its card, normalised the same way CardMatcher normalises (so
 * diacritics and punctuation do not count against the libraries).
 */
interface SearchDocument {
  card: number;
  text: string;
}

const normalise = (text: string): string => tokenizeCardText(text).join(' ');

const CONTENDERS: readonly Contender[] = [
  {
    name: 'CardMatcher (hand-written index)',
    build: (cards) => {
      const matcher = new CardMatcher(cards);
      const indexById = new Map(cards.map((card, index) => [card.id, index]));
      return (query) => matcher.search(query, RESULT_LIMIT).map((match) => indexById.get(match.id) as number);
    },
  },
  {
    // What YGOPRODeck's `fname` does: case-insensitive substring on current names, sorted by name.
    name: 'substring filter (fname)',
    build: (cards) => {
      const lowerNames = cards.map((card) => card.name.toLowerCase());
      const byName = [...cards.keys()].sort((a, b) => compareStrings(lowerNames[a] as string, lowerNames[b] as string));
      return (query) => {
        const needle = query.toLowerCase();
        const matches: number[] = [];
        for (const index of byName) {
          if ((lowerNames[index] as string).includes(needle)) matches.push(index);
          if (matches.length === RESULT_LIMIT) break;
        }
        return matches;
      };
    },
  },
  {
    name: 'Fuse.js 7',
    build: (_cards, documents) => {
      // ignoreLocation: card words matter wherever they are in the name. Of thresholds 0.3–0.6,
      // 0.5 had the best top-1 on the labelled set (0.3: 171, 0.4: 173, 0.5: 175, 0.6: 174 of 189).
      const fuse = new Fuse(documents, { keys: ['text'], threshold: 0.5, ignoreLocation: true });
      return (query) =>
        distinctCards(fuse.search(normalise(query), { limit: RESULT_LIMIT * 2 }).map((result) => result.item.card));
    },
  },
  {
    name: 'fuzzysort 4',
    build: (_cards, documents) => {
      const targets = fuzzysort.snapshot(documents, { key: 'text' });
      return (query) =>
        distinctCards(
          fuzzysort.go(normalise(query), targets, { limit: RESULT_LIMIT * 2, threshold: 0 }).map((result) => result.obj.card),
        );
    },
  },
  {
    name: 'MiniSearch 7',
    build: (_cards, documents) => {
      const miniSearch = new MiniSearch<SearchDocument & { id: number }>({
        fields: ['text'],
        storeFields: ['card'],
        // Documents are already normalised; the query goes through the same tokenizer.
        tokenize: (text) => text.split(' '),
        processTerm: (term) => term,
        // Tried on the labelled set: combineWith 'AND' lost 5 queries, fuzzy only on terms over 3
        // letters changed nothing, fuzzy 0.25 with custom weights won 1 query and was slower.
        searchOptions: { prefix: true, fuzzy: 0.2, combineWith: 'OR' },
      });
      miniSearch.addAll(documents.map((document, id) => ({ id, ...document })));
      return (query) =>
        distinctCards(
          miniSearch
            .search(normalise(query))
            .slice(0, RESULT_LIMIT * 2)
            .map((result) => result['card'] as number),
        );
    },
  },
  {
    name: 'uFuzzy 1',
    build: (_cards, documents) => {
      // SingleError mode: one substitution, transposition, insertion or deletion per term. It beat
      // MultiInsert (150 vs 168 of 189) and the stricter term-boundary modes (156–167).
      const fuzzy = new uFuzzy({ intraMode: 1, intraIns: 1, intraSub: 1, intraTrn: 1, intraDel: 1 });
      const haystack = documents.map((document) => document.text);
      return (query) => {
        // outOfOrder = 3: permute up to 3 terms so word order does not matter (3! = 6 passes).
        const [indexes, info, order] = fuzzy.search(haystack, normalise(query), 3);
        if (indexes === null) return [];
        const ranked = info && order ? order.map((position) => info.idx[position] as number) : indexes;
        return distinctCards(ranked.slice(0, RESULT_LIMIT * 2).map((index) => (documents[index] as SearchDocument).card));
      };
    },
  },
];

export async function benchMatcher(options: MatcherBenchOptions = {}): Promise<MatcherBenchResult> {
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const cards = loadMatchableCards();
  const documents = searchDocuments(cards);
  const expectedIndex = new Map(cards.map((card, index) => [card.name, index]));
  const randomTypos = randomTypoQueries(cards);

  const contenders: ContenderResult[] = [];
  for (const contender of CONTENDERS) {
    contenders.push(evaluate(contender, cards, documents, expectedIndex, randomTypos, rounds));
    // Let the event loop breathe between contenders so a caller's timers and logs are not starved.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const clearDecisions = measureClearDecisions(cards);
  const result = {
    cards: cards.length,
    queries: CARD_QUERIES.length,
    rounds,
    node: process.version,
    contenders,
    clearDecisions,
  };
  return { ...result, markdown: formatMarkdown(result) };
}

function loadMatchableCards(): MatchableCard[] {
  const dump = JSON.parse(brotliDecompressSync(readFileSync(DUMP_URL)).toString('utf8')) as { id: number; name: string }[];
  const oldNamesByCard = new Map<string, string[]>();
  for (const [oldName, current] of Object.entries(OLD_CARD_NAMES)) {
    oldNamesByCard.set(current, [...(oldNamesByCard.get(current) ?? []), oldName]);
  }
  return dump.map(({ id, name }) => {
    const altNames = oldNamesByCard.get(name);
    return altNames ? { id, name, altNames } : { id, name };
  });
}

function searchDocuments(cards: readonly MatchableCard[]): SearchDocument[] {
  const cardByName = new Map(cards.map((card, index) => [card.name, index]));
  const documents: SearchDocument[] = [];
  cards.forEach((card, index) => {
    for (const text of [card.name, ...(card.altNames ?? []), String(card.id).padStart(8, '0')]) {
      documents.push({ card: index, text: normalise(text) });
    }
  });
  for (const [abbreviation, target] of Object.entries(DEFAULT_ALIASES)) {
    const card = cardByName.get(target);
    if (card !== undefined) documents.push({ card, text: normalise(abbreviation) });
  }
  return documents;
}

function evaluate(
  contender: Contender,
  cards: readonly MatchableCard[],
  documents: readonly SearchDocument[],
  expectedIndex: ReadonlyMap<string, number>,
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
    total: CARD_QUERIES.length,
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
  for (const labelled of CARD_QUERIES) {
    const found = search(labelled.query);
    const expected = expectedIndex.get(labelled.expected);
    const hit = found[0] === expected;
    const category = (result.byCategory[labelled.category] ??= { top1: 0, total: 0 });
    category.total++;
    if (hit) {
      result.top1++;
      category.top1++;
    } else {
      const first = found[0];
      result.misses.push({ ...pick(labelled), got: first === undefined ? null : (cards[first] as MatchableCard).name });
    }
    if (found.slice(0, 5).includes(expected as number)) result.top5++;
    if (!NON_NAME_CATEGORIES.has(labelled.category)) {
      result.nameTotal++;
      if (hit) result.nameTop1++;
    }
  }

  const latencies = timeQueries(search, rounds);
  result.timedRounds = latencies.length / CARD_QUERIES.length;
  result.p50Ms = percentile(latencies, 0.5);
  result.p99Ms = percentile(latencies, 0.99);
  return result;
}

interface RandomTypoQuery {
  query: string;
  card: number;
}

/** One deletion, insertion, substitution or swap of adjacent letters in a lowercased name of 8+ characters. */
function randomTypoQueries(cards: readonly MatchableCard[]): RandomTypoQuery[] {
  let state = RANDOM_TYPO_SEED;
  // Park–Miller LCG: deterministic across runs and Node versions, unlike Math.random.
  const next = (bound: number): number => {
    state = (state * 48_271) % 2_147_483_647;
    return state % bound;
  };
  const queries: RandomTypoQuery[] = [];
  while (queries.length < RANDOM_TYPO_QUERIES) {
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

/** Up to `rounds` timed passes, one sample per query per pass, sorted ascending. */
function timeQueries(search: Search, rounds: number): Float64Array {
  const samples = new Float64Array(rounds * CARD_QUERIES.length);
  const budgetEnd = performance.now() + TIMING_BUDGET_MS;
  let sample = 0;
  for (let round = 0; round < rounds && (round === 0 || performance.now() < budgetEnd); round++) {
    for (const { query } of CARD_QUERIES) {
      const start = performance.now();
      search(query);
      samples[sample++] = performance.now() - start;
    }
  }
  return samples.subarray(0, sample).sort();
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: Float64Array, fraction: number): number {
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

function measureClearDecisions(cards: readonly MatchableCard[]): MatcherBenchResult['clearDecisions'] {
  const matcher = new CardMatcher(cards);
  let clear = 0;
  let wrong = 0;
  for (const { query, expected } of CARD_QUERIES) {
    const best = matcher.best(query);
    if (!best?.clear) continue;
    clear++;
    if (best.match.name !== expected) wrong++;
  }
  return { clear, wrong, total: CARD_QUERIES.length };
}

/** Libraries return one hit per document; a card can have several (name, old name, alias). */
function distinctCards(cardIndices: number[]): number[] {
  return [...new Set(cardIndices)].slice(0, RESULT_LIMIT);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
      `documents. "top-1 random typos" is ${RANDOM_TYPO_QUERIES} card names with one random typo each (fixed seed).`,
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

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchMatcher();
  console.log(result.markdown);
}
