import sharp from 'sharp';
import { deckLayout, LABEL_HEIGHT, type DeckLayout, type TileCard } from '../decks/deck-layout.js';
import { DECK_SECTIONS, type DeckSection } from '../decks/deck-list.js';
import { sectionHeading, type DeckView } from './deck.js';

/**
 * The deck's picture from its layout: each tile the card's small art, or, where the art is missing
 * (not downloaded yet, or not to be had), a dark tile with the card's name. Composed by sharp
 * (libvips), whose work runs on libuv's thread pool, so the event loop only assembles the plan.
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
  const labels = Object.fromEntries(DECK_SECTIONS.map((section) => [section, sectionHeading(section, cards.sections[section], view.messages)])) as Record<DeckSection, string>;
  return {
    layout: deckLayout(counts),
    tiles: tiles.map(({ password, card, imageId }) => ({
      ...(imageId === undefined || !art.has(imageId) ? {} : { art: art.get(imageId)! }),
      name: card === undefined ? `? ${password}` : (view.localNames.get(card.id) ?? card.name),
    })),
    labels,
  };
}

/** Discord shows images up to 8 MiB; the bound for a deck picture is 2 MB. */
export const MAX_PICTURE_BYTES = 2_000_000;
const QUALITIES = [82, 70, 55] as const;
const BACKGROUND = { r: 24, g: 26, b: 32 };
const NAME_TILE = '#3a3f4b';
const NAME_FONT_PX = 13;
const NAME_LINE_PX = 16;
/** A name tile's text wraps at about this many characters a line (DejaVu Sans at 13 px in 100 px). */
const NAME_LINE_CHARS = 12;
const NAME_MAX_LINES = 7;

/** The picture as a JPEG of at most `MAX_PICTURE_BYTES`. */
export async function composeDeckImage(picture: DeckPicture): Promise<Buffer> {
  const { layout } = picture;
  const resized = new Map<Buffer, Promise<Buffer | undefined>>();
  const artOf = (art: Buffer): Promise<Buffer | undefined> => {
    let tile = resized.get(art);
    if (tile === undefined) {
      // Each distinct art is resized once, however many copies the deck holds. Art that does not decode becomes a name tile.
      tile = sharp(art).resize(layout.tileWidth, layout.tileHeight, { fit: 'fill' }).toBuffer().catch(() => undefined);
      resized.set(art, tile);
    }
    return tile;
  };
  const drawn = await Promise.all(picture.tiles.map((tile) => (tile.art === undefined ? undefined : artOf(tile.art))));
  const composites: sharp.OverlayOptions[] = [];
  const named: { left: number; top: number; name: string }[] = [];
  layout.tiles.forEach((place, index) => {
    const art = drawn[index];
    if (art !== undefined) composites.push({ input: art, left: place.left, top: place.top });
    else named.push({ left: place.left, top: place.top, name: picture.tiles[index]?.name ?? '' });
  });
  composites.push({ input: Buffer.from(overlaySvg(picture, named)), left: 0, top: 0 });
  const canvas = sharp({ create: { width: layout.width, height: layout.height, channels: 3, background: BACKGROUND } }).composite(composites);
  // Composite once to raw pixels, then encode; a picture over the bound is encoded again, smaller.
  const { data, info } = await canvas.raw().toBuffer({ resolveWithObject: true });
  let jpeg: Buffer = Buffer.alloc(0);
  for (const quality of QUALITIES) {
    jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality }).toBuffer();
    if (jpeg.length <= MAX_PICTURE_BYTES) break;
  }
  return jpeg;
}

/** The section labels and the name tiles, as one transparent SVG over the whole picture. */
function overlaySvg(picture: DeckPicture, named: readonly { left: number; top: number; name: string }[]): string {
  const { layout } = picture;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" font-family="DejaVu Sans, sans-serif">`];
  for (const label of layout.labels) {
    parts.push(`<text x="${label.left}" y="${label.top + LABEL_HEIGHT - 9}" font-size="17" font-weight="bold" fill="#e8e8e8">${escapeXml(picture.labels[label.section])}</text>`);
  }
  for (const tile of named) {
    parts.push(`<rect x="${tile.left}" y="${tile.top}" width="${layout.tileWidth}" height="${layout.tileHeight}" rx="4" fill="${NAME_TILE}"/>`);
    wrap(tile.name).forEach((line, index) => {
      parts.push(`<text x="${tile.left + 6}" y="${tile.top + 20 + index * NAME_LINE_PX}" font-size="${NAME_FONT_PX}" fill="#f0f0f0">${escapeXml(line)}</text>`);
    });
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The name in lines that fit a tile, words kept whole where they fit, the last line cut with an ellipsis. */
function wrap(name: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of name.split(/\s+/).filter(Boolean)) {
    for (let rest = word; rest !== ''; ) {
      const room = NAME_LINE_CHARS - (line === '' ? 0 : line.length + 1);
      if (rest.length <= room) {
        line = line === '' ? rest : `${line} ${rest}`;
        rest = '';
      } else if (line !== '') {
        lines.push(line);
        line = '';
      } else {
        lines.push(rest.slice(0, NAME_LINE_CHARS));
        rest = rest.slice(NAME_LINE_CHARS);
      }
    }
  }
  if (line !== '') lines.push(line);
  if (lines.length <= NAME_MAX_LINES) return lines;
  return [...lines.slice(0, NAME_MAX_LINES - 1), `${lines[NAME_MAX_LINES - 1]!.slice(0, NAME_LINE_CHARS - 1)}…`];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
