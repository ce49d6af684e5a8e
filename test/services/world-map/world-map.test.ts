import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DOT_COLOUR, LAND_COLOUR, OCEAN_COLOUR, projectPoint, WORLD_MAP_HEIGHT, WORLD_MAP_WIDTH } from '../../../src/ip/world-map.js';
import { WorldMap } from '../../../src/services/world-map/world-map.js';

const hex = (colour: string) => [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16));

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    info,
    at(latitude: number, longitude: number): number[] {
      const [x, y] = projectPoint(latitude, longitude).map(Math.round) as [number, number];
      const offset = (y * info.width + x) * info.channels;
      return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    },
  };
}

const near = (actual: number[], expected: number[], tolerance = 40) => actual.every((value, index) => Math.abs(value - expected[index]!) <= tolerance);

describe('WorldMap', () => {
  it('draws a 1,200 px wide map with a dot where each place is, and land and ocean elsewhere', async () => {
    const map = new WorldMap();
    const png = await map.draw([
      { latitude: 51.5, longitude: -0.13, count: 5 },
      { latitude: 37.75, longitude: -97.82, count: 1 },
    ]);
    const image = await pixels(png);
    expect([image.info.width, image.info.height]).toEqual([WORLD_MAP_WIDTH, WORLD_MAP_HEIGHT]);
    // A dot (red, over whatever is under it) at London and in Kansas…
    const red = hex(DOT_COLOUR);
    expect(near(image.at(51.5, -0.13), red, 90)).toBe(true);
    expect(near(image.at(37.75, -97.82), red, 90)).toBe(true);
    // …none in the Pacific (ocean) nor in central Africa (land).
    expect(near(image.at(-20, -140), hex(OCEAN_COLOUR), 10)).toBe(true);
    expect(near(image.at(0, 22), hex(LAND_COLOUR), 10)).toBe(true);
  });
});
