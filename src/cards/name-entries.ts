import { CARD_LANGUAGES, type CardLanguage } from './card.js';
import { tokenizeCardText } from './card-words.js';
import type { LocalizedCardNames } from './localized-names.js';

/**
 * A matcher's "entries": a card's English name, its old names, and its name in each other
 * language, each with the word postings it is found by.
 */

/** Languages a name entry can be in: English (current and old names) first, then each translation. */
export const ENGLISH = 0;
export const LANGUAGE_CODES: readonly (CardLanguage | 'en')[] = ['en', ...CARD_LANGUAGES];
/** An entry's info byte: its language code shifted left by one, plus this bit for an old name. */
export const ALT_NAME_BIT = 1;

/**
 * Collects name entries while a matcher is built, with the word postings of each: single words,
 * adjacent pairs joined, and sound keys.
 */
export class EntryBuilder {
  readonly card: number[] = [];
  readonly info: number[] = [];
  readonly compact: string[] = [];
  readonly source: string[] = [];
  readonly bySingle = new Map<string, number[]>();
  readonly byJoined = new Map<string, number[]>();
  readonly bySound = new Map<string, number[]>();
  private readonly soundKeys = new Map<string, string>();

  constructor(private readonly soundKey: (word: string) => string) {}

  add(card: number, name: string, info: number): void {
    const words = tokenizeCardText(name);
    if (words.length === 0) return;
    const entry = this.card.length;
    this.card.push(card);
    this.info.push(info);
    this.compact.push(words.join(''));
    this.source.push(name);
    const sounds = new Set<string>();
    for (const word of new Set(words)) {
      appendTo(this.bySingle, word, entry);
      let key = this.soundKeys.get(word);
      if (key === undefined) this.soundKeys.set(word, (key = this.soundKey(word)));
      if (key !== '') sounds.add(key);
    }
    for (const key of sounds) appendTo(this.bySound, key, entry);
    const joined = new Set<string>();
    for (let i = 1; i < words.length; i++) joined.add(`${words[i - 1]}${words[i]}`);
    for (const word of joined) appendTo(this.byJoined, word, entry);
  }
}

export function appendTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Each card's name per language (indexed as in `LANGUAGE_CODES`) when it differs from the English
 * one; a name that differs in more than case, spacing or punctuation also becomes an entry.
 */
export function addLocalNames(
  entries: EntryBuilder,
  cards: readonly { name: string }[],
  cardOf: (passcode: number) => number | undefined,
  localizedNames: LocalizedCardNames | undefined,
): (string | undefined)[][] {
  return LANGUAGE_CODES.map((language, code) => {
    const names: (string | undefined)[] = [];
    if (language === 'en' || localizedNames === undefined) return names;
    names.length = cards.length;
    for (const [passcode, name] of localizedNames(language)) {
      const card = cardOf(passcode);
      if (card === undefined || typeof name !== 'string') continue;
      const english = (cards[card] as { name: string }).name;
      if (name === english) continue;
      names[card] = name;
      if (tokenizeCardText(name).join('') !== tokenizeCardText(english).join('')) entries.add(card, name, code << 1);
    }
    return names;
  });
}
