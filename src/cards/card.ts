/**
 * The card domain: what the renderer, the matcher and the commands see. Raw YGOPRODeck JSON is
 * validated and normalised into it by `normalise-card.ts` and never travels further.
 */

export type CardKind = 'monster' | 'spell' | 'trap' | 'token' | 'skill';
export type BanStatus = 'Forbidden' | 'Limited' | 'Semi-Limited';
/** The ban lists YGOPRODeck publishes: `ban_tcg`, `ban_ocg`, `ban_goat` and `ban_masterduel`. */
export const BANLIST_FORMATS = ['tcg', 'ocg', 'goat', 'masterduel'] as const;
export type BanlistFormat = (typeof BANLIST_FORMATS)[number];
/**
 * The formats a card can be asked to be legal in, as YGOPRODeck's `misc_info.formats` spells them;
 * upstream lists others too ("Common Charity", "Edison"), which are kept but not offered as filters.
 */
export const GAME_FORMATS = ['TCG', 'OCG', 'GOAT', 'Master Duel', 'Speed Duel', 'Duel Links'] as const;
export type GameFormat = (typeof GAME_FORMATS)[number];
export const PRICE_SOURCES = ['cardmarket', 'tcgplayer', 'ebay', 'amazon', 'coolstuffinc'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];
export const CARD_LANGUAGES = ['fr', 'de', 'it', 'pt'] as const;
/** Languages YGOPRODeck translates card names and texts into (English is the default). */
export type CardLanguage = (typeof CARD_LANGUAGES)[number];
export const LINK_MARKERS = ['Top', 'Bottom', 'Left', 'Right', 'Top-Left', 'Top-Right', 'Bottom-Left', 'Bottom-Right'] as const;
export type LinkMarker = (typeof LINK_MARKERS)[number];
/** ATK or DEF: a number, or `'?'` for cards whose value is undetermined (upstream sends -1). */
export type StatValue = number | '?';

export interface CardText {
  /** The whole card text, with `\n` line breaks. */
  text: string;
  /** Pendulum monsters only: the Pendulum Effect box. */
  pendulumEffect?: string;
  /** Pendulum monsters only: the monster's own effect (or flavour text). */
  monsterEffect?: string;
}

export interface CardPrinting {
  setName: string;
  setCode: string;
  rarity: string;
  /** E.g. `UR`, without parentheses; empty when upstream has none (Quarter Century Secret Rare). */
  rarityCode: string;
  /** USD; absent when unknown. */
  price?: number;
}

export interface Card {
  /** Passcode. Not always 8 digits (483 … 501000007). */
  id: number;
  name: string;
  kind: CardKind;
  /** YGOPRODeck's frame name (`effect`, `xyz_pendulum`, `spell`…): decides the embed colour. */
  frameType: string;
  /** E.g. `Spellcaster / Normal`, `Cyberse / Link / Effect`, `Continuous Spell`, `Skill / Yugi`. */
  typeLine: string;
  /** E.g. `Xyz Effect Monster`, `Quick-Play Spell`, `Skill - Kaiba`. */
  humanReadableType: string;
  description: CardText;
  /** Monster type, spell/trap kind (`Continuous`) or a skill's character; absent when upstream sends "". */
  race?: string;
  attribute?: string;
  /** Absent for Xyz (see `rank`) and Link monsters. */
  level?: number;
  rank?: number;
  linkRating?: number;
  linkMarkers?: LinkMarker[];
  scale?: number;
  atk?: StatValue;
  /** Absent on Link monsters. */
  def?: StatValue;
  archetype?: string;
  banlist: Partial<Record<BanlistFormat, BanStatus>>;
  /** Price per source, in its currency (Cardmarket EUR, the others USD); a source whose price is unknown (upstream "0") is absent. */
  prices: Partial<Record<PriceSource, number>>;
  sets: CardPrinting[];
  /** Artwork ids; the first is the main art. Alternate arts have their own ids. */
  imageIds: number[];
  /** The card's page on ygoprodeck.com; only kept when it is an https URL on that host. */
  ygoprodeckUrl?: string;
  /** Older names (YGOPRODeck's beta name), for search. */
  altNames: string[];
  konamiId?: number;
  /** Page views on YGOPRODeck: a popularity measure, 0 when unknown. */
  views: number;
  /** First release dates, `YYYY-MM-DD`. */
  tcgDate?: string;
  ocgDate?: string;
  /** Formats the card is legal in (`TCG`, `OCG`, `Master Duel`…), without duplicates; empty when upstream sent none. */
  formats: string[];
  /** Its rarity in Master Duel (`Common`, `Rare`, `Super Rare`, `Ultra Rare`), when it is in the game. */
  mdRarity?: string;
  /**
   * The card it is treated as by name (YGOPRODeck's `treated_as`: "Harpie Lady 1" is always treated
   * as "Harpie Lady"), which deck rules count copies by.
   */
  treatedAs?: string;
}

/**
 * The version of the `Card` shape and of what the normaliser puts in it. Stored card snapshots carry
 * it; bump it whenever either changes, so snapshots written by older code are replaced. 2: snapshots
 * hold one card per line (`CompactRecords`) instead of one JSON array. 3: Master Duel ban list and
 * rarity, `treatedAs`.
 */
export const CARD_FORMAT_VERSION = 3;

/**
 * Older card formats this code still reads: their cards are valid `Card`s that lack only fields added
 * since (all optional), so such a snapshot serves until a download replaces it, never leaving a gap.
 */
export const READABLE_CARD_FORMATS: readonly number[] = [2, CARD_FORMAT_VERSION];

/**
 * A cheap structural check of a `Card` read back from our own snapshot (whose checksum is already
 * verified): it catches a snapshot of another shape, not every possible field error.
 */
export function isCard(value: unknown): value is Card {
  const card = value as Partial<Card> | null;
  return (
    typeof card === 'object' &&
    card !== null &&
    Number.isSafeInteger(card.id) &&
    typeof card.name === 'string' &&
    typeof card.kind === 'string' &&
    typeof card.frameType === 'string' &&
    typeof card.typeLine === 'string' &&
    typeof card.humanReadableType === 'string' &&
    typeof card.description?.text === 'string' &&
    typeof card.banlist === 'object' &&
    typeof card.prices === 'object' &&
    Array.isArray(card.sets) &&
    Array.isArray(card.imageIds) &&
    card.imageIds.length > 0 &&
    Array.isArray(card.altNames) &&
    typeof card.views === 'number' &&
    Array.isArray(card.formats)
  );
}

/** A card as YGOPRODeck serves it in another language: names and texts translated, the rest as in English. */
export interface LocalizedCard extends Card {
  language: CardLanguage;
  englishName: string;
}

/** A card's art as the image store keeps it. */
export interface CardArt {
  format: 'jpg' | 'png';
  data: Buffer;
}

/** A card as a reply shows it: in the reader's language when it could be had, with its art when it could be had. */
export interface PresentedCard {
  card: Card | LocalizedCard;
  art: CardArt | null;
  /** The language asked for, when the card is shown in English instead. */
  translationUnavailable?: CardLanguage;
}
