import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { deckCards } from '../../src/decks/deck-cards.js';
import { deckPrice } from '../../src/decks/deck-price.js';

function card(id: number, prices: Card['prices']): Card {
  return {
    id,
    name: `Card ${id}`,
    kind: 'spell',
    frameType: 'spell',
    typeLine: 'Normal Spell',
    humanReadableType: 'Normal Spell',
    description: { text: '' },
    banlist: {},
    prices,
    sets: [],
    imageIds: [id],
    altNames: [],
    views: 0,
    formats: [],
  };
}

describe('deckPrice', () => {
  it('totals every copy per vendor, counts unpriced copies and ranks the three dearest by TCGplayer', () => {
    const cards = [card(1, { tcgplayer: 1.1, cardmarket: 0.5 }), card(2, { tcgplayer: 30 }), card(3, { tcgplayer: 2.25 }), card(4, { tcgplayer: 10 }), card(5, {})];
    const byId = new Map(cards.map((value) => [value.id, value]));
    const price = deckPrice(deckCards({ main: [1, 1, 1, 2, 3], extra: [4], side: [5, 5] }, (id) => byId.get(id)));
    expect(price.vendors.find((vendor) => vendor.source === 'tcgplayer')).toEqual({ source: 'tcgplayer', total: 45.55, unpriced: 2 });
    expect(price.vendors.find((vendor) => vendor.source === 'cardmarket')).toEqual({ source: 'cardmarket', total: 1.5, unpriced: 5 });
    expect(price.dearest.map((value) => value.id)).toEqual([2, 4, 3]);
  });
});
