/** How card names and queries are split into words, alike for every language. */

/** Letters that Unicode does not decompose into a base letter plus a mark (`K9 - ØØ Lupus`). */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};
const LETTER_FOLD_PATTERN = /[øæœßđðłþı]/g;

/**
 * Splits text into lowercase, accent-free words.
 *
 * - Apostrophes join (`Harpie's` → `harpies`) because users drop them, not split on them.
 * - `&` becomes `and` so "ash blossom and joyous spring" is the exact name.
 * - Everything that is not a letter or digit separates words: hyphens, `★`, `:`, quotes, emoji,
 *   control characters.
 */
export function tokenizeCardText(text: string): string[] {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(LETTER_FOLD_PATTERN, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(/['’‘`´]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}
