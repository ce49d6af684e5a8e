import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { dotsSvg, worldOutlineSvg, type MapPoint } from '../../ip/world-map.js';
import { loadSharp } from '../../runtime/sharp.js';

const require = createRequire(import.meta.url);

/**
 * World maps drawn locally: Natural Earth's land (public domain, `world-atlas`' 1:110m TopoJSON,
 * read from the package, never fetched) rasterized once with sharp and kept, then a dot per place
 * composited on a copy for each answer. No tiles, no request.
 */
export class WorldMap {
  private base: Promise<Buffer> | undefined;

  /** A PNG of the world with a dot per place, 1,200 × 600. */
  async draw(points: readonly MapPoint[]): Promise<Buffer> {
    const base = await (this.base ??= this.drawBase());
    const sharp = await loadSharp();
    return sharp(base)
      .composite([{ input: Buffer.from(dotsSvg(points)), top: 0, left: 0 }])
      .png({ compressionLevel: 6 })
      .toBuffer();
  }

  private async drawBase(): Promise<Buffer> {
    const topology = require('world-atlas/land-110m.json') as Topology<{ land: GeometryCollection }>;
    const land = feature(topology, topology.objects.land);
    const sharp = await loadSharp();
    return sharp(Buffer.from(worldOutlineSvg(land))).png().toBuffer();
  }
}
