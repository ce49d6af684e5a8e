import { WALLHAVEN_COLOURS, type WallhavenColour } from './search.js';

/** An sRGB colour, each channel 0–255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

function rgbOf(hex: string): Rgb {
  const value = parseInt(hex, 16);
  return { r: value >> 16, g: (value >> 8) & 0xff, b: value & 0xff };
}

const PALETTE = WALLHAVEN_COLOURS.map((hex) => ({ hex, rgb: rgbOf(hex) }));

/**
 * How far apart two colours look: the "redmean" weighting of RGB distance, a cheap approximation
 * of perception that keeps, say, a dark blue from matching black before indigo.
 */
function distance(a: Rgb, b: Rgb): number {
  const redMean = (a.r + b.r) / 2;
  const dr = a.r - b.r;
  const dg = a.g - b.g;
  const db = a.b - b.b;
  return (2 + redMean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - redMean) / 256) * db * db;
}

/** The one of Wallhaven's 29 search colours (its `colors` parameter) nearest to `colour`. */
export function nearestWallhavenColour(colour: Rgb): WallhavenColour {
  let best = PALETTE[0]!;
  for (const candidate of PALETTE) if (distance(colour, candidate.rgb) < distance(colour, best.rgb)) best = candidate;
  return best.hex;
}

/**
 * A card's archetype as Wallhaven's `q`: its words as plain words. A word's leading `@`, `+` or `-`
 * would make Wallhaven read an uploader, a required or an excluded tag (the archetype "@Ignister"),
 * and a `like:`, `id:` or `type:` word a search of another kind, so those marks are dropped and
 * such words left out. Undefined when no word is left.
 */
export function archetypeQuery(archetype: string | undefined): string | undefined {
  const words = (archetype ?? '')
    .split(/\s+/)
    .map((word) => word.replace(/^[@+-]+/, ''))
    .filter((word) => word !== '' && !/^(like|id|type):/i.test(word));
  return words.length === 0 ? undefined : words.join(' ');
}
