import type { AutocompleteChoice } from '../../src/interaction/context.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { DEFAULT_CHOICE, LANGUAGE_NAMES } from '../../src/settings/settings.js';
import { UI_LOCALES } from '../../src/i18n/catalogue.js';

/** Longest query read: a language name is short, and Discord sends whatever was typed. */
const MAX_QUERY = 50;

/**
 * The languages whose name or code contains what was typed (all of them for nothing typed), each
 * under its own name, then Default in the member's language.
 */
export function languageSuggestions(typed: string, locale: string): AutocompleteChoice[] {
  const query = typed.slice(0, MAX_QUERY).trim().toLowerCase();
  const defaultName = messagesFor(locale).settings.defaultLanguage;
  const all: AutocompleteChoice[] = [...UI_LOCALES.map((code) => ({ name: LANGUAGE_NAMES[code], value: code })), { name: defaultName, value: DEFAULT_CHOICE }];
  return all.filter((choice) => query === '' || choice.name.toLowerCase().includes(query) || choice.value.toLowerCase().includes(query));
}
