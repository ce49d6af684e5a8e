import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { artCustomId, MAX_ARTWORK, MAX_PRINTINGS_PAGE, openMenuCustomId, parseCardCustomId, pricesCustomId } from '../../src/cards/custom-ids.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

describe('/card price and /card art custom_ids', () => {
  it('read back what they were made from, within 100 characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), fc.integer({ min: 0, max: MAX_PRINTINGS_PAGE }), (cardId, page) => {
        expect(parseCardCustomId(pricesCustomId(cardId, page))).toEqual({ action: 'prices', cardId, page });
        const index = page % (MAX_ARTWORK + 1);
        expect(parseCardCustomId(artCustomId(cardId, index))).toEqual({ action: 'art', cardId, index });
        expect(pricesCustomId(cardId, page).length).toBeLessThanOrEqual(100);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('refuse what they never make, and menus keep what a pick opens', () => {
    for (const junk of ['card:pp:0:1', 'card:pp:01:1', 'card:pp:5:01', 'card:art:5:100', 'card:pp:5', 'card:art:5:1:2', 'card:pp:5:-1', 'card:open:show']) {
      expect(parseCardCustomId(junk)).toBeNull();
    }
    expect(parseCardCustomId(openMenuCustomId(undefined, 'price'))).toEqual({ action: 'open', view: 'price' });
    expect(parseCardCustomId(openMenuCustomId('fr', 'art'))).toEqual({ action: 'open', view: 'art' });
    expect(() => artCustomId(5, MAX_ARTWORK + 1)).toThrow(RangeError);
  });
});
