import type { Card } from '../cards/card.js';
import { outsideGenesys, type GenesysPool } from '../cards/genesys.js';
import type { DeckCards } from './deck-cards.js';
import { MAX_COPIES, nameGroups, sizeViolations, STANDARD_SIZES, type Violation } from './legality.js';

/**
 * A deck judged for Genesys (src/cards/genesys.ts): its point total against the cap, no Link or
 * Pendulum monsters, TCG releases only, at most 3 copies of a card, the usual deck sizes. Like the
 * other formats, unknown passwords or a card without format data make an otherwise legal verdict
 * "unknown", and so does a pool not loaded yet (the total cannot be known).
 */

export type GenesysViolation = Violation | { kind: 'overCap'; total: number; cap: number } | { kind: 'notAllowed'; name: string };

/** A card of the deck that carries points, its copies and the points they cost together. */
export interface PointedCard {
  card: Card;
  count: number;
  points: number;
}

export interface GenesysVerdict {
  status: 'legal' | 'illegal' | 'unknown';
  cap: number;
  /** The deck's total over its known cards (0 while the pool is not loaded). */
  total: number;
  /** The cards that carry points, dearest first. */
  pointed: PointedCard[];
  violations: GenesysViolation[];
  unknownBecause?: 'unknownCards' | 'noFormatData' | 'noPoints';
}

export function checkGenesys(cards: DeckCards, pool: GenesysPool | null, cap: number): GenesysVerdict {
  const violations: GenesysViolation[] = sizeViolations(cards, STANDARD_SIZES);
  let noFormatData = false;
  for (const group of nameGroups(cards)) {
    if (group.count > MAX_COPIES) violations.push({ kind: 'copies', name: group.name, count: group.count });
    for (const card of group.cards) {
      if (outsideGenesys(card)) violations.push({ kind: 'notAllowed', name: card.name });
      else if (card.formats.length === 0) noFormatData = true;
      else if (!card.formats.includes('TCG')) violations.push({ kind: 'notReleased', name: card.name });
    }
  }
  // A card's copies may sit in several sections: count them once per card.
  const copies = new Map<number, PointedCard>();
  for (const section of Object.values(cards.sections)) {
    for (const { card, count } of section) {
      const each = outsideGenesys(card) ? 0 : (pool?.pointsOf(card.id) ?? 0);
      if (each === 0) continue;
      const entry = copies.get(card.id) ?? { card, count: 0, points: 0 };
      entry.count += count;
      entry.points = entry.count * each;
      copies.set(card.id, entry);
    }
  }
  const pointed = [...copies.values()].sort((a, b) => b.points - a.points || a.card.name.localeCompare(b.card.name, 'en'));
  const total = pointed.reduce((sum, entry) => sum + entry.points, 0);
  if (total > cap) violations.push({ kind: 'overCap', total, cap });
  const verdict = { cap, total, pointed, violations };
  if (violations.length > 0) return { ...verdict, status: 'illegal' };
  if (pool === null) return { ...verdict, status: 'unknown', unknownBecause: 'noPoints' };
  if (cards.unknown.length > 0) return { ...verdict, status: 'unknown', unknownBecause: 'unknownCards' };
  if (noFormatData) return { ...verdict, status: 'unknown', unknownBecause: 'noFormatData' };
  return { ...verdict, status: 'legal' };
}
