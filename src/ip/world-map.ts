import { geoEquirectangular, geoPath, type GeoPermissibleObjects } from 'd3-geo';

/** The map's size: Discord shows an image this wide whole, and the issue caps it at 1,200 px. */
export const WORLD_MAP_WIDTH = 1_200;
export const WORLD_MAP_HEIGHT = 600;
export const OCEAN_COLOUR = '#1b2838';
export const LAND_COLOUR = '#56697a';
export const DOT_COLOUR = '#ff3b30';

/** A located place and how many addresses are there. */
export interface MapPoint {
  latitude: number;
  longitude: number;
  count: number;
}

/** Equirectangular over the whole frame: longitude −180…180 across, latitude 90…−90 down. */
function projection() {
  return geoEquirectangular()
    .scale(WORLD_MAP_WIDTH / (2 * Math.PI))
    .translate([WORLD_MAP_WIDTH / 2, WORLD_MAP_HEIGHT / 2]);
}

/** Where a place lands on the map, in pixels. */
export function projectPoint(latitude: number, longitude: number): [number, number] {
  return projection()([longitude, latitude]) ?? [0, 0];
}

/** The world's outline (Natural Earth land, as GeoJSON) on the ocean: drawn once, the dots go on top. */
export function worldOutlineSvg(land: GeoPermissibleObjects): string {
  const path = geoPath(projection())(land) ?? '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WORLD_MAP_WIDTH}" height="${WORLD_MAP_HEIGHT}"><rect width="100%" height="100%" fill="${OCEAN_COLOUR}"/><path d="${path}" fill="${LAND_COLOUR}"/></svg>`;
}

/** A dot per place, its area growing with its count (radius 4 px for one, 24 px at most). */
export function dotsSvg(points: readonly MapPoint[]): string {
  const most = Math.max(1, ...points.map((point) => point.count));
  const circles = points
    .filter((point) => Number.isFinite(point.latitude) && Number.isFinite(point.longitude))
    .sort((a, b) => b.count - a.count)
    .map((point) => {
      const [x, y] = projectPoint(point.latitude, point.longitude);
      const radius = 4 + 20 * Math.sqrt(point.count / most);
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${radius.toFixed(1)}" fill="${DOT_COLOUR}" fill-opacity="0.75" stroke="#ffffff" stroke-width="1"/>`;
    });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WORLD_MAP_WIDTH}" height="${WORLD_MAP_HEIGHT}">${circles.join('')}</svg>`;
}

/** The places of located addresses, each place once with its addresses' count. */
export function mapPoints(located: Iterable<{ latitude?: number; longitude?: number; count: number }>): MapPoint[] {
  const places = new Map<string, MapPoint>();
  for (const { latitude, longitude, count } of located) {
    if (latitude === undefined || longitude === undefined) continue;
    const key = `${latitude.toFixed(2)},${longitude.toFixed(2)}`;
    const place = places.get(key);
    if (place) place.count += count;
    else places.set(key, { latitude, longitude, count });
  }
  return [...places.values()];
}
