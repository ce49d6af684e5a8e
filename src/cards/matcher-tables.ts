import { tokenizeCardText } from './card-words.js';
import type { LocalizedCardNames } from './localized-names.js';
import { tieRanks } from './match-scores.js';
import { idIndex, type IdIndex } from './id-index.js';
import { addLocalNames, ALT_NAME_BIT, EntryBuilder, ENGLISH } from './name-entries.js';
import { packStrings, type PackedStrings } from './packed-strings.js';
import { compareStrings, wordTables, type WordTables } from './word-index.js';

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

/**
 * Everything a CardMatcher searches that costs time to build, as plain data (typed arrays and
 * packed string lists, see PackedStrings): built where it costs nothing to wait (a worker thread;
 * see src/services/off-thread) and handed to a matcher over the same cards, which reads them as
 * they are.
 *
 * Names are "entries": a card's English name, its old names, and its name in each other language.
 * Entries live in parallel typed arrays rather than one object each, so translations in four
 * languages add a few arrays' worth of live objects, not 50,000 of them.
 */
export interface MatcherTables {
  /** Per entry: its card, its language and old-name bit, its words joined without spaces, and the name it came from. */
  entryCard: Int32Array;
  entryInfo: Uint8Array;
  entryCompact: PackedStrings;
  entrySource: PackedStrings;
  /** Entry indices sorted by compact name, for exact and prefix lookups by binary search. */
  compactOrder: Int32Array;
  /** Abbreviations (tokenized and joined) and the card each one names. */
  aliasKeys: string[];
  aliasCards: Int32Array;
  /** Each card's name per language (index as in LANGUAGE_CODES) when it differs from the English one. */
  localNames: PackedStrings[];
  /** Cards by passcode and by Konami id. */
  passcodes: IdIndex;
  konamiIds: IdIndex;
  /** The words of every name; adjacent words joined; the sound key of every word. */
  singleWords: WordTables;
  joinedWords: WordTables;
  soundWords: WordTables;
  /** Cards ordered by the tie-break, and each card's rank in that order (see tieRanks). */
  tieRank: Int32Array;
  cardByTieRank: Int32Array;
}

/**
 * The version of what buildMatcherTables builds from a given input. Tables are kept on disk between
 * starts under a digest of their input and this (src/services/off-thread/stored-tables.ts): any
 * change to what the build gives for the same cards must change it, or a restart reads back tables
 * the matcher no longer expects. test/cards/matcher-tables.test.ts fails until it does.
 */
export const MATCHER_TABLES_FORMAT = 1;

/** The tables of a matcher over `cards`, with names in other languages and abbreviations. */
export function buildMatcherTables(
  cards: readonly MatchableCard[],
  aliases: Readonly<Record<string, string>>,
  soundKey: (word: string) => string,
  localizedNames: LocalizedCardNames | undefined,
): MatcherTables {
  const entries = new EntryBuilder(soundKey);
  const cardByName = new Map<string, number>();
  const cardByPasscode = new Map<number, number>();
  cards.forEach((card, index) => {
    cardByName.set(card.name, index);
    if (!cardByPasscode.has(card.id)) cardByPasscode.set(card.id, index);
    entries.add(index, card.name, ENGLISH << 1);
    for (const altName of card.altNames ?? []) entries.add(index, altName, (ENGLISH << 1) | ALT_NAME_BIT);
  });
  const localNames = addLocalNames(entries, cards, (passcode) => cardByPasscode.get(passcode), localizedNames);

  const aliasKeys: string[] = [];
  const aliasCards: number[] = [];
  for (const [abbreviation, target] of Object.entries(aliases)) {
    const card = cardByName.get(target);
    const key = tokenizeCardText(abbreviation).join('');
    // A table written for the full database may name cards missing from a smaller list.
    if (card !== undefined && key.length > 0) {
      aliasKeys.push(key);
      aliasCards.push(card);
    }
  }

  return {
    entryCard: Int32Array.from(entries.card),
    entryInfo: Uint8Array.from(entries.info),
    entryCompact: packStrings(entries.compact),
    entrySource: packStrings(entries.source),
    compactOrder: Int32Array.from(entries.compact.keys()).sort((a, b) => compareStrings(entries.compact[a] as string, entries.compact[b] as string)),
    aliasKeys,
    aliasCards: Int32Array.from(aliasCards),
    localNames: localNames.map(packStrings),
    passcodes: idIndex(cards.length, (card) => cards[card]?.id),
    konamiIds: idIndex(cards.length, (card) => cards[card]?.konamiId),
    singleWords: wordTables(entries.bySingle),
    joinedWords: wordTables(entries.byJoined),
    soundWords: wordTables(entries.bySound),
    ...tieRanks(cards),
  };
}
