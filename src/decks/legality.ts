import { ALLOWED_COPIES } from '../cards/banlist.js';
import type { BanlistFormat, BanStatus, Card } from '../cards/card.js';
import { allEntries, type DeckCards, sectionSize } from './deck-cards.js';

/**
 * Whether a deck may be played in each format. TCG, OCG, GOAT and Master Duel are checked against
 * their ban lists; Speed Duel has no limit list in YGOPRODeck's data, so only its sizes and which
 * cards were released there are checked (render says so). A card without format data (an imported
 * dump) makes the verdict "unknown", never "illegal". Sizes count every password, known or not (a
 * card newer than the database is still a card of the deck); an unknown password cannot be checked
 * against a ban list or a format's releases, so it too makes an otherwise legal verdict "unknown".
 */
export const DECK_FORMATS = ['TCG', 'OCG', 'GOAT', 'Master Duel', 'Speed Duel'] as const;
export type DeckFormat = (typeof DECK_FORMATS)[number];

const BANLISTS: Record<DeckFormat, BanlistFormat | undefined> = { TCG: 'tcg', OCG: 'ocg', GOAT: 'goat', 'Master Duel': 'masterduel', 'Speed Duel': undefined };

export interface SizeRules {
  main: { min: number; max: number };
  extra: number;
  /** Absent: not checked (Speed Duel's side deck rule lives in a tournament policy addendum we do not have). */
  side?: number;
}

// upstreams.md § 6: TCG/OCG sizes (Master Duel and GOAT the same); Speed Duel per Konami's 2018 announcement.
export const STANDARD_SIZES: SizeRules = { main: { min: 40, max: 60 }, extra: 15, side: 15 };
const SIZES: Record<DeckFormat, SizeRules> = {
  TCG: STANDARD_SIZES,
  OCG: STANDARD_SIZES,
  GOAT: STANDARD_SIZES,
  'Master Duel': STANDARD_SIZES,
  'Speed Duel': { main: { min: 20, max: 30 }, extra: 5 },
};

export const MAX_COPIES = 3;

export type Violation =
  | { kind: 'mainSize'; count: number; min: number; max: number }
  | { kind: 'extraSize'; count: number; max: number }
  | { kind: 'sideSize'; count: number; max: number }
  | { kind: 'copies'; name: string; count: number }
  | { kind: 'limited'; name: string; status: BanStatus; count: number }
  | { kind: 'notReleased'; name: string };

export interface FormatVerdict {
  format: DeckFormat;
  status: 'legal' | 'illegal' | 'unknown';
  violations: Violation[];
  /** Why a verdict is unknown: unknown passwords (`unknownCards`), or a card without format data. */
  unknownBecause?: 'unknownCards' | 'noFormatData';
}

/** Cards with the same name for deck rules: alternate arts are one card already, `treatedAs` joins others. */
function ruleName(card: Card): string {
  return card.treatedAs ?? card.name;
}

export interface NameGroup {
  name: string;
  count: number;
  cards: Card[];
}

/** The deck's cards grouped by the name deck rules count copies by, main, extra and side together. */
export function nameGroups(cards: DeckCards): NameGroup[] {
  const groups = new Map<string, NameGroup>();
  for (const { card, count } of allEntries(cards)) {
    const name = ruleName(card);
    const group = groups.get(name) ?? { name, count: 0, cards: [] };
    group.count += count;
    if (!group.cards.includes(card)) group.cards.push(card);
    groups.set(name, group);
  }
  return [...groups.values()];
}

export function sizeViolations(cards: DeckCards, rules: SizeRules): Violation[] {
  const main = sectionSize(cards, 'main');
  const extra = sectionSize(cards, 'extra');
  const side = sectionSize(cards, 'side');
  const violations: Violation[] = [];
  if (main < rules.main.min || main > rules.main.max) violations.push({ kind: 'mainSize', count: main, ...rules.main });
  if (extra > rules.extra) violations.push({ kind: 'extraSize', count: extra, max: rules.extra });
  if (rules.side !== undefined && side > rules.side) violations.push({ kind: 'sideSize', count: side, max: rules.side });
  return violations;
}

/** The strictest status any card of the group has on `list` (a name shares its limit). */
function strictest(group: NameGroup, list: BanlistFormat): BanStatus | undefined {
  const statuses = group.cards.flatMap((card) => card.banlist[list] ?? []);
  return statuses.sort((a, b) => ALLOWED_COPIES[a] - ALLOWED_COPIES[b])[0];
}

export function checkFormat(cards: DeckCards, format: DeckFormat): FormatVerdict {
  const violations = sizeViolations(cards, SIZES[format]);
  const list = BANLISTS[format];
  const unknownCards = cards.unknown.length > 0;
  let noFormatData = false;
  for (const group of nameGroups(cards)) {
    if (group.count > MAX_COPIES) violations.push({ kind: 'copies', name: group.name, count: group.count });
    const status = list === undefined ? undefined : strictest(group, list);
    if (status !== undefined && group.count > ALLOWED_COPIES[status]) violations.push({ kind: 'limited', name: group.name, status, count: group.count });
    for (const card of group.cards) {
      if (card.formats.length === 0) noFormatData = true;
      else if (!card.formats.includes(format)) violations.push({ kind: 'notReleased', name: card.name });
    }
  }
  if (violations.length > 0) return { format, status: 'illegal', violations };
  if (unknownCards) return { format, status: 'unknown', violations, unknownBecause: 'unknownCards' };
  if (noFormatData) return { format, status: 'unknown', violations, unknownBecause: 'noFormatData' };
  return { format, status: 'legal', violations };
}

export function checkLegality(cards: DeckCards): FormatVerdict[] {
  return DECK_FORMATS.map((format) => checkFormat(cards, format));
}
