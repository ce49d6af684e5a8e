import type { Card, CardPrinting } from './card.js';
import { setNameKey } from './card-set.js';
import type { CardSummary } from './card-summary.js';

/** A card's printings and a set's cards, in the order collectors expect: release date, then set number. */

/** One card of a set, from the card database's printings. */
export interface SetListing {
  card: CardSummary;
  /** Its set numbers in this set, in order: old sets were numbered once per region (`LOB-001`, `LOB-E001`, `LOB-EN001`). */
  numbers: string[];
  /** Its rarities in this set, without repeats. */
  rarities: string[];
}

/** A card's printing, with its set's TCG release date when the set list knows it. */
export interface PrintingView extends CardPrinting {
  tcgDate?: string;
}

/**
 * The card's printings, oldest TCG release first (sets without a known date last), then by set
 * number; `tcgDateOf` gives a set's TCG release date when the set list knows it.
 */
export function printingsInOrder(card: Card, tcgDateOf: (setName: string) => string | undefined): PrintingView[] {
  const views: PrintingView[] = card.sets.map((printing) => {
    const tcgDate = tcgDateOf(printing.setName);
    return tcgDate === undefined ? { ...printing } : { ...printing, tcgDate };
  });
  return views.sort(
    (left, right) =>
      compareReleaseDates(left.tcgDate, right.tcgDate) || compareSetNumbers(left.setCode, right.setCode) || left.rarity.localeCompare(right.rarity, 'en'),
  );
}

/** The card's printings, cheapest first (those without a known price last), then by set number and rarity. */
export function printingsByPrice(card: Card): CardPrinting[] {
  return [...card.sets].sort(
    (left, right) =>
      (left.price ?? Infinity) - (right.price ?? Infinity) ||
      compareSetNumbers(left.setCode, right.setCode) ||
      left.rarity.localeCompare(right.rarity, 'en'),
  );
}

/** A set's cards (`setKey`: `setNameKey` of its name): one entry per card, gathering its numbers and rarities in that set. */
export function setListingOf(setKey: string, cards: readonly Card[], summaryById: (id: number) => CardSummary | undefined): SetListing[] {
  const listings: SetListing[] = [];
  for (const card of cards) {
    const summary = summaryById(card.id);
    if (summary === undefined) continue;
    const listing: SetListing = { card: summary, numbers: [], rarities: [] };
    for (const printing of card.sets) {
      if (setNameKey(printing.setName) !== setKey) continue;
      if (printing.setCode !== '' && !listing.numbers.includes(printing.setCode)) listing.numbers.push(printing.setCode);
      if (printing.rarity !== '' && !listing.rarities.includes(printing.rarity)) listing.rarities.push(printing.rarity);
    }
    listing.numbers.sort(compareSetNumbers);
    listings.push(listing);
  }
  return listings.sort(
    (left, right) => compareSetNumbers(left.numbers[0] ?? '', right.numbers[0] ?? '') || left.card.name.localeCompare(right.card.name, 'en'),
  );
}

const SET_NUMBER_ORDER = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** `LOB-EN002` before `LOB-EN010`: set numbers compared with their digits as numbers. */
function compareSetNumbers(left: string, right: string): number {
  return SET_NUMBER_ORDER.compare(left, right);
}

/** Oldest first; an unknown date last. ISO dates compare as strings. */
function compareReleaseDates(left: string | undefined, right: string | undefined): number {
  if (left === right) return 0;
  if (left === undefined) return 1;
  if (right === undefined) return -1;
  return left < right ? -1 : 1;
}
