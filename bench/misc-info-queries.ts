/**
 * Labelled queries that need YGOPRODeck's `misc_info`, evaluated on the whole 2025-04-25 dump with
 * test/fixtures/misc-info-2025-04-25.json.br (see test/helpers/misc-info.ts): old names as
 * `beta_name` among 700 generated ones, and prefixes many cards share, where `views` decides.
 */
import type { LabelledQuery } from './card-queries.js';

export type MiscInfoQuery = Pick<LabelledQuery, 'query' | 'expected'>;

/** Old TCG, OCG and beta names, whole, partial or misspelt, as the fixture's `beta_name`. */
export const BETA_NAME_QUERIES: readonly MiscInfoQuery[] = [
  { query: 'critter', expected: 'Sangan' },
  { query: 'harpies brother', expected: 'Sky Scout' },
  { query: 'red eyes b dragon', expected: 'Red-Eyes Black Dragon' },
  { query: 'b skull dragon', expected: 'Black Skull Dragon' },
  { query: 'meteor b. dragon', expected: 'Meteor Black Dragon' },
  { query: 'black magician', expected: 'Dark Magician' },
  { query: 'black magician girl', expected: 'Dark Magician Girl' },
  { query: 'black magician of chaos', expected: 'Dark Magician of Chaos' },
  { query: 'android psycho shocker', expected: 'Jinzo' },
  { query: 'multiplying g', expected: 'Maxx "C"' },
  { query: 'resurrection of the dead', expected: 'Monster Reborn' },
  { query: 'elf swordsman', expected: 'Celtic Guardian' },
  { query: 'dark knight gaia', expected: 'Gaia The Fierce Knight' },
  { query: 'varrelload dragon', expected: 'Borreload Dragon' },
  { query: 'varrelload', expected: 'Borreload Dragon' },
  { query: 'varrelsword dragon', expected: 'Borrelsword Dragon' },
  { query: 'varelload dragon', expected: 'Borreload Dragon' },
  { query: 'android psycho shoker', expected: 'Jinzo' },
];

/**
 * Prefixes shared by several cards where the one players mean is not the shortest name (the
 * tie-break without `views`) but the most viewed one. ("exodia" is left out: an alias already names it.)
 */
export const POPULAR_PREFIX_QUERIES: readonly MiscInfoQuery[] = [
  { query: 'red-eyes', expected: 'Red-Eyes Black Dragon' },
  { query: 'blue-eyes', expected: 'Blue-Eyes White Dragon' },
  { query: 'monster re', expected: 'Monster Reborn' },
  { query: 'swords of', expected: 'Swords of Revealing Light' },
  { query: 'gaia', expected: 'Gaia The Fierce Knight' },
  { query: 'stardust', expected: 'Stardust Dragon' },
  { query: 'book of', expected: 'Book of Moon' },
  { query: 'call of', expected: 'Call of the Haunted' },
  { query: 'torrential', expected: 'Torrential Tribute' },
  { query: 'thousand eyes', expected: 'Thousand-Eyes Restrict' },
  { query: 'dark ruler', expected: 'Dark Ruler No More' },
  { query: 'triple tactics', expected: 'Triple Tactics Talent' },
  { query: 'black luster soldier env', expected: 'Black Luster Soldier - Envoy of the Beginning' },
];
