/**
 * The matchers the card-name benchmark compares: CardMatcher, a plain substring filter and four
 * fuzzy-search libraries, each built from the same cards and search documents.
 */
import uFuzzy from '@leeoniya/ufuzzy';
import { doubleMetaphone } from 'double-metaphone';
import Fuse from 'fuse.js';
import * as fuzzysort from 'fuzzysort';
import MiniSearch from 'minisearch';
import { DEFAULT_ALIASES } from '../src/cards/aliases.js';
import type { CardLanguage } from '../src/cards/card.js';
import type { LocalizedCardNames } from '../src/cards/localized-names.js';
import { CardMatcher, type CardMatcherOptions, type MatchableCard } from '../src/cards/matcher.js';
import { tokenizeCardText } from '../src/cards/card-words.js';
import { SEARCHES_TIMED } from './query-timing.js';

/** Results each contender returns per query; top-5 accuracy needs 5, autocomplete shows 25. */
export const RESULT_LIMIT = 25;

/** A built search: query → card indices, best first. */
export type Search = (query: string) => number[];

/** Names in one other language, searched as well as the English ones (a user of that language). */
export interface SearchLanguage {
  language: CardLanguage;
  names: LocalizedCardNames;
}

export interface Contender {
  name: string;
  /** `documents` already hold the language's names when one is given; CardMatcher indexes them itself. */
  build: (cards: readonly MatchableCard[], documents: readonly SearchDocument[], language?: SearchLanguage) => Search;
}

/**
 * What a library indexes: one string per current name, old name, alias key, zero-padded
 * passcode and name in the user's language, each pointing at its card, normalised the same way
 * CardMatcher normalises (so diacritics and punctuation do not count against the libraries).
 */
export interface SearchDocument {
  card: number;
  text: string;
}

export const normalise = (text: string): string => tokenizeCardText(text).join(' ');

/** CardMatcher, for English or for one more language, with a phonetic key other than its own when given. */
function cardMatcherSearch(soundKey?: CardMatcherOptions['soundKey']): Contender['build'] {
  return (cards, _documents, language) => {
    const matcher = new CardMatcher(cards, DEFAULT_ALIASES, {
      ...SEARCHES_TIMED,
      ...(language === undefined ? {} : { localizedNames: language.names }),
      ...(soundKey === undefined ? {} : { soundKey }),
    });
    const indexById = new Map(cards.map((card, index) => [card.id, index]));
    return (query) => matcher.search(query, RESULT_LIMIT, language?.language).map((match) => indexById.get(match.id) as number);
  };
}

export const CONTENDERS: readonly Contender[] = [
  {
    name: 'CardMatcher (hand-written index)',
    build: cardMatcherSearch(),
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

/**
 * CardMatcher with other phonetic keys, for the sound-alike comparison: none at all, and Double
 * Metaphone (npm `double-metaphone`, primary code) instead of the hand-written soundKey.
 */
export const SOUND_KEY_VARIANTS: readonly Contender[] = [
  { name: 'CardMatcher without a sound key', build: cardMatcherSearch(() => '') },
  { name: 'CardMatcher with Double Metaphone', build: cardMatcherSearch((word) => (/^\d+$/.test(word) ? '' : doubleMetaphone(word)[0])) },
];

/** Search documents for the cards, plus their names in the user's language when given. */
export function searchDocuments(cards: readonly MatchableCard[], language?: SearchLanguage): SearchDocument[] {
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
  if (language !== undefined) {
    const cardById = new Map(cards.map((card, index) => [card.id, index]));
    for (const [passcode, name] of language.names(language.language)) {
      const card = cardById.get(passcode);
      if (card !== undefined) documents.push({ card, text: normalise(name) });
    }
  }
  return documents;
}


/** Libraries return one hit per document; a card can have several (name, old name, alias). */
function distinctCards(cardIndices: number[]): number[] {
  return [...new Set(cardIndices)].slice(0, RESULT_LIMIT);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

