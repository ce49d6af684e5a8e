import { describe, expect, it } from 'vitest';
import { UI_LOCALES } from '../../src/i18n/catalogue.js';
import { en } from '../../src/i18n/en.js';
import { CATALOGUES, messagesFor, uiLocaleOf } from '../../src/i18n/messages.js';

/** Every leaf of a catalogue as `path → value`, e.g. `card.level → "Niveau"`. */
function leaves(node: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      for (const [path, leaf] of leaves(value, prefix === '' ? key : `${prefix}.${key}`)) found.set(path, leaf);
    }
  } else {
    found.set(prefix, node);
  }
  return found;
}

/** Sample arguments of the right kinds: numbers for counts and seconds, booleans for plurals, text otherwise. */
function sampleArguments(englishSentence: (...args: never[]) => string): unknown[][] {
  const parameters = /^\(([^)]*)\)/.exec(englishSentence.toString())?.[1]?.split(',').map((name) => name.trim()) ?? [];
  const sample = (name: string, variant: number): unknown => {
    if (['seconds', 'shown', 'skipped', 'count', 'max'].includes(name)) return variant === 0 ? 1 : 7;
    if (name === 'one' || name === 'filtered') return variant === 0;
    return `«${name}»`;
  };
  return [0, 1].map((variant) => parameters.map((name) => sample(name, variant)));
}

const english = leaves(en);

describe('message catalogues', () => {
  it.each(UI_LOCALES)('%s has exactly the English keys', (locale) => {
    expect([...leaves(CATALOGUES[locale]).keys()].sort()).toEqual([...english.keys()].sort());
  });

  it.each(UI_LOCALES)('%s: every message is a non-empty sentence for every argument', (locale) => {
    for (const [path, value] of leaves(CATALOGUES[locale])) {
      const englishValue = english.get(path);
      expect(typeof value, path).toBe(typeof englishValue);
      const texts =
        typeof value === 'function'
          ? sampleArguments(englishValue as (...args: never[]) => string).map((args) => (value as (...a: unknown[]) => string)(...args))
          : [value as string];
      for (const text of texts) {
        expect(text.trim(), path).not.toBe('');
        expect(text, path).not.toMatch(/\bundefined\b|\bnull\b|\bNaN\b|\[object/);
      }
    }
  });

  it('a catalogue missing a key is caught', () => {
    const broken = { ...CATALOGUES.fr, card: { ...CATALOGUES.fr.card, level: undefined } };
    expect([...leaves(broken).entries()].filter(([, value]) => value === undefined).map(([path]) => path)).toEqual(['card.level']);
  });

  it('official card-game terms per language', () => {
    expect(UI_LOCALES.map((locale) => CATALOGUES[locale].card.level)).toEqual(['Level', 'Niveau', 'Stufe', 'Livello', 'Nível']);
    expect(UI_LOCALES.map((locale) => CATALOGUES[locale].card.rank)).toEqual(['Rank', 'Rang', 'Rang', 'Rango', 'Classe']);
    expect(UI_LOCALES.map((locale) => CATALOGUES[locale].cardTerms.spellTrapLines.Spell)).toEqual(['Spell', 'Magie', 'Zauber', 'Magia', 'Magia']);
    expect(UI_LOCALES.map((locale) => CATALOGUES[locale].cardTerms.spellTrapLines.Trap)).toEqual(['Trap', 'Piège', 'Falle', 'Trappola', 'Armadilha']);
    expect(UI_LOCALES.map((locale) => CATALOGUES[locale].card.link)).toEqual(['Link', 'Lien', 'Link', 'Link', 'Link']);
  });

  it('maps Discord locales to the language Almanac speaks, English otherwise', () => {
    expect(['fr', 'de', 'it', 'pt-BR', 'pt-PT', 'en-GB', 'en-US', 'ja', 'es-419'].map(uiLocaleOf)).toEqual([
      'fr',
      'de',
      'it',
      'pt-BR',
      'pt-BR',
      'en',
      'en',
      'en',
      'en',
    ]);
    expect(messagesFor('fr').card.level).toBe('Niveau');
  });
});
