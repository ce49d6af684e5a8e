import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import type { CardSummary } from '../../src/cards/card-summary.js';
import { pickRandomCard, type RandomCardSource } from '../../src/cards/random-pick.js';

const CARDS = [
  { id: 1, name: 'Blue-Eyes White Dragon', archetype: 'Blue-Eyes' },
  { id: 2, name: 'Blue-Eyes Alternative White Dragon', archetype: 'Blue-Eyes' },
  { id: 3, name: 'Dark Magician', archetype: 'Dark Magician' },
  { id: 4, name: 'Pot of Greed' },
] as unknown as Card[];

/** A database whose `random` takes the first card it may, so that a test knows what comes. */
function source(cards: readonly Card[] = CARDS): RandomCardSource {
  return {
    random: (exclude, accept) => cards.find((card) => !exclude?.has(card.id) && (accept === undefined || accept(card as CardSummary))),
    summaryById: (id) => cards.find((card) => card.id === id),
    byId: (id) => cards.find((card) => card.id === id),
  };
}

describe('pickRandomCard', () => {
  it('never picks one of the recent cards while another matches', () => {
    expect(pickRandomCard(source(), [1, 2], {})?.id).toBe(3);
    expect(pickRandomCard(source(), [1], { archetype: 'Blue-Eyes' })?.id).toBe(2);
  });

  it('picks the matching card picked longest ago once every match is recent, so they come round in turn', () => {
    expect(pickRandomCard(source(), [2, 3, 1], { archetype: 'Blue-Eyes' })?.id).toBe(2);
    // A card picked twice counts from its last pick.
    expect(pickRandomCard(source(), [2, 1, 2], { archetype: 'Blue-Eyes' })?.id).toBe(1);
  });

  it('picks any card without filters even when every card is recent', () => {
    expect(pickRandomCard(source(), [1, 2, 3, 4], {})).toBeDefined();
  });

  it('picks nothing when no card matches the filters', () => {
    expect(pickRandomCard(source(), [], { archetype: 'Kuriboh' })).toBeUndefined();
    expect(pickRandomCard(source([]), [], {})).toBeUndefined();
  });
});
