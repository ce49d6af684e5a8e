/** The largest passcode YGOPRODeck could hold (its ids are at most ten digits). */
const MAX_PASSCODE = 9_999_999_999;

/** A passcode as typed or as an autocomplete value: digits only, leading zeros allowed; undefined for anything else. */
export function parsePasscode(text: string): number | undefined {
  if (!/^\d{1,12}$/.test(text)) return undefined;
  const value = Number(text);
  return value > 0 && value <= MAX_PASSCODE ? value : undefined;
}
