import { deckLayout, type DeckLayout, type TileCard } from '../decks/deck-layout.js';
import { DECK_SECTIONS, type DeckSection } from '../decks/deck-list.js';
import { sectionHeading, type DeckView } from './deck.js';

/**
 * What a deck's picture shows, as plain data the deck composer's child can be sent: its layout, each
 * tile's art or the card's name, each section's heading. Composed by deck-image.ts.
 */

export interface DeckPictureTile {
  /** The card's small art (a JPEG or PNG); absent or undecodable: the name is drawn instead. */
  art?: Buffer;
  name: string;
}

export interface DeckPicture {
  layout: DeckLayout;
  /** One per layout tile, in the same order. */
  tiles: readonly DeckPictureTile[];
  /** Each section's heading, in the player's language (`Main (40)`). */
  labels: Readonly<Record<DeckSection, string>>;
}

/**
 * What to draw for `view`'s deck: its layout, each copy's art from `art` (by image id) or its name in
 * the player's language (an unknown password shows as `? <password>`), each section under its heading.
 */
export function deckPicture(view: DeckView, tiles: readonly TileCard[], art: ReadonlyMap<number, Buffer>): DeckPicture {
  const { deck, cards } = view.report;
  const counts = { main: deck.main.length, extra: deck.extra.length, side: deck.side.length };
  const labels = Object.fromEntries(DECK_SECTIONS.map((section) => [section, sectionHeading(section, cards, view.messages)])) as Record<DeckSection, string>;
  return {
    layout: deckLayout(counts),
    tiles: tiles.map(({ password, card, imageId }) => ({
      ...(imageId === undefined || !art.has(imageId) ? {} : { art: art.get(imageId)! }),
      name: card === undefined ? `? ${password}` : (view.localNames.get(card.id) ?? card.name),
    })),
    labels,
  };
}
