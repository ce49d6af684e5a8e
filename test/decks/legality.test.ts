import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { deckCards, sectionSize } from '../../src/decks/deck-cards.js';
import { checkFormat, checkLegality } from '../../src/decks/legality.js';

const EVERY_FORMAT = ['TCG', 'OCG', 'GOAT', 'Master Duel', 'Speed Duel'];

function card(id: number, name: string, extra: Partial<Card> = {}): Card {
  return {
    id,
    name,
    kind: 'monster',
    frameType: 'effect',
    typeLine: 'Warrior / Effect',
    humanReadableType: 'Effect Monster',
    description: { text: '' },
    banlist: {},
    prices: {},
    sets: [],
    imageIds: [id],
    altNames: [],
    views: 0,
    formats: EVERY_FORMAT,
    ...extra,
  };
}

/** 40 distinct legal fillers, so each test changes one thing. */
const fillers = Array.from({ length: 40 }, (_, index) => card(1000 + index, `Filler ${index}`));
const byId = new Map<number, Card>(fillers.map((filler) => [filler.id, filler]));
function lookUp(...cards: Card[]): (password: number) => Card | undefined {
  const all = new Map(byId);
  for (const extra of cards) for (const id of extra.imageIds) all.set(id, extra);
  return (password) => all.get(password);
}
const fillerIds = fillers.map((filler) => filler.id);

describe('checkLegality', () => {
  it('a 40-card deck of released unlimited cards is legal everywhere but Speed Duel (main over 30)', () => {
    const verdicts = checkLegality(deckCards({ main: fillerIds, extra: [], side: [] }, lookUp()));
    expect(verdicts.map((verdict) => verdict.status)).toEqual(['legal', 'legal', 'legal', 'legal', 'illegal']);
    expect(verdicts[4]!.violations).toEqual([{ kind: 'mainSize', count: 40, min: 20, max: 30 }]);
  });

  it('counts alternate arts and treated-as names together for the three-copy rule', () => {
    const ash = card(14558127, 'Ash Blossom & Joyous Spring', { imageIds: [14558127, 14558128] });
    const harpie = card(76812113, 'Harpie Lady');
    const harpie1 = card(91932350, 'Harpie Lady 1', { treatedAs: 'Harpie Lady' });
    const deck = { main: [...fillerIds.slice(0, 33), 14558127, 14558127, 14558128, 76812113, 76812113, 91932350, 91932350], extra: [], side: [14558128] };
    const verdict = checkFormat(deckCards(deck, lookUp(ash, harpie, harpie1)), 'TCG');
    expect(verdict.status).toBe('illegal');
    expect(verdict.violations).toEqual([
      { kind: 'copies', name: 'Ash Blossom & Joyous Spring', count: 4 },
      { kind: 'copies', name: 'Harpie Lady', count: 4 },
    ]);
  });

  it('names forbidden and limited cards against each list, and cards not released in a format', () => {
    const pot = card(55144522, 'Pot of Greed', { banlist: { tcg: 'Forbidden', ocg: 'Forbidden', goat: 'Limited' } });
    const local = card(1, 'OCG Only', { formats: ['OCG'] });
    const deck = { main: [...fillerIds.slice(0, 38), 55144522, 1], extra: [], side: [] };
    const verdicts = checkLegality(deckCards(deck, lookUp(pot, local)));
    expect(verdicts[0]!.violations).toEqual([
      { kind: 'limited', name: 'Pot of Greed', status: 'Forbidden', count: 1 },
      { kind: 'notReleased', name: 'OCG Only' },
    ]);
    expect(verdicts[1]!.violations).toEqual([{ kind: 'limited', name: 'Pot of Greed', status: 'Forbidden', count: 1 }]);
    expect(verdicts[2]!.violations).toEqual([{ kind: 'notReleased', name: 'OCG Only' }]);
  });

  it('a card without format data makes the verdict unknown, never illegal', () => {
    const imported = card(2, 'Imported', { formats: [] });
    const verdict = checkFormat(deckCards({ main: [...fillerIds.slice(0, 39), 2], extra: [], side: [] }, lookUp(imported)), 'TCG');
    expect(verdict).toEqual({ format: 'TCG', status: 'unknown', violations: [], unknownBecause: 'noFormatData' });
  });

  it('keeps unknown passwords apart with their counts', () => {
    const cards = deckCards({ main: [...fillerIds, 12345678, 12345678], extra: [], side: [] }, lookUp());
    expect(cards.unknown).toEqual([{ password: 12345678, count: 2 }]);
    expect(cards.sections.main).toHaveLength(40);
  });

  it('keeps unknown passwords apart with their counts, and counts them in their section', () => {
    const cards = deckCards({ main: [...fillerIds, 12345678, 12345678], extra: [], side: [12345678] }, lookUp());
    expect(cards.unknownCounts).toEqual({ main: 2, extra: 0, side: 1 });
    expect(sectionSize(cards, 'main')).toBe(42);
    expect(sectionSize(cards, 'side')).toBe(1);
  });
});

describe('unknown cards count in a deck’s sizes', () => {
  /** 14 passwords newer than the database, as in a real 40-card deck read from a simulator's folder. */
  const newer = Array.from({ length: 14 }, (_, index) => 99_000_000 + index);

  it('a 40-card deck holding 14 unknown passwords is 40 cards: never too small, unknown where it would be legal', () => {
    const cards = deckCards({ main: [...fillerIds.slice(0, 26), ...newer], extra: [], side: [] }, lookUp());
    expect(sectionSize(cards, 'main')).toBe(40);
    const verdicts = checkLegality(cards);
    expect(verdicts.map((verdict) => verdict.status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'illegal']);
    expect(verdicts[0]).toEqual({ format: 'TCG', status: 'unknown', violations: [], unknownBecause: 'unknownCards' });
    // Speed Duel's 20–30 is broken by the 40 cards, unknown ones included.
    expect(verdicts[4]!.violations).toEqual([{ kind: 'mainSize', count: 40, min: 20, max: 30 }]);
  });

  it('a deck of 40 known cards and one unknown is 41 cards', () => {
    const cards = deckCards({ main: [...fillerIds, 12345678], extra: [], side: [] }, lookUp());
    expect(sectionSize(cards, 'main')).toBe(41);
    expect(checkFormat(cards, 'TCG').status).toBe('unknown');
  });

  it('a size broken with unknown cards counted is illegal: every password is a card of the deck', () => {
    const cards = deckCards({ main: [...fillerIds, ...fillerIds.slice(0, 10), ...newer], extra: newer.slice(0, 2), side: [] }, lookUp());
    const verdict = checkFormat(cards, 'TCG');
    expect(verdict.status).toBe('illegal');
    expect(verdict.violations).toContainEqual({ kind: 'mainSize', count: 64, min: 40, max: 60 });
  });

  it('a known card breaking a rule still makes the deck illegal beside unknown cards', () => {
    const pot = card(55144522, 'Pot of Greed', { banlist: { tcg: 'Forbidden' } });
    const verdict = checkFormat(deckCards({ main: [...fillerIds.slice(0, 25), 55144522, ...newer], extra: [], side: [] }, lookUp(pot)), 'TCG');
    expect(verdict).toEqual({ format: 'TCG', status: 'illegal', violations: [{ kind: 'limited', name: 'Pot of Greed', status: 'Forbidden', count: 1 }] });
  });
});
