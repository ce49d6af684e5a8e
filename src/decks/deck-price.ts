import { type Card, PRICE_SOURCES, type PriceSource } from '../cards/card.js';
import { allEntries, type DeckCards } from './deck-cards.js';

/** What the deck costs at one vendor (in its currency), and how many of its cards it has no price for. */
export interface VendorTotal {
  source: PriceSource;
  total: number;
  unpriced: number;
}

export interface DeckPrice {
  vendors: VendorTotal[];
  /** The three dearest cards by TCGplayer (the vendor most players quote), dearest first. */
  dearest: Card[];
}

const RANKING_SOURCE: PriceSource = 'tcgplayer';
const DEAREST_SHOWN = 3;

/** Totals every copy of every section (unknown passwords have no price and are listed elsewhere). */
export function deckPrice(cards: DeckCards): DeckPrice {
  const entries = allEntries(cards);
  const vendors = PRICE_SOURCES.map((source) => {
    let total = 0;
    let unpriced = 0;
    for (const { card, count } of entries) {
      const price = card.prices[source];
      if (price === undefined) unpriced += count;
      else total += price * count;
    }
    return { source, total: Math.round(total * 100) / 100, unpriced };
  });
  const distinct = [...new Map(entries.map(({ card }) => [card.id, card])).values()];
  const dearest = distinct
    .filter((card) => card.prices[RANKING_SOURCE] !== undefined)
    .sort((a, b) => (b.prices[RANKING_SOURCE] ?? 0) - (a.prices[RANKING_SOURCE] ?? 0))
    .slice(0, DEAREST_SHOWN);
  return { vendors, dearest };
}
