import { CARD_LANGUAGES, type CardLanguage } from './card.js';

/**
 * The language of a user's card names and texts: the `language` option when given (`en` meaning
 * English), else their Discord locale when YGOPRODeck has it (`pt-BR` and `pt-PT` → `pt`);
 * undefined for English.
 */
export function cardLanguageFor(option: string | null, locale: string): CardLanguage | undefined {
  const wanted = option ?? locale.split('-')[0]!.toLowerCase();
  return (CARD_LANGUAGES as readonly string[]).includes(wanted) ? (wanted as CardLanguage) : undefined;
}
