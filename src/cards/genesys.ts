import type { Card } from './card.js';

/**
 * Konami's Genesys format (2025, upstreams.md § 7): every card of its pool has a point value (0 for
 * most), a deck may total at most the points cap (100 at Konami's events), Link and Pendulum
 * monsters are not allowed, cards are TCG releases, at most 3 copies of a card. YGOPRODeck serves
 * the pool as `cardinfo.php?format=genesys&misc=yes`, each card's points in `misc_info[].genesys_points`.
 */

/** The cap at Konami's events: `/deck show`'s default and the **Read deck** menu's. */
export const DEFAULT_POINTS_CAP = 100;
/** The highest cap `/deck show` takes: ten times Konami's, far past any event's. */
export const MAX_POINTS_CAP = 1_000;

/** One card of the Genesys pool as downloaded and stored: its passcode, name and points. */
export interface GenesysEntry {
  id: number;
  name: string;
  points: number;
}

/** Points fit 16 bits (Konami's highest is the cap, 100); a larger value is refused as corrupt. */
const MAX_POINTS = 0xffff;

function isPoints(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_POINTS;
}

/** A structural check of an entry read back from our own (checksummed) snapshot. */
export function isGenesysEntry(value: unknown): value is GenesysEntry {
  const entry = value as Partial<GenesysEntry> | null;
  return typeof entry === 'object' && entry !== null && Number.isSafeInteger(entry.id) && (entry.id as number) > 0 && typeof entry.name === 'string' && isPoints(entry.points);
}

/** Link and Pendulum monsters are not allowed in Genesys, whatever the pool says: they never show points. */
export function outsideGenesys(card: Pick<Card, 'frameType'>): boolean {
  return card.frameType === 'link' || card.frameType.endsWith('_pendulum');
}

export interface GenesysEntriesRead {
  entries: GenesysEntry[];
  skipped: number;
  problems: string[];
}

/**
 * Reads the pool's raw cards: only what points need (passcode, name, `genesys_points`), not the
 * whole card, so a download costs a fraction of the English one's normalisation. A card without
 * `genesys_points` is in the pool at 0; one whose id, name or points do not fit is left out, counted.
 */
export function genesysEntriesOf(raws: readonly unknown[]): GenesysEntriesRead {
  const entries: GenesysEntry[] = [];
  const problems: string[] = [];
  let skipped = 0;
  for (const raw of raws) {
    const card = raw as { id?: unknown; name?: unknown; misc_info?: unknown } | null;
    const misc: unknown = Array.isArray(card?.misc_info) ? card.misc_info[0] : undefined;
    const points = (misc as { genesys_points?: unknown } | undefined)?.genesys_points ?? 0;
    const name = typeof card?.name === 'string' ? card.name.trim() : '';
    const entry = { id: card?.id, name, points };
    if (name !== '' && isGenesysEntry(entry)) entries.push(entry);
    else {
      skipped++;
      if (problems.length < 5) problems.push(`card ${String(card?.id ?? '?')}: not a Genesys card (id, name or genesys_points invalid)`);
    }
  }
  return { entries, skipped, problems };
}

/**
 * The pool as it stays in memory: passcodes sorted in one typed array and their points in another
 * (6 bytes a card, ≈70 KB for the whole pool), and the names of the few hundred cards that carry
 * points (what `/card banlist genesys` and the ban-list history list). Looked up by binary search.
 */
export class GenesysPool {
  private readonly ids: Uint32Array;
  private readonly points: Uint16Array;
  private readonly pointedNames: ReadonlyMap<number, string>;

  constructor(entries: Iterable<GenesysEntry>) {
    const sorted = [...entries].sort((a, b) => a.id - b.id);
    this.ids = Uint32Array.from(sorted, (entry) => entry.id);
    this.points = Uint16Array.from(sorted, (entry) => entry.points);
    this.pointedNames = new Map(sorted.filter((entry) => entry.points > 0).map((entry) => [entry.id, entry.name]));
  }

  get size(): number {
    return this.ids.length;
  }

  /** The card's points when it is in the pool (0 included); undefined when it is not. */
  pointsOf(id: number): number | undefined {
    let low = 0;
    let high = this.ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.ids[middle]!;
      if (at === id) return this.points[middle];
      if (at < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** The cards that carry points, with their names. */
  pointed(): GenesysEntry[] {
    return [...this.pointedNames].map(([id, name]) => ({ id, name, points: this.pointsOf(id)! }));
  }
}
