import type { AppServices } from '../../src/app/services.js';
import type { AppPermissions } from '../../src/interaction/context.js';
import type { LookupResult } from '../../src/ip/resolution.js';
import { mapPoints } from '../../src/ip/world-map.js';

/**
 * The world map under `/ip lookup` and Locate IP: a dot per located place, once two or more places
 * are located (one dot says nothing its country line does not), and only where the app may attach
 * files. Drawn locally (`app.worldMap`): no tile server is asked.
 */
export async function lookupMap(results: readonly LookupResult[], app: AppServices, permissions: AppPermissions): Promise<Buffer | undefined> {
  if (!permissions.attachFiles) return undefined;
  const points = mapPoints(results.map(({ record }) => ({ latitude: record.latitude, longitude: record.longitude, count: 1 })));
  return points.length >= 2 ? app.worldMap.draw(points) : undefined;
}
