import type { GeoRecord } from './geo-record.js';
import type { LookupTarget } from './lookup-entry.js';
import { describeSpecialRange } from './special-ranges.js';

/** Why a name gave no address: render words each as one line, the other entries are still answered. */
export type ResolveFailure = 'noSuchName' | 'serverFailed' | 'timedOut' | 'noAddress' | 'queryCap';

/** A name's addresses (canonical, its A records before its AAAA), or why there are none. */
export type NameResolution = { ok: true; addresses: string[] } | { ok: false; failure: ResolveFailure };

/** The PTR name of an address; `confirmed` when that name's own addresses include the address. */
export interface ReverseName {
  /** Unicode form, as shown. */
  name: string;
  confirmed: boolean;
}

/** An address to locate and the name (Unicode) it was resolved from, null when typed as an address. */
export interface PlannedAddress {
  address: string;
  from: string | null;
}

/** A name that gave nothing to locate. */
export type EntryNote = { kind: 'unresolved'; name: string; failure: ResolveFailure } | { kind: 'private'; name: string };

export interface LocationPlan {
  addresses: PlannedAddress[];
  notes: EntryNote[];
  /** Public addresses the names resolved to that were left out by the cap. */
  notLocated: number;
}

/** One located address, as shown. */
export interface LookupResult {
  address: string;
  /** The name (Unicode) the address was resolved from; null when it was typed as an address. */
  from: string | null;
  record: GeoRecord;
  specialRange: string | null;
  /** Its PTR name, when one was found in time (public addresses only). */
  reverse?: ReverseName;
}

export interface LookupOutcome {
  results: LookupResult[];
  notes: EntryNote[];
  notLocated: number;
}

/**
 * Which addresses a command locates, at most `max`: every entry's first address before any entry's
 * second (a name with hundreds of addresses cannot crowd out the names after it), shown grouped by
 * entry in the order typed, each address once. A name's special-range addresses (private, loopback…)
 * are never located nor shown: a name pointing only there is a note, "points to a private address".
 */
export function planLocations(targets: readonly LookupTarget[], resolutions: ReadonlyMap<string, NameResolution>, max: number): LocationPlan {
  const notes: EntryNote[] = [];
  const candidates: PlannedAddress[][] = [];
  for (const target of targets) {
    if (target.kind === 'address') {
      candidates.push([{ address: target.address, from: null }]);
      continue;
    }
    const resolution = resolutions.get(target.name) ?? { ok: false, failure: 'queryCap' };
    if (!resolution.ok) {
      notes.push({ kind: 'unresolved', name: target.display, failure: resolution.failure });
      candidates.push([]);
      continue;
    }
    const routable = resolution.addresses.filter((address) => describeSpecialRange(address) === null);
    if (routable.length === 0) notes.push({ kind: 'private', name: target.display });
    candidates.push(routable.map((address) => ({ address, from: target.display })));
  }
  const chosen = new Map<string, { entry: number; round: number; planned: PlannedAddress }>();
  const rounds = Math.max(0, ...candidates.map((list) => list.length));
  for (let round = 0; round < rounds && chosen.size < max; round++) {
    candidates.forEach((list, entry) => {
      const planned = list[round];
      if (planned && chosen.size < max && !chosen.has(planned.address)) chosen.set(planned.address, { entry, round, planned });
    });
  }
  const distinct = new Set(candidates.flat().map((planned) => planned.address));
  const addresses = [...chosen.values()].sort((a, b) => a.entry - b.entry || a.round - b.round).map(({ planned }) => planned);
  return { addresses, notes, notLocated: distinct.size - addresses.length };
}
