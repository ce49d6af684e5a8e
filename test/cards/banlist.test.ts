import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { banlistPageCustomId, banlistsOf, changesBetween, deckCopiesOf, digestOf, genesysOffencesOf, offencesOf, parseBanlistPageCustomId, type BanlistEntry } from '../../src/cards/banlist.js';
import { BANLIST_FORMATS } from '../../src/cards/card.js';

const entry = (id: number, name: string, status: BanlistEntry['status']): BanlistEntry => ({ id, name, status });

describe('ban lists', () => {
  it('builds each format’s list from the cards, Forbidden first then by name', () => {
    const lists = banlistsOf([
      { id: 3, name: 'Zeta', banlist: { tcg: 'Limited' } },
      { id: 1, name: 'Alpha', banlist: { tcg: 'Forbidden', ocg: 'Semi-Limited' } },
      { id: 2, name: 'Beta', banlist: { tcg: 'Limited' } },
    ]);
    expect(lists.tcg.map((item) => item.name)).toEqual(['Alpha', 'Beta', 'Zeta']);
    expect(lists.ocg).toEqual([entry(1, 'Alpha', 'Semi-Limited')]);
    expect(lists.goat).toEqual([]);
  });

  it('groups changes by the new status, a card leaving the list last, and sees none between equal lists', () => {
    const before = [entry(1, 'Alpha', 'Limited'), entry(2, 'Beta', 'Forbidden'), entry(3, 'Gamma', 'Semi-Limited')];
    const after = [entry(1, 'Alpha', 'Forbidden'), entry(3, 'Gamma', 'Semi-Limited'), entry(4, 'Delta', 'Limited')];
    expect(changesBetween(before, after)).toEqual([
      { id: 1, name: 'Alpha', from: 'Limited', to: 'Forbidden' },
      { id: 4, name: 'Delta', from: 'Unlimited', to: 'Limited' },
      { id: 2, name: 'Beta', from: 'Forbidden', to: 'Unlimited' },
    ]);
    expect(changesBetween(after, [...after].reverse())).toEqual([]);
    expect(digestOf(after)).toBe(digestOf([...after].reverse()));
    expect(digestOf(after)).not.toBe(digestOf(before));
  });

  it('carries points: a points change is a change, with the points before and after', () => {
    expect(changesBetween([{ id: 1, name: 'Alpha', points: 20 }], [{ id: 1, name: 'Alpha', points: 33 }])).toEqual([
      { id: 1, name: 'Alpha', from: 'Unlimited', to: 'Unlimited', points: { from: 20, to: 33 } },
    ]);
  });

  it('flags a deck only for the cards the change puts over their new limit', () => {
    const changes = changesBetween([entry(1, 'Alpha', 'Limited'), entry(2, 'Beta', 'Semi-Limited')], [entry(1, 'Alpha', 'Forbidden'), entry(2, 'Beta', 'Limited')]);
    const deck = deckCopiesOf([1, 10, 2, 2, 99], (password) => (password === 99 ? undefined : password === 10 ? 1 : password));
    expect(deck).toEqual({ 1: 2, 2: 2 });
    // Two copies of Alpha were already over its old limit (Limited): the change does not make that deck illegal.
    expect(offencesOf(deck, changes)).toEqual([{ id: 2, name: 'Beta', copies: 2, status: 'Limited' }]);
    expect(offencesOf({ 1: 1 }, changes)).toEqual([{ id: 1, name: 'Alpha', copies: 1, status: 'Forbidden' }]);
    expect(offencesOf({ 3: 3 }, changes)).toEqual([]);
  });

  it('flags a deck for Genesys when a points change puts it over the cap, with the cards whose points rose', () => {
    const before = [{ id: 1, name: 'Alpha', points: 20 }, { id: 2, name: 'Beta', points: 30 }];
    const after = [{ id: 1, name: 'Alpha', points: 35 }, { id: 3, name: 'Gamma', points: 10 }];
    // 2×Alpha + 1×Beta + 1×Gamma: 70 before, 80 after; 3×Alpha + Gamma: 60, then 115.
    expect(genesysOffencesOf({ 1: 2, 2: 1, 3: 1 }, before, after, 100)).toBeNull();
    expect(genesysOffencesOf({ 1: 3, 3: 1 }, before, after, 100)).toEqual({
      total: 115,
      offences: [{ id: 1, name: 'Alpha', copies: 3, points: 35 }, { id: 3, name: 'Gamma', copies: 1, points: 10 }],
    });
    // Already over the cap before: the change does not make it illegal.
    expect(genesysOffencesOf({ 1: 3, 3: 1 }, before, after, 50)).toBeNull();
  });

  it('reads back every page button it makes, and nothing else', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BANLIST_FORMATS), fc.integer({ min: 0, max: 99 }), (format, page) => {
        expect(parseBanlistPageCustomId(banlistPageCustomId(format, page))).toEqual({ format, page });
      }),
    );
    fc.assert(
      fc.property(fc.string(), (customId) => {
        const parsed = parseBanlistPageCustomId(customId);
        if (parsed !== null) expect(banlistPageCustomId(parsed.format, parsed.page)).toBe(customId);
      }),
    );
    expect(parseBanlistPageCustomId('card:bl:speedduel:1')).toBeNull();
    expect(parseBanlistPageCustomId('card:bl:tcg:01')).toBeNull();
  });
});
