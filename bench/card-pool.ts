/**
 * The cards the bench works on: the real 2025-04-25 dump (13,703 cards), or for a tiny run a few
 * hundred of them that still hold every card a query or a scenario names, so that each step finds
 * what it looks for. Also the dump as the matcher sees it: with the curated old names (the shipped
 * dump has no `misc_info`), or with the `misc_info` fixture (beta names, views, Konami ids).
 */
import type { RawCard } from '../src/cards/normalise-card.js';
import type { MatchableCard } from '../src/cards/matcher.js';
import { loadCardDump } from '../test/fakes/ygoprodeck.js';
import { loadMiscInfo } from '../test/helpers/misc-info.js';
import { CACHED_CARDS } from './cached-mix.js';
import { CARD_QUERIES, OLD_CARD_NAMES } from './card-queries.js';
import { SOUND_ALIKE_QUERIES, TRANSLATED_QUERIES } from './language-queries.js';
import { BETA_NAME_QUERIES, POPULAR_PREFIX_QUERIES } from './misc-info-queries.js';
import type { BenchSize } from './row.js';

/** Cards of a tiny run besides the named ones: enough for searches to have competitors. */
const TINY_SAMPLE = 200;

/**
 * The whole dump (read once per process), or a tiny run's share of it, in the dump's order. Frozen:
 * the fake YGOPRODeck then builds each whole-database body once per list (see its `prepareWholeDumps`)
 * instead of once per download.
 */
export function benchCards(size: BenchSize): RawCard[] {
  const all = loadCardDump();
  if (size === 'full') return frozen(all);
  const names = new Set(
    [...CARD_QUERIES, ...SOUND_ALIKE_QUERIES, ...TRANSLATED_QUERIES, ...BETA_NAME_QUERIES, ...POPULAR_PREFIX_QUERIES].map((query) => query.expected),
  );
  for (const current of Object.values(OLD_CARD_NAMES)) names.add(current);
  const ids = new Set<number>(CACHED_CARDS);
  const stride = Math.floor(all.length / TINY_SAMPLE);
  return frozen(all.filter((card, index) => names.has(card.name) || ids.has(card.id) || index % stride === 0));
}

function frozen(cards: RawCard[]): RawCard[] {
  Object.freeze(cards);
  return cards;
}

/** Every card with its curated old names (OLD_CARD_NAMES) as `altNames`, no popularity. */
export function matchableCards(dump: readonly RawCard[]): MatchableCard[] {
  const oldNamesByCard = new Map<string, string[]>();
  for (const [oldName, current] of Object.entries(OLD_CARD_NAMES)) {
    oldNamesByCard.set(current, [...(oldNamesByCard.get(current) ?? []), oldName]);
  }
  return dump.map(({ id, name }) => {
    const altNames = oldNamesByCard.get(name);
    return altNames ? { id, name, altNames } : { id, name };
  });
}

/** Every card as the bot builds it from a `misc=yes` download: beta name, views and Konami id from the fixture. */
export function cardsWithMiscInfo(dump: readonly RawCard[]): MatchableCard[] {
  const misc = loadMiscInfo();
  return dump.map(({ id, name }) => {
    const info = misc.get(id);
    if (info === undefined) return { id, name };
    return { id, name, popularity: info.views, konamiId: info.konami_id, ...(info.beta_name === undefined ? {} : { altNames: [info.beta_name] }) };
  });
}
