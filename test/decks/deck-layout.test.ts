import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { deckLayout, tileCards, type DeckLayout } from '../../src/decks/deck-layout.js';
import { MAX_DECK_CARDS } from '../../src/decks/deck-list.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** The widest deck picture the issue allows. */
const MAX_IMAGE_WIDTH = 1_600;

/** Any two tiles, in any rows or sections, share some pixel. */
function overlaps(layout: DeckLayout): boolean {
  const { tileWidth: w, tileHeight: h, tiles } = layout;
  return tiles.some((a, i) => tiles.slice(i + 1).some((b) => a.left < b.left + w && b.left < a.left + w && a.top < b.top + h && b.top < a.top + h));
}

describe('deckLayout: the picture of a deck, as a simulator shows it', () => {
  it('puts a 40 + 15 + 15 deck in rows of 10 under three labels, in section order', () => {
    const layout = deckLayout({ main: 40, extra: 15, side: 15 });
    expect(layout.tiles).toHaveLength(70);
    expect(layout.labels.map((label) => label.section)).toEqual(['main', 'extra', 'side']);
    const mainRows = new Set(layout.tiles.filter((tile) => tile.section === 'main').map((tile) => tile.top));
    expect(mainRows.size).toBe(4);
    expect(new Set(layout.tiles.filter((tile) => tile.section === 'extra').map((tile) => tile.top)).size).toBe(2);
    const lastMain = layout.tiles.filter((tile) => tile.section === 'main').at(-1)!;
    const extraLabel = layout.labels.find((label) => label.section === 'extra')!;
    expect(extraLabel.top).toBeGreaterThan(lastMain.top + layout.tileHeight);
  });

  it('leaves out an empty section and widens to rows of 15 past 90 cards', () => {
    expect(deckLayout({ main: 40, extra: 0, side: 0 }).labels.map((label) => label.section)).toEqual(['main']);
    const big = deckLayout({ main: 60, extra: 15, side: 30 });
    expect(new Set(big.tiles.filter((tile) => tile.section === 'main').map((tile) => tile.top)).size).toBe(4);
    // The smallest recognisable tile, in the widest layout (tiles are the same size in every layout).
    expect(big.tileWidth).toBeGreaterThanOrEqual(80);
  });

  it('has one tile per card, within 1,600 px, none overlapping, all inside, for any deck up to the cap', () => {
    const counts = fc
      .record({ main: fc.nat(MAX_DECK_CARDS), extra: fc.nat(MAX_DECK_CARDS), side: fc.nat(MAX_DECK_CARDS) })
      .filter(({ main, extra, side }) => main + extra + side <= MAX_DECK_CARDS);
    fc.assert(
      fc.property(counts, (sizes) => {
        const layout = deckLayout(sizes);
        expect(layout.tiles).toHaveLength(sizes.main + sizes.extra + sizes.side);
        expect(layout.width).toBeLessThanOrEqual(MAX_IMAGE_WIDTH);
        expect(overlaps(layout)).toBe(false);
        for (const tile of layout.tiles) {
          expect(tile.left + layout.tileWidth).toBeLessThanOrEqual(layout.width);
          expect(tile.top + layout.tileHeight).toBeLessThanOrEqual(layout.height);
        }
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});

describe('tileCards: what each tile shows', () => {
  const card = { id: 46986414, name: 'Dark Magician', imageIds: [46986414, 36996508] } as Card;
  const cardOf = (password: number) => (card.imageIds.includes(password) ? card : undefined);

  it('draws an alternate art as itself, the main art otherwise, and an unknown password without art, in layout order', () => {
    expect(tileCards({ main: [46986414, 36996508], extra: [], side: [12345678] }, cardOf)).toEqual([
      { password: 46986414, card, imageId: 46986414 },
      { password: 36996508, card, imageId: 36996508 },
      { password: 12345678, card: undefined, imageId: undefined },
    ]);
  });
});
