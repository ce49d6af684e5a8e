import type { RawCard } from '../../src/cards/normalise-card.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { PRINTED_CARD_NAMES } from './printed-card-names.js';

/**
 * Generated `cardinfo.php?language=…` cards: no real language dump is reachable offline, so the fake
 * YGOPRODeck translates the English dump deterministically. About 3 % of the cards have no
 * translation (absent from the language's dump, as upstream's untranslated cards are); the others
 * get a translated `name`, `desc` (and Pendulum texts) and `name_en`, with accented letters and
 * about the English text's length, so a language dump weighs what a real one does. The same English
 * word always becomes the same translated word, so translated names stay searchable.
 */

export type FakeLanguage = 'fr' | 'de' | 'it' | 'pt';

/** Share of cards without a translation in a language. */
export const UNTRANSLATED_SHARE = 0.03;

const LANGUAGE_SEEDS: Readonly<Record<FakeLanguage, number>> = { fr: 0x6672, de: 0x6465, it: 0x6974, pt: 0x7074 };

/** A few real words per language, for the words cards use most; other words get a made-up spelling. */
const DICTIONARIES: Readonly<Record<FakeLanguage, Readonly<Record<string, string>>>> = {
  fr: { dragon: 'Dragon', magician: 'Magicien', dark: 'Sombre', white: 'Blanc', blue: 'Bleu', eyes: 'Yeux', card: 'carte', cards: 'cartes', monster: 'monstre', monsters: 'monstres', destroy: 'détruisez', summon: 'Invocation', deck: 'Deck', graveyard: 'Cimetière', opponent: 'adversaire', your: 'votre', the: 'le', of: 'de', and: 'et', this: 'cette', when: 'quand', spell: 'Magie', trap: 'Piège', effect: 'effet', turn: 'tour', field: 'Terrain', hand: 'main', warrior: 'Guerrier', knight: 'Chevalier' },
  de: { dragon: 'Drache', magician: 'Magier', dark: 'Dunkler', white: 'Weißer', blue: 'Blauäugiger', eyes: 'Augen', card: 'Karte', cards: 'Karten', monster: 'Monster', monsters: 'Monster', destroy: 'zerstöre', summon: 'Beschwörung', deck: 'Deck', graveyard: 'Friedhof', opponent: 'Gegner', your: 'deine', the: 'die', of: 'von', and: 'und', this: 'diese', when: 'wenn', spell: 'Zauber', trap: 'Falle', effect: 'Effekt', turn: 'Spielzug', field: 'Spielfeld', hand: 'Hand', warrior: 'Krieger', knight: 'Ritter' },
  it: { dragon: 'Drago', magician: 'Mago', dark: 'Nero', white: 'Bianco', blue: 'Blu', eyes: 'Occhi', card: 'carta', cards: 'carte', monster: 'mostro', monsters: 'mostri', destroy: 'distruggi', summon: 'Evocazione', deck: 'Deck', graveyard: 'Cimitero', opponent: 'avversario', your: 'il tuo', the: 'il', of: 'di', and: 'e', this: 'questa', when: 'quando', spell: 'Magia', trap: 'Trappola', effect: 'effetto', turn: 'turno', field: 'Terreno', hand: 'mano', warrior: 'Guerriero', knight: 'Cavaliere' },
  pt: { dragon: 'Dragão', magician: 'Mago', dark: 'Negro', white: 'Branco', blue: 'Azuis', eyes: 'Olhos', card: 'card', cards: 'cards', monster: 'monstro', monsters: 'monstros', destroy: 'destrua', summon: 'Invocação', deck: 'Deck', graveyard: 'Cemitério', opponent: 'oponente', your: 'seu', the: 'o', of: 'de', and: 'e', this: 'este', when: 'quando', spell: 'Magia', trap: 'Armadilha', effect: 'efeito', turn: 'turno', field: 'Campo', hand: 'mão', warrior: 'Guerreiro', knight: 'Cavaleiro' },
};

/** How each language respells a made-up word: letter swaps and an ending, picked by the word's hash. */
const RESPELLINGS: Readonly<Record<FakeLanguage, { swaps: readonly (readonly [string, string])[]; endings: readonly string[] }>> = {
  fr: { swaps: [['e', 'é'], ['a', 'â'], ['c', 'ç'], ['k', 'qu'], ['y', 'i']], endings: ['e', 'eur', 'ière', ''] },
  de: { swaps: [['a', 'ä'], ['o', 'ö'], ['u', 'ü'], ['c', 'k'], ['sh', 'sch']], endings: ['en', 'er', 'ung', ''] },
  it: { swaps: [['k', 'c'], ['y', 'i'], ['w', 'v'], ['e', 'è'], ['th', 't']], endings: ['o', 'a', 'ione', 'i'] },
  pt: { swaps: [['k', 'c'], ['y', 'i'], ['a', 'ã'], ['o', 'ô'], ['ph', 'f']], endings: ['o', 'ão', 'a', 'es'] },
};

/**
 * The language's dump of `cards`: translated cards only, in the same order. Built on every call
 * (about a second for the full dump) rather than kept: four dumps held as objects would weigh
 * hundreds of MB in the process that measures the bot's latency next to them.
 */
export function translatedDump(cards: readonly RawCard[], language: FakeLanguage): RawCard[] {
  return cards.map((card) => translatedCard(card, language)).filter((card) => card !== undefined);
}

/**
 * Each card's translations, made once per test worker: fakes serve the same cards of the dump to
 * file after file, and translating thousands of texts word by word is seconds of CPU.
 */
const TRANSLATED_CARDS = new WeakMap<RawCard, Map<FakeLanguage, RawCard | undefined>>();

/** `card` as `cardinfo.php?language=…` serves it, or undefined when it has no translation there. */
export function translatedCard(card: RawCard, language: FakeLanguage): RawCard | undefined {
  let translations = TRANSLATED_CARDS.get(card);
  if (translations === undefined) TRANSLATED_CARDS.set(card, (translations = new Map()));
  if (!translations.has(language)) translations.set(language, translate(card, language));
  return translations.get(language);
}

function translate(card: RawCard, language: FakeLanguage): RawCard | undefined {
  const random = seededRandom((card.id * 31 + LANGUAGE_SEEDS[language]) >>> 0);
  const printedName = PRINTED_CARD_NAMES[card.name]?.[language];
  if (random() < UNTRANSLATED_SHARE && printedName === undefined) return undefined;
  const translate = (text: string) => translateText(text, language);
  return {
    ...card,
    // Well-known cards keep their printed names, so a test can search for one as players type it.
    name: printedName ?? translate(card.name),
    desc: translate(card.desc),
    ...(typeof card.pend_desc === 'string' ? { pend_desc: translate(card.pend_desc) } : {}),
    ...(typeof card.monster_desc === 'string' ? { monster_desc: translate(card.monster_desc) } : {}),
    name_en: card.name,
  };
}

/** Each language's translation of each word seen so far: the same word always translates the same way. */
const TRANSLATED_WORDS: Readonly<Record<FakeLanguage, Map<string, string>>> = { fr: new Map(), de: new Map(), it: new Map(), pt: new Map() };

/** Word by word, keeping punctuation, line breaks and Pendulum markers (`[ Pendulum Effect ]`) as they are. */
function translateText(text: string, language: FakeLanguage): string {
  // Only Pendulum texts have brackets: the others skip the marker check, a scan back per word.
  const mayHaveMarkers = text.includes('[');
  const words = TRANSLATED_WORDS[language];
  return text.replace(/\b[A-Za-z]{2,}\b/g, (word, offset: number) => {
    if (mayHaveMarkers && isPendulumMarker(text, offset)) return word;
    let translated = words.get(word);
    if (translated === undefined) {
      const lower = DICTIONARIES[language][word.toLowerCase()] ?? respell(word, language);
      translated = /^[A-Z]/.test(word) ? lower[0]!.toUpperCase() + lower.slice(1) : lower;
      words.set(word, translated);
    }
    return translated;
  });
}

function isPendulumMarker(text: string, offset: number): boolean {
  const opening = text.lastIndexOf('[', offset);
  return opening >= 0 && text.indexOf(']', opening) > offset && /^\[\s*(?:Pendulum|Monster) Effect\s*\]/.test(text.slice(opening));
}

function respell(word: string, language: FakeLanguage): string {
  const hash = wordHash(word.toLowerCase() + language);
  const { swaps, endings } = RESPELLINGS[language];
  let result = word.toLowerCase();
  const [from, to] = swaps[hash % swaps.length]!;
  result = result.replace(from, to);
  // Short words keep their ending: "of", "to", "or" stay short, as they are in every language.
  return result.length <= 3 ? result : result + endings[(hash >>> 8) % endings.length]!;
}

/** FNV-1a. */
function wordHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}
