import { describe, expect, it } from 'vitest';
import { firstCardWithId, forEachCardWithId, idIndex } from '../../src/cards/id-index.js';

describe('id index', () => {
  // Cards 0..5: ids out of order, one shared by cards 1 and 4, card 3 without one.
  const ids = [89631139, 4041, 5318639, undefined, 4041, 46986414];
  const index = idIndex(ids.length, (card) => ids[card]);
  const cardsWith = (id: number) => {
    const found: number[] = [];
    forEachCardWithId(index, id, (card) => found.push(card));
    return found;
  };

  it('finds every card under an id, in card order, and the first one', () => {
    expect(cardsWith(4041)).toEqual([1, 4]);
    expect(firstCardWithId(index, 4041)).toBe(1);
    expect(firstCardWithId(index, 46986414)).toBe(5);
    expect(firstCardWithId(index, 89631139)).toBe(0);
  });

  it('finds nothing for an id no card has, below, between or above them all', () => {
    for (const id of [0, 4042, 99999999, Number.NaN]) {
      expect(cardsWith(id)).toEqual([]);
      expect(firstCardWithId(index, id)).toBeUndefined();
    }
  });

  it('leaves out cards without an id, and holds nothing for no cards', () => {
    expect(index.ids.length).toBe(5);
    expect(firstCardWithId(idIndex(0, () => 1), 1)).toBeUndefined();
  });
});
