import type { CardLanguage } from '../../cards/card.js';
import type { CardSummary } from '../../cards/card-summary.js';
import { matchesFilters, type CardSearchFilters } from '../../cards/search-filters.js';
import type { CardSearchTerms } from '../../cards/search-query.js';
import { cardsWithText, holdsWord, needle, WordIndex, wordIndexOf, type EffectTexts } from '../../cards/text-search.js';

/**
 * `/card search` over the loaded database: the frame and stat filters on the live summaries, the
 * words and phrases on the names (fuzzy, through the matcher) and on the effect texts (read where
 * they are held, in the user's language for the cards translated there). Local only.
 */

export interface SearchSource {
  summaries(): readonly CardSummary[];
  summaryById(id: number): CardSummary | undefined;
  /** Fuzzy name matches of `words`, best first (in `language` too). */
  nameMatches(words: string, language: CardLanguage | undefined): CardSummary[];
  /** The card's name in `language`, when it has one there. */
  localNames(language: CardLanguage): ReadonlyMap<number, string>;
  effectTexts(language?: CardLanguage): EffectTexts | null;
}

/**
 * Every match, ranked: name matches first (best first), then the cards whose texts hold the text
 * terms and phrases (and, among those, the loose words), most viewed first.
 */
export function rankedSearch(source: SearchSource, terms: CardSearchTerms, filters: CardSearchFilters, language: CardLanguage | undefined): CardSummary[] {
  const words = terms.words.trim();
  const passes = (card: CardSummary) => matchesFilters(card, filters);
  const named = words === '' ? [] : source.nameMatches(words, language).filter(passes);
  // Loose words alone search the names, as they always have: the effect texts are read for `text`
  // and quoted phrases only (a replay of members' searches built every language's word index, and
  // the heap grew 30 MB for names found without them).
  if (terms.phrases.length === 0 && terms.text.length === 0) {
    return words === '' ? source.summaries().filter(passes).sort(byViews) : named;
  }
  const namedIds = new Set(named.map((card) => card.id));
  const localNames = language === undefined ? undefined : source.localNames(language);
  const wordNeedles = words.toLowerCase().split(/\s+/).filter((word) => word !== '').map(needle);
  const phraseNeedles = terms.phrases.map(needle);
  const textNeedles = terms.text.map(needle);
  const inName = (id: number, phrase: string): boolean => {
    const english = source.summaryById(id)?.name.toLowerCase() ?? '';
    return english.includes(phrase) || (localNames?.get(id)?.toLowerCase().includes(phrase) ?? false);
  };
  const accept = (id: number, text: string): boolean =>
    textNeedles.every((term) => holdsWord(text, term)) &&
    terms.phrases.every((phrase, at) => holdsWord(text, phraseNeedles[at]!) || inName(id, phrase)) &&
    (namedIds.has(id) || wordNeedles.every((word) => holdsWord(text, word)));
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const kept = filtered ? new Set(source.summaries().flatMap((card) => (passes(card) ? [card.id] : []))) : undefined;
  const keeps = kept === undefined ? undefined : (id: number) => kept.has(id);
  const found: number[] = [];
  const needles = { text: textNeedles, words: wordNeedles, phrases: phraseNeedles, named: namedIds };
  // A card translated in the user's language is read there; the others in English.
  const translated = localNames === undefined ? null : source.effectTexts(language);
  if (translated !== null) found.push(...indexedCardsWithText(translated, needles, accept, keeps));
  const english = source.effectTexts();
  if (english !== null) {
    const readHere = translated === null ? keeps : (id: number) => !localNames!.has(id) && (keeps === undefined || keeps(id));
    found.push(...indexedCardsWithText(english, needles, accept, readHere));
  }
  const foundIds = new Set(found);
  const first = named.filter((card) => foundIds.has(card.id));
  const rest = found.flatMap((id) => (namedIds.has(id) ? [] : (source.summaryById(id) ?? []))).sort(byViews);
  return [...first, ...rest];
}

/**
 * `cardsWithText` narrowed by the texts' word index, once it is built: only the cards holding every text term and
 * (unless their name matched) every loose word are read; when each of those is one word and no
 * phrase is asked, the index's answer is the answer and no text is read at all.
 */
function indexedCardsWithText(
  texts: EffectTexts,
  needles: { text: readonly string[]; words: readonly string[]; phrases: readonly string[]; named: ReadonlySet<number> },
  accept: (id: number, text: string) => boolean,
  wanted: ((id: number) => boolean) | undefined,
): number[] {
  const index = wordIndexOf(texts);
  if (index === undefined) return cardsWithText(texts, accept, wanted);
  const mask = index.holders(...needles.text);
  if (needles.words.length > 0) {
    const holdsWords = index.holders(...needles.words);
    // A card whose name matched need not hold the loose words in its texts.
    for (let record = 0; record < index.size; record++) if (!needles.named.has(index.idAt(record))) mask[record]! &= holdsWords[record]!;
  }
  const candidates: number[] = [];
  mask.forEach((holds, record) => {
    const id = index.idAt(record);
    if (holds === 1 && (wanted === undefined || wanted(id))) candidates.push(id);
  });
  const exact = needles.phrases.length === 0 && [...needles.text, ...needles.words].every((term) => WordIndex.isOneWord(term));
  if (exact) return candidates;
  const reading = new Set(candidates);
  return cardsWithText(texts, accept, (id) => reading.has(id));
}

function byViews(left: CardSummary, right: CardSummary): number {
  return right.views - left.views;
}
