import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The card set domain (`cardsets.php`): what the set catalog, the renderer and the commands see.
 * Raw YGOPRODeck JSON is validated and normalised here (upstreams.md §3.1) and never travels further.
 */

export interface CardSet {
  /**
   * A short id derived from the name, stable across refreshes: custom_ids and autocomplete values
   * carry it where a set name (up to 85 characters today) would not fit.
   */
  key: string;
  /** Unique in the list; the card database's printings name their set by it. */
  name: string;
  /** The prefix of the set numbers, e.g. `LOB`. Not unique: several sets may share one. */
  code: string;
  /** As YGOPRODeck counts them (`num_of_cards`); absent when upstream sends none. */
  cardCount?: number;
  /** First TCG release, `YYYY-MM-DD`; absent when upstream has none (OCG-only and unreleased sets). */
  tcgDate?: string;
  /**
   * File name, without `.jpg`, of the set's image on YGOPRODeck's image host (`LOB` for
   * `…/images/sets/LOB.jpg`); absent when upstream lists no image.
   */
  imageStem?: string;
}

/**
 * The version of the `CardSet` shape and of what the normaliser puts in it. Stored set lists carry
 * it; bump it whenever either changes, so lists written by older code are fetched again.
 */
export const CARD_SET_FORMAT_VERSION = 1;

const CARD_SET_KEY_LENGTH = 8;
export const CARD_SET_KEY_PATTERN = /^[A-Za-z0-9_-]{8}$/;
/** What an image file name may be made of: it becomes a path segment and a file name here. */
export const SET_IMAGE_STEM_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * 48 bits of SHA-256 of the lowercased name, base64url: with about a thousand sets, two keys collide
 * with a probability near 10⁻⁹, and the catalog keeps the first set should it ever happen.
 */
export function cardSetKey(name: string): string {
  return createHash('sha256').update(setNameKey(name)).digest('base64url').slice(0, CARD_SET_KEY_LENGTH);
}

/**
 * How set names are compared: a card's printing names its set as `cardsets.php` does, give or take
 * case and spacing.
 */
export function setNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

// --- Raw upstream shape --------------------------------------------------------------------------

const rawCardSetSchema = z.object({
  set_name: z.string().trim().min(1).max(200),
  set_code: z.string().trim().min(1).max(32),
  /** A number upstream; tolerate a numeric string. */
  num_of_cards: z.union([z.number(), z.string()]).nullish(),
  /** Absent, or null in some responses, when unknown. */
  tcg_date: z.string().nullish(),
  set_image: z.string().nullish(),
});

/** A set as `cardsets.php` returns it (the bare array holds these). */
export type RawCardSet = z.input<typeof rawCardSetSchema>;

export interface CardSetListNormalisation {
  sets: CardSet[];
  /** Entries that failed validation or repeated an earlier set's name, left out. */
  skipped: number;
  /** The first few reasons, for a log line. */
  problems: string[];
}

/**
 * Validates and normalises the `cardsets.php` list, one entry at a time (`add` each, then `result`),
 * so that the caller can read a thousand sets in slices rather than in one turn of the event loop.
 * A set that does not fit is skipped and counted, never thrown; so is a second set of the same name
 * (ignoring case), which would make the name ambiguous as the link between a set and its printings.
 */
export class CardSetListReader {
  private readonly sets: CardSet[] = [];
  private readonly problems: string[] = [];
  private readonly seenNames = new Set<string>();
  private skipped = 0;

  /** Reads entry `index` of the list. */
  add(raw: unknown, index: number): void {
    const parsed = rawCardSetSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.skip(`set ${index}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
      return;
    }
    const set = toCardSet(parsed.data);
    const nameKey = setNameKey(set.name);
    if (this.seenNames.has(nameKey)) {
      this.skip(`set ${index}: a second set named "${set.name.slice(0, 100)}"`);
      return;
    }
    this.seenNames.add(nameKey);
    this.sets.push(set);
  }

  /** The sets read so far, and what was left out. */
  result(): CardSetListNormalisation {
    return { sets: this.sets, skipped: this.skipped, problems: this.problems };
  }

  private skip(problem: string): void {
    this.skipped++;
    if (this.problems.length < 5) this.problems.push(problem);
  }
}

function toCardSet(raw: z.output<typeof rawCardSetSchema>): CardSet {
  const name = raw.set_name.replace(/\s+/g, ' ');
  const set: CardSet = { key: cardSetKey(name), name, code: raw.set_code };
  const cardCount = typeof raw.num_of_cards === 'string' ? Number(raw.num_of_cards.trim()) : raw.num_of_cards;
  if (typeof cardCount === 'number' && Number.isSafeInteger(cardCount) && cardCount >= 0) set.cardCount = cardCount;
  const tcgDate = isoDate(raw.tcg_date);
  if (tcgDate !== undefined) set.tcgDate = tcgDate;
  const imageStem = setImageStem(raw.set_image);
  if (imageStem !== undefined) set.imageStem = imageStem;
  return set;
}

/** `2002-03-08` when it is a real calendar date; `0000-00-00`, `""` and the like are no date. */
function isoDate(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed || !/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return undefined;
  const date = new Date(`${trimmed}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(trimmed) ? trimmed : undefined;
}

/**
 * The file name of `https://images.ygoprodeck.com/images/sets/LOB.jpg`. Only the name is kept: the
 * client builds the image URL on its own image host, so nothing upstream sends is ever requested as
 * given, and a name that could not be a safe path segment means "no image".
 */
function setImageStem(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  let path: string;
  try {
    path = new URL(value.trim()).pathname;
  } catch {
    return undefined;
  }
  const stem = /\/sets\/([^/]+)\.jpg$/i.exec(path)?.[1];
  return stem !== undefined && SET_IMAGE_STEM_PATTERN.test(stem) ? stem : undefined;
}

/** A cheap structural check of a `CardSet` read back from our own stored list. */
export function isCardSet(value: unknown): value is CardSet {
  const set = value as Partial<CardSet> | null;
  return (
    typeof set === 'object' &&
    set !== null &&
    typeof set.key === 'string' &&
    CARD_SET_KEY_PATTERN.test(set.key) &&
    typeof set.name === 'string' &&
    set.name !== '' &&
    typeof set.code === 'string' &&
    (set.cardCount === undefined || Number.isSafeInteger(set.cardCount)) &&
    (set.tcgDate === undefined || typeof set.tcgDate === 'string') &&
    (set.imageStem === undefined || (typeof set.imageStem === 'string' && SET_IMAGE_STEM_PATTERN.test(set.imageStem)))
  );
}

/** Typed set input that names a set by key: an autocomplete value for a name too long to be one. */
export const KEY_VALUE_PREFIX = 'set:';

/**
 * The autocomplete value that `CardSetCatalog.resolve` maps back to `set`: its name, readable where
 * Discord echoes the command, or its key when the name is longer than a value may be.
 */
export function setAutocompleteValue(set: CardSet, maxLength = 100): string {
  return set.name.length <= maxLength ? set.name : `${KEY_VALUE_PREFIX}${set.key}`;
}
