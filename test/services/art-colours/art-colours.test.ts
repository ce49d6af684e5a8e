import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ArtColours } from '../../../src/services/art-colours/art-colours.js';
import { archetypeQuery, nearestWallhavenColour } from '../../../src/wallpaper/card-colours.js';
import { WALLHAVEN_COLOURS } from '../../../src/wallpaper/search.js';

/** A card-sized JPEG: one colour, with a band of another covering a fifth of it. */
function art(main: { r: number; g: number; b: number }, band: { r: number; g: number; b: number }): Promise<Buffer> {
  const stripe = sharp({ create: { width: 168, height: 50, channels: 3, background: band } }).png().toBuffer();
  return stripe.then((input) => sharp({ create: { width: 168, height: 246, channels: 3, background: main } }).composite([{ input, top: 0, left: 0 }]).jpeg().toBuffer());
}

describe('a card artwork’s colours', () => {
  const colours = new ArtColours();

  it('finds the dominant colour of an artwork and matches it to Wallhaven’s palette', async () => {
    expect(nearestWallhavenColour(await colours.dominant(await art({ r: 204, g: 0, b: 0 }, { r: 255, g: 255, b: 255 })))).toBe('cc0000');
    expect(nearestWallhavenColour(await colours.dominant(await art({ r: 10, g: 100, b: 200 }, { r: 0, g: 0, b: 0 })))).toBe('0066cc');
    expect(nearestWallhavenColour(await colours.dominant(await art({ r: 250, g: 250, b: 5 }, { r: 200, g: 0, b: 0 })))).toBe('ffff00');
  });

  it('matches each of the 29 palette colours to itself, and shades to their nearest', () => {
    for (const hex of WALLHAVEN_COLOURS) {
      const value = parseInt(hex, 16);
      expect(nearestWallhavenColour({ r: value >> 16, g: (value >> 8) & 0xff, b: value & 0xff })).toBe(hex);
    }
    expect(nearestWallhavenColour({ r: 0x42, g: 0x41, b: 0x53 })).toBe('424153');
    expect(nearestWallhavenColour({ r: 5, g: 5, b: 5 })).toBe('000000');
    expect(nearestWallhavenColour({ r: 0xfe, g: 0x98, b: 0x02 })).toBe('ff9900');
    expect(nearestWallhavenColour({ r: 30, g: 30, b: 110 })).toBe('333399');
  });

  it('rejects what is not an image', async () => {
    await expect(colours.dominant(Buffer.from('not an image'))).rejects.toThrow();
  });

  it('reads an archetype as plain words for Wallhaven’s q', () => {
    expect(archetypeQuery('Blue-Eyes')).toBe('Blue-Eyes');
    expect(archetypeQuery('@Ignister')).toBe('Ignister');
    expect(archetypeQuery('like:abc id:3 -x +y')).toBe('x y');
    expect(archetypeQuery('@')).toBeUndefined();
    expect(archetypeQuery(undefined)).toBeUndefined();
  });
});
