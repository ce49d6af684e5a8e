import { DEFAULT_ALIASES } from './aliases.js';

/** What the matcher needs to know about a card; everything else stays in the card store. */
export interface MatchableCard {
  /** Passcode (YGOPRODeck `id`). */
  id: number;
  name: string;
  /** Old, beta or OCG names (YGOPRODeck `misc_info.beta_name`) that should find this card. */
  altNames?: string[];
  /** Konami database id (`misc_info.konami_id`), which some users paste instead of the passcode. */
  konamiId?: number;
  /** Higher is more popular (e.g. `misc_info.views`); breaks ties between equally good matches. */
  popularity?: number;
}

export type MatchKind = 'exact' | 'id' | 'alias' | 'prefix' | 'word' | 'fuzzy';

/** Stored per card as a small integer during a search. */
const KIND_CODES: readonly MatchKind[] = ['exact', 'id', 'alias', 'prefix', 'word', 'fuzzy'];

export interface CardMatch {
  id: number;
  name: string;
  /** Higher is better; only meaningful for comparing results of the same query. */
  score: number;
  kind: MatchKind;
}

export interface BestMatch {
  match: CardMatch;
  /** The top result is clearly the one meant, so a command may open it without a "Did you mean" menu. */
  clear: boolean;
}

/**
 * Scores are integers so that "equally good" is an exact tie, which popularity then breaks.
 * The bands never overlap, which gives the ranking exact > id/alias > prefix > word > fuzzy.
 */
const SCORE = {
  exact: 1000,
  passcode: 1000,
  /** Same letters, different spacing or punctuation ("Raimei" for "Rai-Mei"). */
  exactCompact: 995,
  altNameExact: 990,
  konamiId: 980,
  alias: 950,
  prefix: 800,
  wordBase: 600,
  wordRange: 100,
  fuzzyRange: 500,
  /** An old name matching as well as a current name should lose to it. */
  altNamePenalty: 5,
} as const;

/**
 * Gap between the first and second result above which the first counts as clearly meant.
 * Prefix and word bands are 100+ apart, so a lone prefix match is always clear; within the fuzzy
 * band 60 points is roughly "one more query word matched".
 */
const CLEAR_MARGIN = 60;

/** Work caps for hostile or accidental input (a pasted card text, 6,000 characters of noise). */
const MAX_QUERY_CHARS = 200;
const MAX_QUERY_TOKENS = 12;
const MAX_TOKEN_CHARS = 40;
/** Longest possible passcode or Konami id, in digits, ignoring leading zeros. */
const MAX_ID_DIGITS = 10;

/** Per-word match quality, in [0, 1]. A word tier match needs every query word at PREFIX or better. */
const TOKEN_SCORE = {
  exact: 1,
  /** Plus up to 0.1 for how much of the card word the query word covers. */
  prefix: 0.85,
  typo1: 0.75,
  typo2: 0.55,
  typoPrefix1: 0.6,
  typoPrefix2: 0.45,
} as const;

/** Any edit distance above the largest allowed one; small enough that adding 1 cannot overflow. */
const FAR = 1 << 20;

/** A fuzzy candidate must match at least this share of the query (weighted by word length). */
const MIN_FUZZY_QUALITY = 0.5;

/** Letters that Unicode does not decompose into a base letter plus a mark (`K9 - ØØ Lupus`). */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};
const LETTER_FOLD_PATTERN = /[øæœßđðłþı]/g;

/**
 * Splits text into lowercase, accent-free words.
 *
 * - Apostrophes join (`Harpie's` → `harpies`) because users drop them, not split on them.
 * - `&` becomes `and` so "ash blossom and joyous spring" is the exact name.
 * - Everything that is not a letter or digit separates words: hyphens, `★`, `:`, quotes, emoji,
 *   control characters.
 */
export function tokenizeCardText(text: string): string[] {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(LETTER_FOLD_PATTERN, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(/['’‘`´]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

/** One searchable name of a card: its current name or one of its old names. */
interface NameEntry {
  card: number;
  /** Words joined by single spaces, to tell an exact name from one that only matches without spaces. */
  spaced: string;
  /** Words joined without spaces; exact and prefix matching use this so `blueeyes`/`blue eyes` agree. */
  compact: string;
  isAltName: boolean;
}

/**
 * A sorted word list with, for each word, the name entries containing it (postings in one flat
 * array: word w's entries are postings[start[w] .. start[w + 1])).
 */
class WordIndex {
  readonly words: string[];
  private readonly start: Int32Array;
  private readonly postings: Int32Array;
  /** Length of the prefix words[i] shares with words[i - 1]; lets the typo walk reuse work. */
  private readonly sharedPrefix: Uint8Array;
  readonly longestWord: number;

  constructor(entriesByWord: Map<string, number[]>) {
    this.words = [...entriesByWord.keys()].sort(compareStrings);
    this.start = new Int32Array(this.words.length + 1);
    this.sharedPrefix = new Uint8Array(this.words.length);
    let total = 0;
    for (const entries of entriesByWord.values()) total += entries.length;
    this.postings = new Int32Array(total);
    let offset = 0;
    let longestWord = 0;
    this.words.forEach((word, index) => {
      const previous = index > 0 ? (this.words[index - 1] as string) : '';
      this.sharedPrefix[index] = Math.min(commonPrefixLength(previous, word), 255);
      longestWord = Math.max(longestWord, word.length);
      this.start[index] = offset;
      for (const entry of entriesByWord.get(word) as number[]) this.postings[offset++] = entry;
    });
    this.start[this.words.length] = offset;
    this.longestWord = longestWord;
  }

  /** Calls visit for every entry containing `word`. */
  forEachEntry(word: number, visit: (entry: number) => void): void {
    const end = this.start[word + 1] as number;
    for (let p = this.start[word] as number; p < end; p++) visit(this.postings[p] as number);
  }

  /** Words equal to or starting with `prefix`, scored like the typo walk scores them. */
  forEachWithPrefix(prefix: string, visit: (word: number, tokenScore: number) => void): void {
    for (let index = this.lowerBound(prefix); index < this.words.length; index++) {
      const word = this.words[index] as string;
      if (!word.startsWith(prefix)) break;
      visit(index, word.length === prefix.length ? TOKEN_SCORE.exact : prefixScore(prefix.length, word.length));
    }
  }

  /** Index of the first word not less than `text`. */
  private lowerBound(text: string): number {
    let low = 0;
    let high = this.words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.words[middle] as string) < text) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Words within `maxEdits` (Damerau–Levenshtein, adjacent transpositions) of `token`, or with a
   * prefix within `maxPrefixEdits` of it.
   *
   * Walks the sorted list as an implicit trie: one edit-distance row per character, reusing the
   * rows of the prefix shared with the previous word. Only the band |row - column| <= maxEdits is
   * computed (cells outside it cannot be within maxEdits), and a subtree is skipped as soon as no
   * word in it can come within maxEdits.
   *
   * The second edit is only allowed in words that share the query's first letter: a two-edit
   * walk over every word costs ~0.3 ms, ten times the one-edit walk, and long words are rarely
   * mistyped twice including at the start (Lucene's FuzzyQuery `prefixLength` makes the same bet).
   */
  forEachSimilar(
    token: string,
    maxEdits: number,
    maxPrefixEdits: number,
    scratch: EditScratch,
    visit: (word: number, tokenScore: number) => void,
  ): void {
    const { words, sharedPrefix } = this;
    const queryLength = token.length;
    const width = queryLength + 1;
    const { rows, prefixDistance, query } = scratch;
    for (let column = 0; column < queryLength; column++) query[column] = token.charCodeAt(column);
    prefixDistance[0] = queryLength;
    const firstLetter = query[0];
    // The budgets of the first-letter subtree being walked.
    let edits = maxEdits;
    let prefixEdits = maxPrefixEdits;
    const score = (fullDistance: number, bestPrefix: number, wordLength: number): number => {
      if (fullDistance === 0) return TOKEN_SCORE.exact;
      if (bestPrefix === 0) return prefixScore(queryLength, wordLength);
      let tokenScore = 0;
      if (fullDistance <= edits) tokenScore = fullDistance === 1 ? TOKEN_SCORE.typo1 : TOKEN_SCORE.typo2;
      if (bestPrefix <= prefixEdits) {
        tokenScore = Math.max(tokenScore, bestPrefix === 1 ? TOKEN_SCORE.typoPrefix1 : TOKEN_SCORE.typoPrefix2);
      }
      return tokenScore;
    };

    let validDepth = 0;
    let index = 0;
    while (index < words.length) {
      const word = words[index] as string;
      let depth = Math.min(sharedPrefix[index] as number, validDepth);
      if (depth === 0) {
        const sameFirstLetter = word.charCodeAt(0) === firstLetter;
        edits = sameFirstLetter ? maxEdits : Math.min(maxEdits, 1);
        prefixEdits = sameFirstLetter ? maxPrefixEdits : Math.min(maxPrefixEdits, 1);
        // Row 0 again, since the band edges of the previous subtree were marked in it.
        for (let column = 0; column <= queryLength; column++) rows[column] = column;
      }
      let deadAt = -1;
      while (depth < word.length) {
        depth++;
        const character = word.charCodeAt(depth - 1);
        const previousCharacter = depth > 1 ? word.charCodeAt(depth - 2) : -1;
        const row = depth * width;
        const above = row - width;
        const low = depth > edits ? depth - edits : 1;
        const high = depth + edits < queryLength ? depth + edits : queryLength;
        // Cells just outside the band must read as "too far", not as stale values.
        rows[row + low - 1] = low === 1 ? depth : FAR;
        if (high === depth + edits) rows[above + high] = FAR;
        let rowMin = low === 1 ? depth : FAR;
        for (let column = low; column <= high; column++) {
          const queryCharacter = query[column - 1] as number;
          let distance = (rows[above + column - 1] as number) + (queryCharacter === character ? 0 : 1);
          const deletion = (rows[above + column] as number) + 1;
          if (deletion < distance) distance = deletion;
          const insertion = (rows[row + column - 1] as number) + 1;
          if (insertion < distance) distance = insertion;
          if (queryCharacter === previousCharacter && column > 1 && query[column - 2] === character) {
            const transposition = (rows[above - width + column - 2] as number) + 1;
            if (transposition < distance) distance = transposition;
          }
          rows[row + column] = distance;
          if (distance < rowMin) rowMin = distance;
        }
        const queryEnd = high === queryLength ? (rows[row + queryLength] as number) : FAR;
        prefixDistance[depth] = Math.min(prefixDistance[depth - 1] as number, queryEnd);
        if (rowMin > edits) {
          deadAt = depth;
          break;
        }
      }
      validDepth = depth;

      if (deadAt < 0) {
        const inBand = Math.abs(word.length - queryLength) <= edits;
        const fullDistance = inBand ? (rows[word.length * width + queryLength] as number) : FAR;
        const tokenScore = score(fullDistance, prefixDistance[word.length] as number, word.length);
        if (tokenScore > 0) visit(index, tokenScore);
        index++;
        continue;
      }
      // No longer word under this prefix can come closer than the rows computed so far; if the
      // whole query already matched a prefix of it, every word below is a (typo-)prefix match.
      const bestPrefix = prefixDistance[deadAt] as number;
      do {
        if (bestPrefix <= prefixEdits) {
          const tokenScore = score(FAR, bestPrefix, (words[index] as string).length);
          if (tokenScore > 0) visit(index, tokenScore);
        }
        index++;
      } while (index < words.length && (sharedPrefix[index] as number) >= deadAt);
    }
  }
}

/** Buffers for the edit-distance walk, allocated once per matcher. */
interface EditScratch {
  rows: Int32Array;
  prefixDistance: Int32Array;
  query: Int32Array;
}

/**
 * In-process matcher from user text to cards, for autocomplete and "Did you mean".
 *
 * Tiers: passcode, Konami id, exact name, old name and abbreviation first; then names that start
 * with the query; then names containing every query word (any order, words may be partial); then
 * typo-tolerant matches (Damerau–Levenshtein ≤ 1 or 2 per word). Ties go to the more popular card,
 * then the shorter name.
 */
export class CardMatcher {
  private readonly cards: readonly MatchableCard[];
  private readonly entries: NameEntry[] = [];
  private readonly byCompact = new Map<string, number[]>();
  /** Entry indices sorted by compact name, for prefix ranges by binary search. */
  private readonly compactOrder: Int32Array;
  private readonly byPasscode = new Map<number, number>();
  private readonly byKonamiId = new Map<number, number[]>();
  private readonly byAlias = new Map<string, number>();
  /** The words of every name; searched with typos. */
  private readonly singleWords: WordIndex;
  /**
   * Each pair of adjacent words joined ("blueeyes", "darkmagician"), so a query that leaves out a
   * space or hyphen still matches word by word. Typo-searched only for query words that match no
   * single word: walking the pairs every time would triple the cost for a rare case.
   */
  private readonly joinedWords: WordIndex;
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
  private readonly editScratch: EditScratch;

  constructor(cards: readonly MatchableCard[], aliases: Readonly<Record<string, string>> = DEFAULT_ALIASES) {
    this.cards = cards;
    const cardByName = new Map<string, number>();
    cards.forEach((card, index) => {
      cardByName.set(card.name, index);
      if (!this.byPasscode.has(card.id)) this.byPasscode.set(card.id, index);
      if (card.konamiId !== undefined) appendTo(this.byKonamiId, card.konamiId, index);
      this.addEntry(index, card.name, false);
      for (const altName of card.altNames ?? []) this.addEntry(index, altName, true);
    });

    for (const [abbreviation, target] of Object.entries(aliases)) {
      const card = cardByName.get(target);
      const key = tokenizeCardText(abbreviation).join('');
      // A table written for the full database may name cards missing from a smaller list.
      if (card !== undefined && key.length > 0) this.byAlias.set(key, card);
    }

    this.compactOrder = Int32Array.from(this.entries.keys()).sort((a, b) =>
      compareStrings(this.entry(a).compact, this.entry(b).compact),
    );

    const entriesBySingle = new Map<string, number[]>();
    const entriesByJoined = new Map<string, number[]>();
    this.entries.forEach((entry, index) => {
      const words = entry.spaced.split(' ');
      for (const word of new Set(words)) appendTo(entriesBySingle, word, index);
      const joined = new Set<string>();
      for (let i = 1; i < words.length; i++) joined.add(`${words[i - 1]}${words[i]}`);
      for (const word of joined) appendTo(entriesByJoined, word, index);
    });
    this.singleWords = new WordIndex(entriesBySingle);
    this.joinedWords = new WordIndex(entriesByJoined);

    this.cardByTieRank = Int32Array.from(cards.keys()).sort((a, b) => {
      const left = cards[a] as MatchableCard;
      const right = cards[b] as MatchableCard;
      return (
        (right.popularity ?? 0) - (left.popularity ?? 0) ||
        left.name.length - right.name.length ||
        compareStrings(left.name, right.name)
      );
    });
    this.tieRank = new Int32Array(cards.length);
    this.cardByTieRank.forEach((card, rank) => {
      this.tieRank[card] = rank;
    });

    this.bestKey = new Float64Array(cards.length);
    this.bestKind = new Uint8Array(cards.length);
    this.sortKeys = new Float64Array(cards.length);
    this.wordScores = new Float32Array(MAX_QUERY_TOKENS * this.entries.length);
    this.entryStamp = new Uint32Array(this.entries.length);
    const longestWord = Math.max(this.singleWords.longestWord, this.joinedWords.longestWord);
    this.editScratch = {
      rows: new Int32Array((longestWord + 1) * (MAX_TOKEN_CHARS + 1)),
      prefixDistance: new Int32Array(longestWord + 1),
      query: new Int32Array(MAX_TOKEN_CHARS),
    };
  }

  /** Best matches first; [] for a query with no letters or digits. Never throws on any string. */
  search(query: string, limit = 25): CardMatch[] {
    // NaN (a bad option value) means none; Infinity means all.
    const count = Math.min(Math.max(Math.floor(limit) || 0, 0), this.cards.length);
    if (count === 0) return [];
    const tokens = tokenizeCardText(query.slice(0, MAX_QUERY_CHARS))
      .slice(0, MAX_QUERY_TOKENS)
      .map((token) => token.slice(0, MAX_TOKEN_CHARS));
    if (tokens.length === 0) return [];

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
  best(query: string): BestMatch | null {
    const [first, second] = this.search(query, 2);
    if (first === undefined) return null;
    const decisive = first.kind === 'exact' || first.kind === 'id' || first.kind === 'alias';
    const margin = second === undefined ? Infinity : first.score - second.score;
    return { match: first, clear: decisive ? margin > 0 : margin >= CLEAR_MARGIN };
  }

  private entry(index: number): NameEntry {
    return this.entries[index] as NameEntry;
  }

  private addEntry(card: number, name: string, isAltName: boolean): void {
    const tokens = tokenizeCardText(name);
    if (tokens.length === 0) return;
    const entry: NameEntry = { card, spaced: tokens.join(' '), compact: tokens.join(''), isAltName };
    appendTo(this.byCompact, entry.compact, this.entries.length);
    this.entries.push(entry);
  }

  /** Passcodes ("89631139", "05318639") and Konami ids are exact lookups. */
  private matchIds(compact: string): void {
    if (!/^\d+$/.test(compact)) return;
    const digits = compact.replace(/^0+(?=\d)/, '');
    if (digits.length > MAX_ID_DIGITS) return;
    const number = Number(digits);
    const card = this.byPasscode.get(number);
    if (card !== undefined) this.offer(card, SCORE.passcode, 'id');
    for (const konamiCard of this.byKonamiId.get(number) ?? []) this.offer(konamiCard, SCORE.konamiId, 'id');
  }

  private matchExact(compact: string, spaced: string): void {
    for (const index of this.byCompact.get(compact) ?? []) {
      const entry = this.entry(index);
      if (entry.isAltName) {
        this.offer(entry.card, SCORE.altNameExact, 'alias');
      } else {
        this.offer(entry.card, entry.spaced === spaced ? SCORE.exact : SCORE.exactCompact, 'exact');
      }
    }
  }

  private matchPrefix(compact: string): void {
    const order = this.compactOrder;
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entry(order[middle] as number).compact < compact) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < order.length; i++) {
      const entry = this.entry(order[i] as number);
      if (!entry.compact.startsWith(compact)) break;
      this.offer(entry.card, SCORE.prefix - (entry.isAltName ? SCORE.altNamePenalty : 0), 'prefix');
    }
  }

  /**
   * Scores every name against every query word (exact, prefix, typo, typo in a prefix), then
   * grades each name: all words matched at least as prefixes → word tier, otherwise fuzzy tier.
   */
  private matchWords(tokens: string[]): void {
    const entryCount = this.entries.length;
    this.stamp = (this.stamp + 1) >>> 0 || 1;
    tokens.forEach((token, tokenIndex) => {
      let wordScore = 0;
      const recordEntry = (entry: number) => {
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
      const entry = this.entry(index);
      const quality = matchedWeight / totalWeight;
      const coverage = Math.min(coveredChars / entry.compact.length, 1);
      const penalty = entry.isAltName ? SCORE.altNamePenalty : 0;
      if (everyWordPrefix) {
        const grade = Math.round(SCORE.wordRange * (0.5 * quality + 0.5 * coverage));
        this.offer(entry.card, SCORE.wordBase + grade - penalty, 'word');
      } else if (quality >= MIN_FUZZY_QUALITY) {
        const grade = Math.round(SCORE.fuzzyRange * (0.75 * quality + 0.25 * coverage));
        this.offer(entry.card, grade - penalty, 'fuzzy');
      }
    }
    this.touchedEntries.length = 0;
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
    const results: CardMatch[] = [];
    for (const negatedKey of keys.subarray(0, limit)) {
      const key = -negatedKey;
      const score = Math.floor(key / count);
      const card = this.cardByTieRank[count - 1 - (key - score * count)] as number;
      const { id, name } = this.cards[card] as MatchableCard;
      results.push({ id, name, score, kind: KIND_CODES[this.bestKind[card] as number] as MatchKind });
    }
    for (const card of this.touchedCards) this.bestKey[card] = 0;
    this.touchedCards.length = 0;
    return results;
  }
}

/**
 * How many typos a query word may carry. Short words get none: with one edit, "mst" would match
 * "mist", "most", "must"… and drown the results.
 */
function editBudget(length: number): { maxEdits: number; maxPrefixEdits: number } {
  return {
    maxEdits: length <= 3 ? 0 : length <= 7 ? 1 : 2,
    // A typo inside a partial word is only trusted once the user has typed a few letters.
    maxPrefixEdits: length <= 4 ? 0 : length <= 9 ? 1 : 2,
  };
}

/** A query word that starts a longer card word scores a little higher the more of it it covers. */
function prefixScore(queryLength: number, wordLength: number): number {
  return TOKEN_SCORE.prefix + (0.1 * queryLength) / wordLength;
}

function appendTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Code-unit order, matching the `<` used by the prefix binary searches (localeCompare would not). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
