import { LRUCache } from 'lru-cache';
import { DEFAULT_ALIASES } from './aliases.js';
import type { CardLanguage } from './card.js';
import { tokenizeCardText } from './card-words.js';
import { CLEAR_MARGIN, editBudget, KIND_CODES, MIN_FUZZY_QUALITY, SCORE, type BestMatch, type CardMatch, type MatchKind } from './match-scores.js';
import { buildMatcherTables, type MatchableCard, type MatcherTables } from './matcher-tables.js';
import { firstCardWithId, forEachCardWithId, type IdIndex } from './id-index.js';
import { ALT_NAME_BIT, ENGLISH, LANGUAGE_CODES } from './name-entries.js';
import { compareAt, lengthOf, lowerBound, startsWithAt, stringAt, type PackedStrings } from './packed-strings.js';
import type { LocalizedCardNames } from './localized-names.js';
import { soundKey } from './sound-key.js';
import { TOKEN_SCORE, WordIndex, type EditScratch } from './word-index.js';

export type { MatchableCard } from './matcher-tables.js';

/** Work caps for hostile or accidental input (a pasted card text, 6,000 characters of noise). */
const MAX_QUERY_CHARS = 200;
const MAX_QUERY_TOKENS = 12;
const MAX_TOKEN_CHARS = 40;
/**
 * Searches remembered per matcher: autocomplete asks the same few prefixes again and again (every
 * user typing "dark magic" sends "d", "da", "dar"…), and a search costs a millisecond or more where
 * a remembered one costs a lookup. A matcher never changes once built, so nothing goes stale: a
 * rebuilt database gets a new matcher with its own memory. Bounded by the matches held, not by the
 * searches: `/card search` asks for every match, and one broad query can return thousands.
 */
const REMEMBERED_MATCHES = 2_048 * 25;
/** Longest possible passcode or Konami id, in digits, ignoring leading zeros. */
const MAX_ID_DIGITS = 10;

/** Sound keys shorter than this only match whole words; longer ones also match as prefixes. */
const MIN_SOUND_PREFIX = 4;
/** Query words shorter than this are not matched by sound ("ky" would match every "ki…" word). */
const MIN_SOUND_WORD = 3;

export interface CardMatcherOptions {
  /**
   * Each card's name in other languages. A search for one of them matches these names as well as
   * the English ones; a name that only differs from the English one in case, spacing or
   * punctuation adds nothing. Read once, while the matcher is built.
   */
  localizedNames?: LocalizedCardNames;
  /** The phonetic key of a word (default: soundKey); the bench compares others. Empty means no key. */
  soundKey?: (word: string) => string;
  /**
   * The tables, already built by `buildMatcherTables` over the same cards with this `soundKey`
   * (off the event loop); `localizedNames` and the aliases are then not read again.
   */
  tables?: MatcherTables;
  /** Matches held by the memory of recent searches (default `REMEMBERED_MATCHES`); 0 remembers none, as the bench does to time the search itself. */
  rememberedMatches?: number;
}

/**
 * In-process matcher from user text to cards, for autocomplete and "Did you mean".
 *
 * Tiers: passcode, Konami id, exact name, old name and abbreviation first; then names that start
 * with the query; then names containing every query word (any order, words may be partial); then
 * typo-tolerant and sound-alike matches (Damerau–Levenshtein ≤ 1 or 2 per word, or the same sound
 * key). Ties go to the more popular card, then the shorter name. What it searches is in
 * MatcherTables (names as "entries", word lists), built at construction or handed over built.
 */
export class CardMatcher {
  private readonly cards: readonly MatchableCard[];
  /** See MatcherTables. */
  private readonly entryCard: Int32Array;
  private readonly entryInfo: Uint8Array;
  private readonly entryCompact: PackedStrings;
  private readonly entrySource: PackedStrings;
  private readonly compactOrder: Int32Array;
  private readonly passcodes: IdIndex;
  private readonly konamiIds: IdIndex;
  private readonly byAlias = new Map<string, number>();
  private readonly localNames: readonly PackedStrings[];
  /** The words of every name; searched with typos. */
  private readonly singleWords: WordIndex;
  /**
   * Each pair of adjacent words joined ("blueeyes", "darkmagician"), so a query that leaves out a
   * space or hyphen still matches word by word. Typo-searched only for query words that match no
   * single word: walking the pairs every time would triple the cost for a rare case.
   */
  private readonly joinedWords: WordIndex;
  /** The sound key of every word (see soundKey): "kaos" finds "chaos", "siranui" finds "shiranui". */
  private readonly soundWords: WordIndex;
  private readonly soundKey: (word: string) => string;
  /**
   * Cards ordered by the tie-break (popularity, then shorter name, then name), so a result's sort
   * key is one integer: score * cardCount + (cardCount - 1 - rank).
   */
  private readonly tieRank: Int32Array;
  private readonly cardByTieRank: Int32Array;

  // Scratch space reused by every search (JavaScript is single-threaded, so searches never overlap).
  private readonly bestKey: Float64Array;
  private readonly bestKind: Uint8Array;
  /** Sorting buffer; preallocated because a broad query ("a") touches most cards. */
  private readonly sortKeys: Float64Array;
  private readonly touchedCards: number[] = [];
  private readonly wordScores: Float32Array;
  private readonly entryStamp: Uint32Array;
  private readonly touchedEntries: number[] = [];
  private stamp = 0;
  /** The language code of the search under way; entries in other languages are skipped. */
  private searchLanguage = ENGLISH;
  private readonly editScratch: EditScratch;
  private readonly remembered: LRUCache<string, CardMatch[]> | undefined;

  constructor(
    cards: readonly MatchableCard[],
    aliases: Readonly<Record<string, string>> = DEFAULT_ALIASES,
    options: CardMatcherOptions = {},
  ) {
    if (options.localizedNames !== undefined && typeof options.localizedNames !== 'function') {
      throw new TypeError('CardMatcher: option "localizedNames" must be a function of the language');
    }
    if (options.soundKey !== undefined && typeof options.soundKey !== 'function') {
      throw new TypeError('CardMatcher: option "soundKey" must be a function of a word');
    }
    if (options.tables !== undefined && options.tables.tieRank.length !== cards.length) {
      throw new TypeError(`CardMatcher: option "tables" was built over ${options.tables.tieRank.length} cards, not these ${cards.length}`);
    }
    const rememberedMatches = options.rememberedMatches ?? REMEMBERED_MATCHES;
    if (!Number.isInteger(rememberedMatches) || rememberedMatches < 0) {
      throw new TypeError(`CardMatcher: option "rememberedMatches" must be a non-negative integer, got ${rememberedMatches}`);
    }
    this.remembered = rememberedMatches === 0 ? undefined : new LRUCache({ maxSize: rememberedMatches, sizeCalculation: (matches) => Math.max(1, matches.length) });
    this.cards = cards;
    this.soundKey = options.soundKey ?? soundKey;
    const tables = options.tables ?? buildMatcherTables(cards, aliases, this.soundKey, options.localizedNames);
    tables.aliasKeys.forEach((key, at) => this.byAlias.set(key, tables.aliasCards[at] as number));
    ({
      entryCard: this.entryCard,
      entryInfo: this.entryInfo,
      entryCompact: this.entryCompact,
      entrySource: this.entrySource,
      compactOrder: this.compactOrder,
      passcodes: this.passcodes,
      konamiIds: this.konamiIds,
      localNames: this.localNames,
      tieRank: this.tieRank,
      cardByTieRank: this.cardByTieRank,
    } = tables);
    this.singleWords = new WordIndex(tables.singleWords);
    this.joinedWords = new WordIndex(tables.joinedWords);
    this.soundWords = new WordIndex(tables.soundWords);

    const entryCount = this.entryCard.length;
    this.bestKey = new Float64Array(cards.length);
    this.bestKind = new Uint8Array(cards.length);
    this.sortKeys = new Float64Array(cards.length);
    this.wordScores = new Float32Array(MAX_QUERY_TOKENS * entryCount);
    this.entryStamp = new Uint32Array(entryCount);
    const longestWord = Math.max(this.singleWords.longestWord, this.joinedWords.longestWord, this.soundWords.longestWord);
    this.editScratch = {
      rows: new Int32Array((longestWord + 1) * (MAX_TOKEN_CHARS + 1)),
      prefixDistance: new Int32Array(longestWord + 1),
      query: new Int32Array(MAX_TOKEN_CHARS),
    };
  }

  /**
   * Best matches first; [] for a query with no letters or digits. Never throws on any string.
   * With a language, names in that language match too, and each result carries its name in it.
   */
  search(query: string, limit = 25, language?: CardLanguage): CardMatch[] {
    // NaN (a bad option value) means none; Infinity means all.
    const count = Math.min(Math.max(Math.floor(limit) || 0, 0), this.cards.length);
    if (count === 0) return [];
    const tokens = tokenizeCardText(query.slice(0, MAX_QUERY_CHARS))
      .slice(0, MAX_QUERY_TOKENS)
      .map((token) => token.slice(0, MAX_TOKEN_CHARS));
    if (tokens.length === 0) return [];
    // The key is what the search reads: the same words, language and count give the same matches.
    const key = `${language ?? ''} ${count} ${tokens.join(' ')}`;
    const remembered = this.remembered?.get(key);
    if (remembered !== undefined) return remembered.map((match) => ({ ...match }));
    const matches = this.searchTokens(tokens, count, language);
    this.remembered?.set(key, matches.map((match) => ({ ...match })));
    return matches;
  }

  private searchTokens(tokens: string[], count: number, language: CardLanguage | undefined): CardMatch[] {
    this.searchLanguage = language === undefined ? ENGLISH : Math.max(LANGUAGE_CODES.indexOf(language), ENGLISH);
    const compact = tokens.join('');
    this.matchIds(compact);
    const alias = this.byAlias.get(compact);
    if (alias !== undefined) this.offer(alias, SCORE.alias, 'alias');
    this.matchExact(compact, tokens.join(' '));
    this.matchPrefix(compact);
    this.matchWords(tokens);
    return this.collect(count);
  }

  /** The top match and whether it is clearly the one meant; null when nothing matches. */
  best(query: string, language?: CardLanguage): BestMatch | null {
    const [first, second] = this.search(query, 2, language);
    if (first === undefined) return null;
    const decisive = first.kind === 'exact' || first.kind === 'id' || first.kind === 'alias';
    const margin = second === undefined ? Infinity : first.score - second.score;
    return { match: first, clear: decisive ? margin > 0 : margin >= CLEAR_MARGIN };
  }

  /** Names indexed: current, old and translated names. */
  get entryCount(): number {
    return this.entryCard.length;
  }

  /** The card's name in `language` when it has one that differs from the English name. */
  localName(passcode: number, language: CardLanguage): string | undefined {
    const card = firstCardWithId(this.passcodes, passcode);
    const names = this.localNames[LANGUAGE_CODES.indexOf(language)];
    return card === undefined || names === undefined ? undefined : stringAt(names, card);
  }

  /** English entries always count; translated ones only in a search for their language. */
  private searched(entry: number): boolean {
    const language = (this.entryInfo[entry] as number) >> 1;
    return language === ENGLISH || language === this.searchLanguage;
  }

  private isAltName(entry: number): boolean {
    return ((this.entryInfo[entry] as number) & ALT_NAME_BIT) !== 0;
  }

  /** Passcodes ("89631139", "05318639") and Konami ids are exact lookups. */
  private matchIds(compact: string): void {
    if (!/^\d+$/.test(compact)) return;
    const digits = compact.replace(/^0+(?=\d)/, '');
    if (digits.length > MAX_ID_DIGITS) return;
    const number = Number(digits);
    const card = firstCardWithId(this.passcodes, number);
    if (card !== undefined) this.offer(card, SCORE.passcode, 'id');
    forEachCardWithId(this.konamiIds, number, (konamiCard) => this.offer(konamiCard, SCORE.konamiId, 'id'));
  }

  private matchExact(compact: string, spaced: string): void {
    const order = this.compactOrder;
    for (let i = this.firstCompactAtLeast(compact); i < order.length; i++) {
      const entry = order[i] as number;
      if (compareAt(this.entryCompact, entry, compact) !== 0) break;
      if (!this.searched(entry)) continue;
      const card = this.entryCard[entry] as number;
      if (this.isAltName(entry)) {
        this.offer(card, SCORE.altNameExact, 'alias');
      } else {
        // Rare (one entry per exact name), so the spaced form is rebuilt here rather than stored.
        const sameSpacing = tokenizeCardText(stringAt(this.entrySource, entry) ?? '').join(' ') === spaced;
        this.offer(card, sameSpacing ? SCORE.exact : SCORE.exactCompact, 'exact');
      }
    }
  }

  private matchPrefix(compact: string): void {
    const order = this.compactOrder;
    for (let i = this.firstCompactAtLeast(compact); i < order.length; i++) {
      const entry = order[i] as number;
      if (!startsWithAt(this.entryCompact, entry, compact)) break;
      if (!this.searched(entry)) continue;
      this.offer(this.entryCard[entry] as number, SCORE.prefix - (this.isAltName(entry) ? SCORE.altNamePenalty : 0), 'prefix');
    }
  }

  /** Position in compactOrder of the first entry whose compact name is not less than `compact`. */
  private firstCompactAtLeast(compact: string): number {
    return lowerBound(this.entryCompact, compact, this.compactOrder);
  }

  /**
   * Scores every name against every query word (exact, prefix, typo, typo in a prefix, sound-alike),
   * then grades each name: all words matched at least as prefixes → word tier, otherwise fuzzy tier.
   */
  private matchWords(tokens: string[]): void {
    const entryCount = this.entryCard.length;
    this.stamp = (this.stamp + 1) >>> 0 || 1;
    tokens.forEach((token, tokenIndex) => {
      let wordScore = 0;
      const recordEntry = (entry: number) => {
        if (!this.searched(entry)) return;
        if (this.entryStamp[entry] !== this.stamp) {
          this.entryStamp[entry] = this.stamp;
          this.touchedEntries.push(entry);
        }
        const slot = tokenIndex * entryCount + entry;
        if (wordScore > (this.wordScores[slot] as number)) this.wordScores[slot] = wordScore;
      };
      const record = (index: WordIndex) => (word: number, tokenScore: number) => {
        wordScore = tokenScore;
        index.forEachEntry(word, recordEntry);
      };
      const { maxEdits, maxPrefixEdits } = editBudget(token.length);
      const recordSingle = record(this.singleWords);
      let bestSingle = 0;
      const visitSingle = (word: number, tokenScore: number) => {
        bestSingle = Math.max(bestSingle, tokenScore);
        recordSingle(word, tokenScore);
      };
      if (maxEdits === 0) this.singleWords.forEachWithPrefix(token, visitSingle);
      else this.singleWords.forEachSimilar(token, maxEdits, maxPrefixEdits, this.editScratch, visitSingle);
      // A query word no closer than two typos to any card word is usually two words run together
      // with a typo, often a letter next to the space bar typed for the space ("battleguardvcadet").
      const runTogether = maxEdits > 0 && bestSingle < TOKEN_SCORE.typo1;
      if (!runTogether) this.joinedWords.forEachWithPrefix(token, record(this.joinedWords));
      else this.joinedWords.forEachSimilar(token, maxEdits, maxPrefixEdits, this.editScratch, record(this.joinedWords));
      if (token.length >= MIN_SOUND_WORD) this.matchSound(token, record(this.soundWords));
    });

    const totalWeight = tokens.reduce((sum, token) => sum + token.length, 0);
    for (const index of this.touchedEntries) {
      let matchedWeight = 0;
      let coveredChars = 0;
      let everyWordPrefix = true;
      for (let t = 0; t < tokens.length; t++) {
        const slot = t * entryCount + index;
        const tokenScore = this.wordScores[slot] as number;
        this.wordScores[slot] = 0;
        const weight = (tokens[t] as string).length;
        matchedWeight += weight * tokenScore;
        if (tokenScore > 0) coveredChars += weight;
        if (tokenScore < TOKEN_SCORE.prefix) everyWordPrefix = false;
      }
      const card = this.entryCard[index] as number;
      const quality = matchedWeight / totalWeight;
      const coverage = Math.min(coveredChars / lengthOf(this.entryCompact, index), 1);
      const penalty = this.isAltName(index) ? SCORE.altNamePenalty : 0;
      if (everyWordPrefix) {
        const grade = Math.round(SCORE.wordRange * (0.5 * quality + 0.5 * coverage));
        this.offer(card, SCORE.wordBase + grade - penalty, 'word');
      } else if (quality >= MIN_FUZZY_QUALITY) {
        const grade = Math.round(SCORE.fuzzyRange * (0.75 * quality + 0.25 * coverage));
        this.offer(card, grade - penalty, 'fuzzy');
      }
    }
    this.touchedEntries.length = 0;
  }

  /**
   * Card words that sound like the query word: the same sound key scores like a close typo, a key
   * the query's key starts a little less. Both stay below a prefix match, so spelling a name right
   * always wins over sounding like it.
   */
  private matchSound(token: string, record: (word: number, tokenScore: number) => void): void {
    const key = this.soundKey(token);
    if (key === '') return;
    if (key.length < MIN_SOUND_PREFIX) {
      this.soundWords.forEachWithPrefix(key, (word, tokenScore) => {
        if (tokenScore === TOKEN_SCORE.exact) record(word, TOKEN_SCORE.sound);
      });
      return;
    }
    this.soundWords.forEachWithPrefix(key, (word, tokenScore) =>
      record(word, tokenScore === TOKEN_SCORE.exact ? TOKEN_SCORE.sound : TOKEN_SCORE.soundPrefix),
    );
  }

  /** Keeps each card's best score; the sort key also encodes the tie-break rank. */
  private offer(card: number, score: number, kind: MatchKind): void {
    const count = this.cards.length;
    const key = score * count + (count - 1 - (this.tieRank[card] as number));
    const previous = this.bestKey[card] as number;
    if (previous === 0) this.touchedCards.push(card);
    if (key > previous) {
      this.bestKey[card] = key;
      this.bestKind[card] = KIND_CODES.indexOf(kind);
    }
  }

  private collect(limit: number): CardMatch[] {
    const count = this.cards.length;
    const keys = this.sortKeys.subarray(0, this.touchedCards.length);
    this.touchedCards.forEach((card, i) => {
      // Negated so the ascending typed-array sort puts the best first.
      keys[i] = -(this.bestKey[card] as number);
    });
    keys.sort();
    const localNames = this.searchLanguage === ENGLISH ? undefined : this.localNames[this.searchLanguage];
    const results: CardMatch[] = [];
    for (const negatedKey of keys.subarray(0, limit)) {
      const key = -negatedKey;
      const score = Math.floor(key / count);
      const card = this.cardByTieRank[count - 1 - (key - score * count)] as number;
      const { id, name } = this.cards[card] as MatchableCard;
      const kind = KIND_CODES[this.bestKind[card] as number] as MatchKind;
      const localName = localNames === undefined ? undefined : stringAt(localNames, card);
      results.push(localName === undefined ? { id, name, score, kind } : { id, name, localName, score, kind });
    }
    for (const card of this.touchedCards) this.bestKey[card] = 0;
    this.touchedCards.length = 0;
    return results;
  }
}
