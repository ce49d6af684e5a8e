import type { Card } from '../cards/card.js';
import { DECK_SECTIONS, type DeckList, type DeckSection } from './deck-list.js';

/** A card of a section and how many copies of it the player put there (alternate arts merged into it). */
export interface DeckEntry {
  card: Card;
  count: number;
}

/** A password the card database does not know, and how many times the deck holds it. */
export interface UnknownPassword {
  password: number;
  count: number;
}

/**
 * The deck's passwords looked up: entries per section in first-seen order, unknown passwords apart.
 * `unknownCounts` says how many of each section's passwords are unknown: they are still cards of
 * the deck (a card newer than the database), so a section's size counts them (`sectionSize`).
 */
export interface DeckCards {
  sections: Record<DeckSection, DeckEntry[]>;
  unknown: UnknownPassword[];
  unknownCounts: Record<DeckSection, number>;
}

/**
 * Looks every password up with `cardOf` (by passcode, alternate-art ids included, so an alternate
 * art lands on its card's entry). Unknown passwords are kept apart: the rest of the deck is still shown.
 */
export function deckCards(deck: DeckList, cardOf: (password: number) => Card | undefined): DeckCards {
  const unknown = new Map<number, number>();
  const sections = {} as Record<DeckSection, DeckEntry[]>;
  const unknownCounts = { main: 0, extra: 0, side: 0 };
  for (const section of DECK_SECTIONS) {
    const entries = new Map<number, DeckEntry>();
    for (const password of deck[section]) {
      const card = cardOf(password);
      if (card === undefined) {
        unknown.set(password, (unknown.get(password) ?? 0) + 1);
        unknownCounts[section] += 1;
        continue;
      }
      const entry = entries.get(card.id);
      if (entry) entry.count += 1;
      else entries.set(card.id, { card, count: 1 });
    }
    sections[section] = [...entries.values()];
  }
  return { sections, unknown: [...unknown].map(([password, count]) => ({ password, count })), unknownCounts };
}

export function sectionCount(entries: readonly DeckEntry[]): number {
  return entries.reduce((sum, entry) => sum + entry.count, 0);
}

/** Every password of a section, known or not: the size the player built and the size rules judge. */
export function sectionSize(cards: DeckCards, section: DeckSection): number {
  return sectionCount(cards.sections[section]) + cards.unknownCounts[section];
}

/** Every entry of every section, for rules that count the whole deck (copies, price). */
export function allEntries(cards: DeckCards): DeckEntry[] {
  return DECK_SECTIONS.flatMap((section) => cards.sections[section]);
}
