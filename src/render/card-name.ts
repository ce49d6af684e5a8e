import { truncate } from './format.js';

/**
 * A card's name for an autocomplete choice or a menu option: its name in the user's language with
 * the English one beside it ("Magicien Sombre (Dark Magician)"), or the English name alone when it
 * has no other; at most `max` characters, never cutting a character in two.
 */
export function bilingualCardName(englishName: string, localName: string | undefined, max: number): string {
  if (localName === undefined || localName === englishName) return truncate(englishName, max);
  const both = `${localName} (${englishName})`;
  if (both.length <= max) return both;
  // Each name keeps at least half of the room, so both stay recognisable; a short one lends the rest.
  const room = max - ' ()'.length;
  const english = truncate(englishName, Math.max(room - localName.length, Math.floor(room / 2)));
  return `${truncate(localName, room - english.length)} (${english})`;
}
