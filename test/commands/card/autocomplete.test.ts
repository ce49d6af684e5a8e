import { describe, expect, it, vi } from 'vitest';
import { cardAutocomplete } from '../../../commands/card/autocomplete.js';
import { autocompleteContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);

function cards() {
  return {
    suggest: vi.fn(() => [DARK_MAGICIAN]),
    localNames: () => new Map([[DARK_MAGICIAN.id, 'Magicien Sombre']]),
    suggestSets: vi.fn(() => [{ key: 'k', name: 'A'.repeat(120), code: 'LOB' }]),
    archetypes: () => ['Dark Magician', 'X'.repeat(101)],
  };
}

describe('/card autocomplete', () => {
  it('suggests card names in the user’s language beside the English one, the passcode as value', () => {
    const service = cards();
    const choices = cardAutocomplete(autocompleteContext('show', { name: 'name', value: 'magi' }, {}, { user: { locale: 'fr' } }), stubServices({ cards: service }));
    expect(service.suggest).toHaveBeenCalledWith('magi', 25, 'fr');
    expect(choices).toEqual([{ name: 'Magicien Sombre (Dark Magician)', value: '46986414' }]);
  });

  it('suggests sets for /card set, keeping the code visible however long the name, within 100 characters', () => {
    const [choice] = cardAutocomplete(autocompleteContext('set', { name: 'name', value: 'lob' }), stubServices({ cards: cards() }));
    expect(choice!.name).toHaveLength(100);
    expect(choice!.name.endsWith('(LOB)')).toBe(true);
  });

  it('offers archetypes short enough to be a value, and nothing for another option', () => {
    expect(cardAutocomplete(autocompleteContext('search', { name: 'archetype', value: 'dark' }), stubServices({ cards: cards() }))).toEqual([{ name: 'Dark Magician', value: 'Dark Magician' }]);
    expect(cardAutocomplete(autocompleteContext('search', { name: 'query', value: 'dark' }), stubServices({ cards: cards() }))).toEqual([]);
  });
});
