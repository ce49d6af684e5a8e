/**
 * What cards named inline (`MESSAGE_SEARCH=true`) cost per message before any I/O: reading the
 * names out of the text (src/cards/inline-names.ts) and matching each one as `CardService.resolve`
 * does (the best match; the candidates too when it is not clear). Every message a server writes pays
 * the first part, so it is timed against chat that names no card at all.
 */
import { DEFAULT_ALIASES } from '../src/cards/aliases.js';
import { CardMatcher, type MatchableCard } from '../src/cards/matcher.js';
import { inlineCardNames } from '../src/cards/inline-names.js';
import { CARD_QUERIES } from './card-queries.js';
import { SEARCHES_TIMED, timeQueries } from './query-timing.js';
import type { Row } from './section.js';
import { fixed, percentile } from './stats.js';

/** "Did you mean" candidates looked up for a name matched only loosely, as `/card show` does. */
const CANDIDATES = 25;
const TIMING_BUDGET_MS = 3_000;

/** Chat as players write it, naming cards in both syntaxes, among Discord's own tokens and code. */
function namingMessages(queryLimit: number): { query: string }[] {
  const names = CARD_QUERIES.slice(0, Math.max(3, queryLimit)).map((query) => query.query);
  return names.map((_, index) => ({
    query:
      `<@1356000000000000200> is <${names[index]}> still worth it vs [[${names[(index + 1) % names.length]}]]? ` +
      `I side <${names[(index + 2) % names.length]}> :) \`<not this>\` ||<nor this>||`,
  }));
}

/** The same chat naming no card: what every other message costs. */
function plainMessages(count: number): { query: string }[] {
  return Array.from({ length: count }, (_, index) => ({
    query: `<@1356000000000000200> is the ${index}th deck still worth it vs the other one? <t:1700000000:R> I side three :) \`<code>\` ||spoiler||`,
  }));
}

export function benchInlineSearch(cards: readonly MatchableCard[], rounds: number, queryLimit: number): Row[] {
  const matcher = new CardMatcher(cards, DEFAULT_ALIASES, SEARCHES_TIMED);
  const answer = ({ query }: { query: string }) => {
    for (const name of inlineCardNames(query)) {
      const best = matcher.best(name);
      if (best !== null && !best.clear) matcher.search(name, CANDIDATES);
    }
  };
  const naming = namingMessages(queryLimit);
  const plain = plainMessages(naming.length);
  // One untimed pass each warms the JIT, as the matcher's accuracy pass does for its timings.
  naming.forEach(answer);
  plain.forEach(answer);
  const namingMs = timeQueries(answer, naming, rounds, TIMING_BUDGET_MS);
  const plainMs = timeQueries(answer, plain, rounds, TIMING_BUDGET_MS);
  return [
    {
      area: 'Card matcher',
      measure: `cards named inline: cost per message naming 3 cards, ${cards.length} cards (p50 / p99)`,
      target: '–',
      measured: `${fixed(percentile(namingMs, 0.5), 3)} / ${fixed(percentile(namingMs, 0.99), 3)} ms`,
      comparison: `a message naming none: ${fixed(percentile(plainMs, 0.5), 4)} / ${fixed(percentile(plainMs, 0.99), 4)} ms`,
      pass: null,
    },
  ];
}
