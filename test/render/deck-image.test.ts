import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { deckLayout } from '../../src/decks/deck-layout.js';
import { composeDeckImage, MAX_PICTURE_BYTES } from '../../src/render/deck-image.js';

const ORANGE = { r: 200, g: 100, b: 20 };

async function pixelAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
}

const near = (pixel: number[], colour: { r: number; g: number; b: number }) =>
  Math.abs(pixel[0]! - colour.r) < 25 && Math.abs(pixel[1]! - colour.g) < 25 && Math.abs(pixel[2]! - colour.b) < 25;

describe('composeDeckImage', () => {
  it('draws each tile with its art, or a name tile where the art is missing or does not decode; a JPEG of the layout’s size', async () => {
    const art = await sharp({ create: { width: 168, height: 246, channels: 3, background: ORANGE } }).jpeg().toBuffer();
    const layout = deckLayout({ main: 3, extra: 1, side: 0 });
    const image = await composeDeckImage({
      layout,
      tiles: [{ art, name: 'A' }, { name: 'Pot of Greed' }, { art: Buffer.from('not an image'), name: '<Broken & "art">' }, { art, name: 'D' }],
      labels: { main: 'Main (3)', extra: 'Extra (1)', side: 'Side (0)' },
    });
    expect(await sharp(image).metadata()).toMatchObject({ format: 'jpeg', width: layout.width, height: layout.height });
    const middle = (index: number) => pixelAt(image, layout.tiles[index]!.left + 50, layout.tiles[index]!.top + layout.tileHeight - 10);
    expect(near(await middle(0), ORANGE)).toBe(true);
    expect(near(await middle(1), ORANGE)).toBe(false);
    expect(near(await middle(2), ORANGE)).toBe(false);
    expect(near(await middle(3), ORANGE)).toBe(true);
  });

  it('keeps the largest deck’s picture, each tile a different art, under 2 MB', async () => {
    const layout = deckLayout({ main: 60, extra: 15, side: 125 });
    const tiles = await Promise.all(
      layout.tiles.map(async (_, index) => ({
        name: `card ${index}`,
        // Noise: the hardest thing to compress, as varied card art is.
        art: await sharp(Buffer.from(Array.from({ length: 42 * 61 * 3 }, (_, at) => (at * 7919 + index * 104729) % 251)), { raw: { width: 42, height: 61, channels: 3 } }).resize(168, 246).jpeg().toBuffer(),
      })),
    );
    const image = await composeDeckImage({ layout, tiles, labels: { main: 'Main', extra: 'Extra', side: 'Side' } });
    expect(image.length).toBeLessThanOrEqual(MAX_PICTURE_BYTES);
    expect(layout.tiles).toHaveLength(200);
  });
});
