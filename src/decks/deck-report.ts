import type { Card } from '../cards/card.js';
import { deckCards, type DeckCards } from './deck-cards.js';
import type { DeckList } from './deck-list.js';
import { deckPrice, type DeckPrice } from './deck-price.js';
import type { GenesysPool } from '../cards/genesys.js';
import { checkGenesys, type GenesysVerdict } from './genesys.js';
import { checkLegality, type FormatVerdict } from './legality.js';

/** Everything `/deck show` says about a deck, from the local card database alone. */
export interface DeckReport {
  deck: DeckList;
  cards: DeckCards;
  verdicts: FormatVerdict[];
  genesys: GenesysVerdict;
  price: DeckPrice;
}

/** How the deck is judged for Genesys: the pool's points (null while not loaded) and the points cap. */
export interface GenesysRules {
  pool: GenesysPool | null;
  cap: number;
}

export function deckReport(deck: DeckList, cardOf: (password: number) => Card | undefined, genesys: GenesysRules): DeckReport {
  const cards = deckCards(deck, cardOf);
  return { deck, cards, verdicts: checkLegality(cards), genesys: checkGenesys(cards, genesys.pool, genesys.cap), price: deckPrice(cards) };
}
