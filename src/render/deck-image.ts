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
const BACKGROUND = Uint8Array.of(24, 26, 32);
const CHANNELS = 3;
/** Tile resizes in flight at once: enough to keep libuv's four threads busy. */
const PIPELINES_AT_ONCE = 4;
const NAME_TILE = '#3a3f4b';
const NAME_FONT_PX = 13;
const NAME_LINE_PX = 16;
/** A name tile's text wraps at about this many characters a line (DejaVu Sans at 13 px in 100 px). */
const NAME_LINE_CHARS = 12;
const NAME_MAX_LINES = 7;

// libvips' operation cache keeps recent inputs and results (up to 50 MB by default) for repeats that
// deck pictures never make: every deck is new pixels. Off, memory stays flat across decks.
sharp.cache(false);

/** The picture as a JPEG of at most `MAX_PICTURE_BYTES`. */
export async function composeDeckImage(picture: DeckPicture): Promise<Buffer> {
  const { layout } = picture;
  const size = { width: layout.tileWidth, height: layout.tileHeight };
  // Each distinct art is resized once, however many copies the deck holds, to raw pixels (no encoding
  // between steps); art that does not decode becomes a name tile. A few at a time: building a sharp
  // pipeline is synchronous work (about a millisecond), and 75 built at once would hold the event loop.
  const distinct = [...new Set(picture.tiles.flatMap((tile) => tile.art ?? []))];
  const resized = await mapInTurns(distinct, PIPELINES_AT_ONCE, (art) =>
    sharp(art).resize(size.width, size.height, { fit: 'fill' }).removeAlpha().raw().toBuffer().catch(() => undefined),
  );
  const byArt = new Map(distinct.map((art, index) => [art, resized[index]]));
  const drawn = picture.tiles.map((tile) => (tile.art === undefined ? undefined : byArt.get(tile.art)));
  // The art is copied into one raw canvas row by row (a few milliseconds on the event loop): libvips
  // composites dozens of overlays one pipeline stage each, many times slower. Text comes after, as SVG.
  const canvas = Buffer.alloc(layout.width * layout.height * CHANNELS);
  fillBackground(canvas);
  const texts: sharp.OverlayOptions[] = layout.labels.map((label) => ({
    input: Buffer.from(labelSvg(picture.labels[label.section], layout.width - 2 * label.left)),
    left: label.left,
    top: label.top,
  }));
  layout.tiles.forEach((place, index) => {
    const art = drawn[index];
    if (art === undefined) texts.push({ input: Buffer.from(nameTileSvg(picture.tiles[index]?.name ?? '', size)), left: place.left, top: place.top });
    else copyTile(canvas, layout.width, art, size, place);
  });
  let jpeg: Buffer = Buffer.alloc(0);
  for (const quality of QUALITIES) {
    // A picture over the bound (very rare: it takes noise-like art) is encoded again, smaller.
    jpeg = await sharp(canvas, { raw: { width: layout.width, height: layout.height, channels: CHANNELS } })
      .composite(texts)
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= MAX_PICTURE_BYTES) break;
  }
  return jpeg;
}

/** `work` over `items`, at most `turns` at a time, results in order. */
async function mapInTurns<T, R>(items: readonly T[], turns: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(turns, items.length) }, worker));
  return results;
}

/** The background colour everywhere: one pixel set, then copied in doubling runs (no per-pixel loop). */
function fillBackground(canvas: Buffer): void {
  canvas.set(BACKGROUND, 0);
  for (let filled = CHANNELS; filled < canvas.length; filled *= 2) canvas.copyWithin(filled, 0, Math.min(filled, canvas.length - filled));
}

/** Copies a tile's raw RGB rows into the canvas at `place`. */
function copyTile(canvas: Buffer, canvasWidth: number, tile: Buffer, size: { width: number; height: number }, place: { left: number; top: number }): void {
  const rowBytes = size.width * CHANNELS;
  for (let row = 0; row < size.height; row++) {
    tile.copy(canvas, ((place.top + row) * canvasWidth + place.left) * CHANNELS, row * rowBytes, (row + 1) * rowBytes);
  }
}

function labelSvg(text: string, width: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL_HEIGHT}"><text x="0" y="${LABEL_HEIGHT - 9}" font-family="DejaVu Sans, sans-serif" font-size="17" font-weight="bold" fill="#e8e8e8">${escapeXml(text)}</text></svg>`;
}

/** A dark tile with the card's name, for art that is missing. */
function nameTileSvg(name: string, size: { width: number; height: number }): string {
  const lines = wrap(name).map(
    (line, index) => `<text x="6" y="${20 + index * NAME_LINE_PX}" font-size="${NAME_FONT_PX}" fill="#f0f0f0">${escapeXml(line)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" font-family="DejaVu Sans, sans-serif"><rect width="${size.width}" height="${size.height}" rx="4" fill="${NAME_TILE}"/>${lines.join('')}</svg>`;
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
