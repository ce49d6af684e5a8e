import { UI_LOCALES, type Catalogue, type UiLocale } from './catalogue.js';
import { de } from './de.js';
import { en } from './en.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ptBR } from './pt-br.js';

export const CATALOGUES: Readonly<Record<UiLocale, Catalogue>> = { en, fr, de, it, 'pt-BR': ptBR };

/**
 * The interface language for a Discord locale (`fr`, `de`, `it`, `pt-BR`, `en-US`, …): the language
 * when Almanac speaks it, else English. Brazilian Portuguese also serves any other `pt` locale.
 */
export function uiLocaleOf(discordLocale: string): UiLocale {
  if ((UI_LOCALES as readonly string[]).includes(discordLocale)) return discordLocale as UiLocale;
  const language = discordLocale.split('-')[0]!.toLowerCase();
  if (language === 'pt') return 'pt-BR';
  return (UI_LOCALES as readonly string[]).includes(language) ? (language as UiLocale) : 'en';
}

/** Almanac's words for a Discord locale, English when it does not speak the language. */
export function messagesFor(discordLocale: string): Catalogue {
  return CATALOGUES[uiLocaleOf(discordLocale)];
}
