import sharp from 'sharp';
import { LABEL_HEIGHT } from '../decks/deck-layout.js';
import type { DeckPicture } from './deck-picture.js';

/**
 * The deck's picture composed from its plan (deck-picture.ts): each tile the card's small art, or a
 * dark tile with the card's name. Runs in the deck composer's child process
 * (src/services/deck-pictures), so it imports nothing but sharp and the layout's numbers: the child
 * starts without the rest of the app.
 */

/** Discord shows images up to 8 MiB; the bound for a deck picture is 2 MB. */
export const MAX_PICTURE_BYTES = 2_000_000;
const QUALITIES = [82, 70, 55] as const;
const BACKGROUND = Uint8Array.of(24, 26, 32);
const CHANNELS = 3;
/** Tile resizes in flight at once: enough to keep libuv's four threads busy. */
const PIPELINES_AT_ONCE = 4;
const NAME_TILE = Uint8Array.of(0x3a, 0x3f, 0x4b);
const NAME_TILE_RADIUS = 4;
const NAME_TEXT = Uint8Array.of(0xf0, 0xf0, 0xf0);
/** Where a name's first line starts in its tile. */
const NAME_TEXT_LEFT = 6;
const NAME_TEXT_TOP = 8;
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
  // A missing card's name is rendered alone, as a small coverage mask blended into its tile here: one
  // SVG overlay per missing card on the whole canvas made libvips hold every rendered overlay and a
  // canvas-sized buffer per pipeline stage (a 200-tile deck took about 300 MB of native memory).
  const missing = [...new Set(picture.tiles.flatMap((tile, index) => (drawn[index] === undefined ? [tile.name] : [])))];
  const masks = await mapInTurns(missing, PIPELINES_AT_ONCE, nameMask);
  const byName = new Map(missing.map((name, index) => [name, masks[index]]));
  // The tiles are copied into one raw canvas row by row (a few milliseconds): libvips composites dozens
  // of overlays one pipeline stage each, many times slower. The labels come after, as SVG.
  const canvas = Buffer.alloc(layout.width * layout.height * CHANNELS);
  fillBackground(canvas);
  layout.tiles.forEach((place, index) => {
    const art = drawn[index];
    if (art !== undefined) return copyTile(canvas, layout.width, art, size, place);
    copyTile(canvas, layout.width, blankTile(size), size, place);
    const mask = byName.get(picture.tiles[index]?.name ?? '');
    if (mask !== undefined) blendText(canvas, layout.width, mask, { left: place.left + NAME_TEXT_LEFT, top: place.top + NAME_TEXT_TOP }, size);
  });
  const labels: sharp.OverlayOptions[] = layout.labels.map((label) => ({
    input: Buffer.from(labelSvg(picture.labels[label.section], layout.width - 2 * label.left)),
    left: label.left,
    top: label.top,
  }));
  let jpeg: Buffer = Buffer.alloc(0);
  for (const quality of QUALITIES) {
    // A picture over the bound (very rare: it takes noise-like art) is encoded again, smaller.
    jpeg = await sharp(canvas, { raw: { width: layout.width, height: layout.height, channels: CHANNELS } })
      .composite(labels)
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= MAX_PICTURE_BYTES) break;
  }
  return jpeg;
}

interface TextMask {
  /** 8-bit coverage, one byte a pixel, row after row. */
  mask: Buffer;
  width: number;
  height: number;
}

/**
 * A card's name in the lines that fit its tile, as Pango (through libvips) renders it: a coverage mask
 * blended into the tile by `blendText`. An SVG tile through librsvg took about 3 ms of a pool thread a
 * name, this about 1. None for a name without a printable word.
 */
async function nameMask(name: string): Promise<TextMask | undefined> {
  const lines = wrap(name);
  if (lines.length === 0) return undefined;
  const { data, info } = await sharp({ text: { text: lines.map(escapeXml).join('\n'), font: `DejaVu Sans ${NAME_FONT_PX}px`, dpi: 72, spacing: NAME_LINE_PX - NAME_FONT_PX } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { mask: data, width: info.width, height: info.height };
}

const blankTiles = new Map<string, Buffer>();

/** The name tile without its name: a dark rounded rectangle on the picture's background. */
function blankTile(size: { width: number; height: number }): Buffer {
  const key = `${size.width}x${size.height}`;
  const kept = blankTiles.get(key);
  if (kept !== undefined) return kept;
  const tile = Buffer.alloc(size.width * size.height * CHANNELS);
  for (let y = 0; y < size.height; y++) {
    for (let x = 0; x < size.width; x++) {
      tile.set(insideRoundedCorners(x, y, size) ? NAME_TILE : BACKGROUND, (y * size.width + x) * CHANNELS);
    }
  }
  blankTiles.set(key, tile);
  return tile;
}

/** Whether a pixel is inside the tile's rectangle once its corners are rounded by `NAME_TILE_RADIUS`. */
function insideRoundedCorners(x: number, y: number, size: { width: number; height: number }): boolean {
  const r = NAME_TILE_RADIUS;
  const dx = x < r ? r - x - 0.5 : x >= size.width - r ? x - (size.width - r) + 0.5 : 0;
  const dy = y < r ? r - y - 0.5 : y >= size.height - r ? y - (size.height - r) + 0.5 : 0;
  return dx * dx + dy * dy <= r * r;
}

/** `text` blended in `NAME_TEXT` into the canvas from `at`; what would overflow its tile (from the tile's text corner) is cut. */
function blendText(canvas: Buffer, canvasWidth: number, text: TextMask, at: { left: number; top: number }, tile: { width: number; height: number }): void {
  const rows = Math.min(text.height, tile.height - NAME_TEXT_TOP);
  const columns = Math.min(text.width, tile.width - NAME_TEXT_LEFT);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const coverage = text.mask[y * text.width + x]!;
      if (coverage === 0) continue;
      const pixel = ((at.top + y) * canvasWidth + at.left + x) * CHANNELS;
      for (let channel = 0; channel < CHANNELS; channel++) {
        canvas[pixel + channel] = Math.round((canvas[pixel + channel]! * (255 - coverage) + NAME_TEXT[channel]! * coverage) / 255);
      }
    }
  }
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
