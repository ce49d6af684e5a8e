import { BANLIST_FORMATS, type BanlistFormat, type BanStatus, type Card } from './card.js';
import { CARD_COMPONENT_PREFIX } from './custom-ids.js';
import type { GenesysPool } from './genesys.js';

/**
 * A format's ban list as one card database version has it, kept by Almanac (YGOPRODeck keeps no
 * past lists). An entry is a card's status; a points format (Genesys, added by the cards work) sets
 * `points` on its entries instead, so that one stored shape serves both kinds of list.
 */
export interface BanlistEntry {
  /** The card's main passcode. */
  id: number;
  name: string;
  status?: BanStatus;
  points?: number;
}

export { BANLIST_FORMATS, type BanlistFormat };

/**
 * The lists Almanac keeps, shows and posts: the ban lists, and Genesys's points (its pointed cards,
 * each with its points, in place of statuses).
 */
export const LIST_FORMATS = [...BANLIST_FORMATS, 'genesys'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** One format's list as a card database version had it, and when Almanac first saw that version. */
export interface BanlistVersion {
  format: string;
  version: string;
  recordedAt: number;
  entries: BanlistEntry[];
}

/** Pages of a list a custom_id can name (a list holds a few hundred cards). */
export const MAX_BANLIST_PAGE = 99;

/** `card:bl:<format>:<page>` on a list's ◀ ▶ buttons: the 0-based page of the format's latest list. */
export function banlistPageCustomId(format: ListFormat, page: number): string {
  return `${CARD_COMPONENT_PREFIX}:bl:${format}:${Math.min(Math.max(0, page), MAX_BANLIST_PAGE)}`;
}

/** Reads a list's page button; null for anything else. */
export function parseBanlistPageCustomId(customId: string): { format: ListFormat; page: number } | null {
  const match = /^card:bl:([a-z]{3,12}):(0|[1-9]\d?)$/.exec(customId);
  const format = banlistFormatOf(match?.[1]);
  return match && format ? { format, page: Number(match[2]) } : null;
}

/** Each format's name as the game spells it (the same in every language). */
export const BANLIST_FORMAT_NAMES: Readonly<Record<ListFormat, string>> = { tcg: 'TCG', ocg: 'OCG', goat: 'GOAT', masterduel: 'Master Duel', genesys: 'Genesys' };

/** A format a user or a stored subscription names, checked. */
export function banlistFormatOf(value: unknown): ListFormat | undefined {
  return (LIST_FORMATS as readonly unknown[]).includes(value) ? (value as ListFormat) : undefined;
}

/** Genesys's list: the pool's cards that carry points, dearest first, then by name. */
export function genesysListOf(pool: GenesysPool): BanlistEntry[] {
  return pool.pointed().sort((a, b) => b.points - a.points || a.name.localeCompare(b.name, 'en') || a.id - b.id);
}

/** What each status allows of one card in a deck (main, extra and side together). */
export const ALLOWED_COPIES: Readonly<Record<BanStatus | 'Unlimited', number>> = { Forbidden: 0, Limited: 1, 'Semi-Limited': 2, Unlimited: 3 };

/** The groups a list is shown in, most restrictive first. */
export const STATUS_ORDER: readonly BanStatus[] = ['Forbidden', 'Limited', 'Semi-Limited'];

/** What a ban list needs of a card. */
export type BanlistedCard = Pick<Card, 'id' | 'name' | 'banlist'>;

/** Each format's list from a card set: its cards with a status there, by status then name. */
export function banlistsOf(cards: Iterable<BanlistedCard>): Record<BanlistFormat, BanlistEntry[]> {
  const lists = Object.fromEntries(BANLIST_FORMATS.map((format) => [format, [] as BanlistEntry[]])) as Record<BanlistFormat, BanlistEntry[]>;
  for (const card of cards) {
    for (const format of BANLIST_FORMATS) {
      const status = card.banlist[format];
      if (status !== undefined) lists[format].push({ id: card.id, name: card.name, status });
    }
  }
  for (const format of BANLIST_FORMATS) lists[format].sort(byStatusThenName);
  return lists;
}

function byStatusThenName(a: BanlistEntry, b: BanlistEntry): number {
  const rank = (entry: BanlistEntry) => (entry.status === undefined ? STATUS_ORDER.length : STATUS_ORDER.indexOf(entry.status));
  return rank(a) - rank(b) || a.name.localeCompare(b.name, 'en') || a.id - b.id;
}

/** A stable text of a list: two versions whose digests are equal have the same list. */
export function digestOf(entries: readonly BanlistEntry[]): string {
  return [...entries]
    .sort((a, b) => a.id - b.id)
    .map((entry) => `${entry.id}:${entry.status ?? ''}:${entry.points ?? ''}`)
    .join(',');
}

/** One card whose place on the list changed. */
export interface BanlistChange {
  id: number;
  name: string;
  from: BanStatus | 'Unlimited';
  to: BanStatus | 'Unlimited';
  /** Points formats: the points before and after (0 when absent). */
  points?: { from: number; to: number };
}

/** What changed from `before` to `after`, grouped by the new status (newly Forbidden first, Unlimited last). */
export function changesBetween(before: readonly BanlistEntry[], after: readonly BanlistEntry[]): BanlistChange[] {
  const old = new Map(before.map((entry) => [entry.id, entry]));
  const now = new Map(after.map((entry) => [entry.id, entry]));
  const changes: BanlistChange[] = [];
  for (const id of new Set([...old.keys(), ...now.keys()])) {
    const from = old.get(id);
    const to = now.get(id);
    const statusFrom = from?.status ?? 'Unlimited';
    const statusTo = to?.status ?? 'Unlimited';
    const pointsFrom = from?.points ?? 0;
    const pointsTo = to?.points ?? 0;
    if (statusFrom === statusTo && pointsFrom === pointsTo) continue;
    changes.push({
      id,
      name: (to ?? from)!.name,
      from: statusFrom,
      to: statusTo,
      ...(pointsFrom === pointsTo ? {} : { points: { from: pointsFrom, to: pointsTo } }),
    });
  }
  const order = [...STATUS_ORDER, 'Unlimited'];
  return changes.sort((a, b) => order.indexOf(a.to) - order.indexOf(b.to) || a.name.localeCompare(b.name, 'en') || a.id - b.id);
}

/** A deck as kept for the ban-list check: each card's main passcode and its copies (main, extra and side together). */
export type DeckCopies = Readonly<Record<string, number>>;

/** A deck's copies per card: each password counted under its card's main passcode (`mainIdOf`); unknown ones are left out. */
export function deckCopiesOf(passwords: Iterable<number>, mainIdOf: (password: number) => number | undefined): DeckCopies {
  const copies: Record<string, number> = {};
  for (const password of passwords) {
    const id = mainIdOf(password);
    if (id !== undefined) copies[String(id)] = (copies[String(id)] ?? 0) + 1;
  }
  return copies;
}

/** A card of a deck that a change puts over its new limit: its new status, or (Genesys) its new points. */
export type DeckOffence = { id: number; name: string; copies: number } & ({ status: BanStatus } | { points: number });

/**
 * Genesys: when a change of points puts `deck` over the cap (it was within it), its new total and
 * the cards whose points rose; null when the deck stays as legal as it was.
 */
export function genesysOffencesOf(deck: DeckCopies, before: readonly BanlistEntry[], after: readonly BanlistEntry[], cap: number): { total: number; offences: DeckOffence[] } | null {
  const pointsOf = (entries: readonly BanlistEntry[]) => new Map(entries.map((entry) => [entry.id, entry.points ?? 0]));
  const [old, now] = [pointsOf(before), pointsOf(after)];
  const cards = Object.entries(deck).map(([id, copies]) => ({ id: Number(id), copies }));
  const totalOf = (points: ReadonlyMap<number, number>) => cards.reduce((sum, card) => sum + card.copies * (points.get(card.id) ?? 0), 0);
  const total = totalOf(now);
  if (total <= cap || totalOf(old) > cap) return null;
  const names = new Map(after.map((entry) => [entry.id, entry.name]));
  const offences = cards.flatMap(({ id, copies }): DeckOffence[] => {
    const points = now.get(id) ?? 0;
    return points > (old.get(id) ?? 0) ? [{ id, name: names.get(id) ?? String(id), copies, points }] : [];
  });
  return { total, offences };
}

/**
 * The cards that make `deck` illegal because of `changes`: a card now allowed fewer copies than
 * the deck has, where the old list allowed them. Empty when the change leaves the deck as it was.
 */
export function offencesOf(deck: DeckCopies, changes: readonly BanlistChange[]): DeckOffence[] {
  const offences: DeckOffence[] = [];
  for (const change of changes) {
    if (change.to === 'Unlimited') continue;
    const copies = deck[String(change.id)] ?? 0;
    if (copies > ALLOWED_COPIES[change.to] && copies <= ALLOWED_COPIES[change.from]) offences.push({ id: change.id, name: change.name, copies, status: change.to });
  }
  return offences;
}
