import { describe, expect, it } from 'vitest';
import type { CardSummary } from '../../src/cards/card-summary.js';
import { banlistFormatOf, matchesFilters } from '../../src/cards/search-filters.js';

const DRAGON: CardSummary = {
  id: 1,
  name: 'Blue-Eyes White Dragon',
  kind: 'monster',
  typeLine: 'Dragon / Normal',
  attribute: 'LIGHT',
  level: 8,
  views: 10,
  altNames: [],
  formats: ['TCG', 'OCG'],
  banlist: { ocg: 'Limited' },
  race: 'Dragon',
  atk: 3000,
  def: 2500,
  tcgDate: '2002-03-08',
  ocgDate: '1999-02-04',
};
const PENDULUM: CardSummary = { ...DRAGON, id: 2, race: 'Spellcaster', atk: '?', def: 0, scale: 4, banlist: { tcg: 'Semi-Limited' }, tcgDate: '2024-05-01' };
const LINK: CardSummary = { ...DRAGON, id: 3, race: 'Cyberse', linkRating: 3, def: undefined, banlist: { tcg: 'Forbidden' } } as CardSummary;

describe('matchesFilters with /card search’s own filters', () => {
  const keeps = (filters: Parameters<typeof matchesFilters>[1]) => [DRAGON, PENDULUM, LINK].filter((card) => matchesFilters(card, filters)).map((card) => card.id);

  it('narrows by race', () => {
    expect(keeps({ race: 'Dragon' })).toEqual([1]);
  });

  it('narrows by ATK and DEF ranges and by ?', () => {
    expect(keeps({ atk: { min: 2500, max: 99_999 } })).toEqual([1, 3]);
    expect(keeps({ atk: '?' })).toEqual([2]);
    expect(keeps({ def: { min: 0, max: 1000 } })).toEqual([2]);
  });

  it('narrows by Link Rating and Pendulum Scale, leaving out the cards without one', () => {
    expect(keeps({ link: { min: 2, max: 4 } })).toEqual([3]);
    expect(keeps({ scale: { min: 4, max: 4 } })).toEqual([2]);
  });

  it('reads the ban status of the format’s list, TCG’s without one', () => {
    expect(keeps({ banned: 'forbidden' })).toEqual([3]);
    expect(keeps({ banned: 'semi-limited' })).toEqual([2]);
    expect(keeps({ banned: 'limited', format: 'ocg' })).toEqual([1]);
    expect(banlistFormatOf(undefined)).toBe('tcg');
    expect(banlistFormatOf('speedduel')).toBeUndefined();
  });

  it('compares the TCG release date, the OCG one with the OCG format', () => {
    expect(keeps({ released: { before: '2010-01-01' } })).toEqual([1, 3]);
    expect(keeps({ released: { from: '2024-01-01' } })).toEqual([2]);
    expect(keeps({ released: { before: '2000-01-01' }, format: 'ocg' })).toEqual([1, 2, 3]);
  });
});
