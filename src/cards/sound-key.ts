/**
 * A word's sound key: two spellings that sound alike get the same key ("kaos" and "chaos",
 * "yubel" and "iubel", "sangan" and "sanggan", "fenix" and "phoenix", "shiranui" and "siranui").
 *
 * Written by hand rather than taken from a phonetic library: Double Metaphone (npm
 * `double-metaphone`) and Soundex encode English pronunciation, keep only consonants (Metaphone) or
 * four characters (Soundex), and so merge names that differ only in their vowels ("Raigeki",
 * "Rageki", "Rogue"), while card names mix English, romanised Japanese and French, German,
 * Italian and Portuguese words. bench/matcher.ts compares both keys on the sound-alike queries.
 *
 * The input is one word as `tokenizeCardText` returns it (lowercase, no accents, letters and digits).
 */

/** Ordered rewrites: each applies to the result of the ones before it. */
const REWRITES: readonly (readonly [RegExp, string])[] = [
  // Silent or doubled-up letter groups of English spelling.
  [/^kn/, 'n'],
  [/^wr/, 'r'],
  [/igh/g, 'i'],
  [/ph/g, 'f'],
  [/tch/g, 'ch'],
  [/ck/g, 'k'],
  // "ch" is /k/ in the Greek-derived names cards are full of (Chaos, Chimera, Archfiend is rare next to them).
  [/ch/g, 'k'],
  // Hepburn and Kunrei romanisation of the same Japanese syllables: shi/si, tsu/tu, ji/zi, dzu/zu.
  [/sh/g, 's'],
  [/ts/g, 't'],
  [/dz/g, 'z'],
  [/qu/g, 'k'],
  [/q/g, 'k'],
  [/c(?=[eiy])/g, 's'],
  [/c/g, 'k'],
  [/x/g, 'ks'],
  [/z/g, 's'],
  [/j/g, 'g'],
  [/w/g, 'v'],
  [/y/g, 'i'],
  // Silent or breathy "h" (French "héros", "Rai-Oh", "Dhampir").
  [/h/g, ''],
  // Long vowels written out: Japanese "ou"/"uu" (Jinzou, Yuubel), English "oo"/"ee"/"ie" (Typhoon,
  // Fierce), German umlauts typed as "ae"/"oe"/"ue" (Blauaeugiger, which the tokenizer folds from ä).
  [/ou/g, 'o'],
  [/oo|uu|ue/g, 'u'],
  [/ee|ie|ii/g, 'i'],
  [/ae/g, 'a'],
  [/oe/g, 'o'],
];

/** Any letter written twice or more in a row sounds like once ("Sanggan", "Kurriboh"). */
const DOUBLED = /(.)\1+/g;
/** A final silent "e" after a consonant ("nite"/"knight", "lite"/"light"), in words longer than three letters. */
const SILENT_FINAL_E = /(?<=..[^aeiou])e$/;

export function soundKey(word: string): string {
  let key = word;
  for (const [pattern, replacement] of REWRITES) key = key.replace(pattern, replacement);
  return key.replace(DOUBLED, '$1').replace(SILENT_FINAL_E, '');
}
