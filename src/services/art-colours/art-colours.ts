import { loadSharp } from '../../runtime/sharp.js';
import type { Rgb } from '../../wallpaper/card-colours.js';

/** The edge an artwork is shrunk to before its colours are counted: enough for a dominant colour, and cheap. */
const SAMPLE_EDGE = 64;

/**
 * A card artwork's dominant colour, worked out locally from the stored image (never fetched from
 * anywhere): sharp shrinks it and counts its colours on libuv's pool, off the event loop, as the
 * deck pictures' drawing does.
 */
export class ArtColours {
  async dominant(image: Buffer): Promise<Rgb> {
    const sharp = await loadSharp();
    const small = await sharp(image).resize(SAMPLE_EDGE, SAMPLE_EDGE, { fit: 'inside' }).removeAlpha().toBuffer();
    const { dominant } = await sharp(small).stats();
    return dominant;
  }
}
