/**
 * A deck as simulators share it: card passwords per section, in the order the player wrote them.
 * Passwords are a card's id or one of its alternate artworks' ids; they are not checked here.
 */
export const DECK_SECTIONS = ['main', 'extra', 'side'] as const;
export type DeckSection = (typeof DECK_SECTIONS)[number];
export type DeckList = Record<DeckSection, number[]>;

/**
 * Why a shared deck cannot be read; render words each in the member's language. Nothing past the
 * refusal runs, so a bad deck never reaches the card database or an upstream.
 */
export type DeckProblem =
  | 'notYdke'
  | 'badBase64'
  | 'badSectionLength'
  | 'tooManySections'
  | 'tooManyCards'
  | 'emptyDeck'
  | 'binaryFile'
  | 'notYdk';

export type ParsedDeck = { ok: true; deck: DeckList } | { ok: false; problem: DeckProblem };

/**
 * No real deck holds more than 60 + 15 + 15 cards; 200 leaves room for casual piles while keeping
 * what one message can make Almanac look up and draw small.
 */
export const MAX_DECK_CARDS = 200;

/** The largest password a ydke section can carry (a little-endian uint32). */
export const MAX_PASSWORD = 0xffff_ffff;

export function deckSize(deck: DeckList): number {
  return deck.main.length + deck.extra.length + deck.side.length;
}

/** Refuses an empty deck or one over the card cap; otherwise the deck is read. */
export function checkedDeck(deck: DeckList): ParsedDeck {
  const size = deckSize(deck);
  if (size === 0) return { ok: false, problem: 'emptyDeck' };
  if (size > MAX_DECK_CARDS) return { ok: false, problem: 'tooManyCards' };
  return { ok: true, deck };
}
