import { CardSetListReader, type CardSetListNormalisation } from '../../src/cards/card-set.js';

/** A `cardsets.php` list read in one go, as the client reads it in slices: sets to build tests from. */
export function normaliseCardSets(raws: readonly unknown[]): CardSetListNormalisation {
  const reader = new CardSetListReader();
  raws.forEach((raw, index) => reader.add(raw, index));
  return reader.result();
}
