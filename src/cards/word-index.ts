import { lowerBound, packStrings, packedCount, startsWithAt, type PackedStrings } from './packed-strings.js';

/**
 * The word lists the card matcher searches: sorted words with their postings, walked as an implicit
 * trie for prefix and typo (Damerau–Levenshtein) matches.
 */

/** Per-word match quality, in [0, 1]. A word tier match needs every query word at PREFIX or better. */
export const TOKEN_SCORE = {
  exact: 1,
  /** Plus up to 0.1 for how much of the card word the query word covers. */
  prefix: 0.85,
  typo1: 0.75,
  typo2: 0.55,
  typoPrefix1: 0.6,
  typoPrefix2: 0.45,
  /** The same sound key as a card word ("kaos" for "chaos"): a little better than one typo. */
  sound: 0.8,
  /** The query's sound key starts a card word's. */
  soundPrefix: 0.7,
} as const;

/** Any edit distance above the largest allowed one; small enough that adding 1 cannot overflow. */
const FAR = 1 << 20;

/**
 * What a WordIndex searches: the sorted words (packed: none is absent), and for each word the name
 * entries containing it (postings in one flat array: word w's entries are postings[start[w] ..
 * start[w + 1])). Plain data, so a worker thread can build it and hand it over (see
 * src/services/off-thread).
 */
export interface WordTables {
  words: PackedStrings;
  start: Int32Array;
  postings: Int32Array;
  /** Length of the prefix words[i] shares with words[i - 1]; lets the typo walk reuse work. */
  sharedPrefix: Uint8Array;
  longestWord: number;
}

/** The tables of the words in `entriesByWord` (word → the entries containing it). */
export function wordTables(entriesByWord: Map<string, number[]>): WordTables {
  const words = [...entriesByWord.keys()].sort(compareStrings);
  const start = new Int32Array(words.length + 1);
  const sharedPrefix = new Uint8Array(words.length);
  let total = 0;
  for (const entries of entriesByWord.values()) total += entries.length;
  const postings = new Int32Array(total);
  let offset = 0;
  let longestWord = 0;
  words.forEach((word, index) => {
    const previous = index > 0 ? (words[index - 1] as string) : '';
    sharedPrefix[index] = Math.min(commonPrefixLength(previous, word), 255);
    longestWord = Math.max(longestWord, word.length);
    start[index] = offset;
    for (const entry of entriesByWord.get(word) as number[]) postings[offset++] = entry;
  });
  start[words.length] = offset;
  return { words: packStrings(words), start, postings, sharedPrefix, longestWord };
}

/** A sorted word list with its postings (see WordTables), searched by prefix and with typos. */
export class WordIndex {
  private readonly words: PackedStrings;
  private readonly start: Int32Array;
  private readonly postings: Int32Array;
  private readonly sharedPrefix: Uint8Array;
  readonly longestWord: number;

  constructor(tables: WordTables) {
    ({ words: this.words, start: this.start, postings: this.postings, sharedPrefix: this.sharedPrefix, longestWord: this.longestWord } = tables);
  }

  /** Calls visit for every entry containing `word`. */
  forEachEntry(word: number, visit: (entry: number) => void): void {
    const end = this.start[word + 1] as number;
    for (let p = this.start[word] as number; p < end; p++) visit(this.postings[p] as number);
  }

  /** Words equal to or starting with `prefix`, scored like the typo walk scores them. */
  forEachWithPrefix(prefix: string, visit: (word: number, tokenScore: number) => void): void {
    const { words } = this;
    const { offsets } = words;
    const count = packedCount(words);
    for (let index = lowerBound(words, prefix); index < count; index++) {
      if (!startsWithAt(words, index, prefix)) break;
      const length = (offsets[index + 1] as number) - (offsets[index] as number);
      visit(index, length === prefix.length ? TOKEN_SCORE.exact : prefixScore(prefix.length, length));
    }
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
    const { sharedPrefix } = this;
    // Read in place: word w is codes[offsets[w], offsets[w + 1]) (no word is absent, so no offset is negative).
    const { codes, offsets } = this.words;
    const wordCount = offsets.length - 1;
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
    while (index < wordCount) {
      const wordStart = offsets[index] as number;
      const wordLength = (offsets[index + 1] as number) - wordStart;
      let depth = Math.min(sharedPrefix[index] as number, validDepth);
      if (depth === 0) {
        const sameFirstLetter = codes[wordStart] === firstLetter;
        edits = sameFirstLetter ? maxEdits : Math.min(maxEdits, 1);
        prefixEdits = sameFirstLetter ? maxPrefixEdits : Math.min(maxPrefixEdits, 1);
        // Row 0 again, since the band edges of the previous subtree were marked in it.
        for (let column = 0; column <= queryLength; column++) rows[column] = column;
      }
      let deadAt = -1;
      while (depth < wordLength) {
        depth++;
        const character = codes[wordStart + depth - 1] as number;
        const previousCharacter = depth > 1 ? (codes[wordStart + depth - 2] as number) : -1;
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
        const inBand = Math.abs(wordLength - queryLength) <= edits;
        const fullDistance = inBand ? (rows[wordLength * width + queryLength] as number) : FAR;
        const tokenScore = score(fullDistance, prefixDistance[wordLength] as number, wordLength);
        if (tokenScore > 0) visit(index, tokenScore);
        index++;
        continue;
      }
      // No longer word under this prefix can come closer than the rows computed so far; if the
      // whole query already matched a prefix of it, every word below is a (typo-)prefix match.
      const bestPrefix = prefixDistance[deadAt] as number;
      do {
        if (bestPrefix <= prefixEdits) {
          const tokenScore = score(FAR, bestPrefix, (offsets[index + 1] as number) - (offsets[index] as number));
          if (tokenScore > 0) visit(index, tokenScore);
        }
        index++;
      } while (index < wordCount && (sharedPrefix[index] as number) >= deadAt);
    }
  }
}

/** Buffers for the edit-distance walk, allocated once per matcher. */
export interface EditScratch {
  rows: Int32Array;
  prefixDistance: Int32Array;
  query: Int32Array;
}

/** A query word that starts a longer card word scores a little higher the more of it it covers. */
function prefixScore(queryLength: number, wordLength: number): number {
  return TOKEN_SCORE.prefix + (0.1 * queryLength) / wordLength;
}

function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Code-unit order, matching the `<` used by the prefix binary searches (localeCompare would not). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
