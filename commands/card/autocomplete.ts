import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { AutocompleteChoice, AutocompleteContext } from '../../src/interaction/context.js';
import { bilingualCardName } from '../../src/render/card-name.js';
import { truncate } from '../../src/render/format.js';
import { setAutocompleteValue } from '../../src/cards/card-set.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { raceSuggestions } from '../../src/render/card-search.js';
import type { AppServices } from '../../src/app/services.js';

/** Discord's limits on one autocomplete answer. */
const MAX_CHOICES = 25;
const MAX_CHOICE_CHARS = 100;

/**
 * Suggestions for `/card show name` (card names, in the user's language too, shown beside the
 * English name; the value is the passcode, so the pick resolves exactly), `/card set name` (set names and codes; the value is the set's name, which resolves
 * exactly), `/card search archetype` and `race` (Types in the user's language). Local only: autocomplete cannot be deferred, so it never
 * waits on YGOPRODeck, and it suggests nothing while the card database or set list is still loading.
 */
export function cardAutocomplete(ctx: AutocompleteContext, app: AppServices): AutocompleteChoice[] {
  const { name, value } = ctx.focused;
  if (name === 'name' && ctx.options.subcommand === 'set') {
    return app.cards.suggestSets(value, MAX_CHOICES).map((set) => ({
      // The code stays visible however long the name: it tells apart sets of similar names.
      name: `${truncate(set.name, MAX_CHOICE_CHARS - set.code.length - 3)} (${set.code})`.slice(0, MAX_CHOICE_CHARS),
      value: setAutocompleteValue(set, MAX_CHOICE_CHARS),
    }));
  }
  if (name === 'name') {
    // Names in the user's language (the `language` option, else their locale) match as well as English ones.
    const language = cardLanguageFor(ctx.options.getString('language'), ctx.user.locale);
    const cards = app.cards.suggest(value, MAX_CHOICES, language);
    const localNames = app.cards.localNames(cards, language);
    return cards.map((card) => ({ name: bilingualCardName(card.name, localNames.get(card.id), MAX_CHOICE_CHARS), value: String(card.id) }));
  }
  if (name === 'race') {
    // Types in the user's own language; the value is the English name, which the search reads.
    return raceSuggestions(value, messagesFor(ctx.user.locale)).slice(0, MAX_CHOICES);
  }
  if (name === 'archetype') {
    // An archetype's value is its name, so one too long to be a value cannot be offered.
    return app.cards
      .archetypes(value, MAX_CHOICES)
      .filter((archetype) => archetype.length <= MAX_CHOICE_CHARS)
      .map((archetype) => ({ name: archetype, value: archetype }));
  }
  return [];
}
