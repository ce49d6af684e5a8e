import type { Catalogue } from '../i18n/catalogue.js';

type CardTerms = Catalogue['cardTerms'];

function lookup(table: Readonly<Record<string, string>>, term: string): string | undefined {
  return Object.hasOwn(table, term) ? table[term] : undefined;
}

/**
 * A type line (`Spellcaster / Normal`, `Continuous Spell`, `Skill / Yami Yugi`) in the card game's
 * terms for the language of `terms`. YGOPRODeck writes types in English even in its translations;
 * a part it has no official term for (a Skill's character) stays as written.
 */
export function localizedTypeLine(typeLine: string, terms: CardTerms): string {
  const whole = lookup(terms.spellTrapLines, typeLine);
  if (whole !== undefined) return whole;
  return typeLine
    .split(' / ')
    .map((part) => lookup(terms.typeParts, part) ?? part)
    .join(' / ');
}

/** `DARK` → `TÉNÈBRES`: attributes as printed in the language of `terms`, unknown ones as written. */
export function localizedAttribute(attribute: string, terms: CardTerms): string {
  return lookup(terms.attributes, attribute) ?? attribute;
}
