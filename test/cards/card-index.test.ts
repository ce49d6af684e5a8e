import { describe, expect, it } from 'vitest';
import { buildCardIndex, cardSetParts, cardSetPartsOf } from '../../src/cards/card-index.js';
import type { CardSummary } from '../../src/cards/card-summary.js';

function summary(id: number, name: string, extra: Partial<CardSummary> = {}): CardSummary {
  return { id, name, kind: 'monster', typeLine: 'Dragon / Normal', altNames: [], views: 0, formats: [], ...extra } as CardSummary;
}

const CARDS = [
  summary(1, 'Blue-Eyes White Dragon', { archetype: 'Blue-Eyes', views: 500, konamiId: 4007 }),
  summary(2, 'Dark Magician', { archetype: 'Dark Magician', views: 900, altNames: ['Dark Magician (Arkana)'] }),
  summary(3, 'Blue-Eyes Alternative White Dragon', { archetype: 'Blue-Eyes', views: 100 }),
  summary(4, 'Pot of Greed', { kind: 'spell', typeLine: 'Normal Spell' }),
];

describe('cardSetParts', () => {
  it('lists each archetype once, sorted, and finds it by its lowercase name', () => {
    const parts = cardSetParts(CARDS);
    expect(parts.archetypes).toEqual(['Blue-Eyes', 'Dark Magician']);
    expect(parts.archetypeByKey.get('blue-eyes')).toBe('Blue-Eyes');
    expect(parts.archetypeByKey.has('Blue-Eyes')).toBe(false);
  });

  it('reads each card as the matcher does: views as popularity, old names, the Konami id only when known', () => {
    const { matchable, cards } = cardSetParts(CARDS);
    expect(cards).toBe(CARDS);
    expect(matchable[0]).toEqual({ id: 1, name: 'Blue-Eyes White Dragon', altNames: [], konamiId: 4007, popularity: 500 });
    expect(matchable[1]).toEqual({ id: 2, name: 'Dark Magician', altNames: ['Dark Magician (Arkana)'], popularity: 900 });
    expect('konamiId' in (matchable[1] ?? {})).toBe(false);
  });

  it('gives the same parts read one card at a time as at once', () => {
    const parts = cardSetPartsOf(CARDS);
    for (let at = CARDS.length - 1; at >= 0; at--) parts.add(at);
    expect(parts.done()).toEqual(cardSetParts(CARDS));
  });
});

describe('buildCardIndex', () => {
  it('matches the card set’s names and a language’s names, and starts with no set listing', () => {
    const index = buildCardIndex({ ...cardSetParts(CARDS), names: new Map([['fr', new Map([[2, 'Magicien Sombre']])]]) }, {});
    expect(index.matcher.best('dark magician')?.match.id).toBe(2);
    expect(index.matcher.best('magicien sombre', 'fr')?.match.id).toBe(2);
    expect(index.archetypes).toEqual(['Blue-Eyes', 'Dark Magician']);
    expect(index.setListings.size).toBe(0);
  });
});
