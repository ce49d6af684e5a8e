import type { Card } from '../cards/card.js';
import { DECK_SECTIONS, type DeckList, type DeckSection } from './deck-list.js';

/**
 * Where each card of a deck goes in its picture, the way a simulator's deck view shows it: one block
 * per section (Main, Extra, Side, each under its label), every copy of every card a tile of its own,
 * in rows. Pure: the image is composed elsewhere from these numbers.
 */

/** A tile is small card art (`cards_small` is 168 × 246): 100 px wide keeps a card recognisable. */
const TILE_WIDTH = 100;
const TILE_HEIGHT = 146;
const GAP = 4;
const MARGIN = 8;
/** The band above each section that holds its label. */
export const LABEL_HEIGHT = 28;
/** Up to 90 cards, rows of 10 (a 40-card main deck in 4 rows, like the simulators); past that, 15 (1,572 px: within 1,600). */
const NARROW_COLUMNS = 10;
const WIDE_COLUMNS = 15;
const NARROW_UP_TO = 90;

export interface DeckTile {
  section: DeckSection;
  left: number;
  top: number;
}

export interface SectionLabel {
  section: DeckSection;
  left: number;
  top: number;
}

export interface DeckLayout {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  tiles: DeckTile[];
  labels: SectionLabel[];
}

/** The picture for sections of these sizes; an empty section takes no room. */
export function deckLayout(counts: Readonly<Record<DeckSection, number>>): DeckLayout {
  const total = DECK_SECTIONS.reduce((sum, section) => sum + counts[section], 0);
  const columns = total <= NARROW_UP_TO ? NARROW_COLUMNS : WIDE_COLUMNS;
  const width = 2 * MARGIN + columns * TILE_WIDTH + (columns - 1) * GAP;
  const tiles: DeckTile[] = [];
  const labels: SectionLabel[] = [];
  let top = MARGIN;
  for (const section of DECK_SECTIONS) {
    const count = counts[section];
    if (count === 0) continue;
    labels.push({ section, left: MARGIN, top });
    top += LABEL_HEIGHT;
    for (let index = 0; index < count; index++) {
      const row = Math.floor(index / columns);
      const column = index % columns;
      tiles.push({ section, left: MARGIN + column * (TILE_WIDTH + GAP), top: top + row * (TILE_HEIGHT + GAP) });
    }
    top += Math.ceil(count / columns) * (TILE_HEIGHT + GAP) + MARGIN;
  }
  return { width, height: Math.max(top, 2 * MARGIN), tileWidth: TILE_WIDTH, tileHeight: TILE_HEIGHT, tiles, labels };
}

/** What a tile shows: the card (undefined for a password the database does not know) and which of its artworks. */
export interface TileCard {
  password: number;
  card: Card | undefined;
  /** The password's own artwork when it is an alternate art, else the card's main one; none for an unknown card. */
  imageId: number | undefined;
}

/** Every copy in the deck, in the layout's order (Main, Extra, Side, each as the player wrote it). */
export function tileCards(deck: DeckList, cardOf: (password: number) => Card | undefined): TileCard[] {
  return DECK_SECTIONS.flatMap((section) =>
    deck[section].map((password) => {
      const card = cardOf(password);
      const imageId = card === undefined ? undefined : card.imageIds.includes(password) ? password : card.id;
      return { password, card, imageId };
    }),
  );
}
