import type { Card } from '../cards/card.js';
import { deckCards, type DeckCards } from './deck-cards.js';
import type { DeckList } from './deck-list.js';
import { deckPrice, type DeckPrice } from './deck-price.js';
import { checkLegality, type FormatVerdict } from './legality.js';

/** Everything `/deck show` says about a deck, from the local card database alone. */
export interface DeckReport {
  deck: DeckList;
  cards: DeckCards;
  verdicts: FormatVerdict[];
  price: DeckPrice;
}

export function deckReport(deck: DeckList, cardOf: (password: number) => Card | undefined): DeckReport {
  const cards = deckCards(deck, cardOf);
  return { deck, cards, verdicts: checkLegality(cards), price: deckPrice(cards) };
}
