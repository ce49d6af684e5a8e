/**
 * Community abbreviations and nicknames → exact card name.
 *
 * Users type these instead of names (`<mst>` returned "Mist Worm" in Bastion,
 * DawnbrandBots/bastion-bot#209; "VFD" in okkdev/cardian#2), and no fuzzy algorithm can
 * recover "True King of All Calamities" from "vfd", so they live in a table.
 *
 * Rules for adding an entry:
 * - The key must be unambiguous in the community: `ddd` (the D/D/D archetype) or `ra` (a prefix
 *   of Raigeki, typed on the way there) are left out on purpose, because an alias outranks every
 *   prefix match in autocomplete.
 * - The key must not be an existing card's name; that card's exact match would win anyway.
 * - The target must be an exact card name in the database (a test checks every one).
 *
 * Keys are matched after the matcher's normalisation (case, punctuation and spaces are ignored),
 * so `B.E.W.D.` finds the `bewd` entry. `maxx c` needs no entry: it is already Maxx "C"'s exact name.
 */
export const DEFAULT_ALIASES: Readonly<Record<string, string>> = {
  // Classic monsters
  bewd: 'Blue-Eyes White Dragon',
  beud: 'Blue-Eyes Ultimate Dragon',
  rebd: 'Red-Eyes Black Dragon',
  redmd: 'Red-Eyes Darkness Metal Dragon',
  dm: 'Dark Magician',
  dmg: 'Dark Magician Girl',
  dmoc: 'Dark Magician of Chaos',
  bls: 'Black Luster Soldier - Envoy of the Beginning',
  ced: 'Chaos Emperor Dragon - Envoy of the End',
  exodia: 'Exodia the Forbidden One',
  dad: 'Dark Armed Dragon',
  jd: 'Judgment Dragon',
  trag: 'Tragoedia',
  tkro: 'Thunder King Rai-Oh',
  // Synchro, Xyz and Link staples
  afd: 'Ancient Fairy Dragon',
  brd: 'Black Rose Dragon',
  dsf: 'Dark Strike Fighter',
  vfd: 'True King of All Calamities',
  utopia: 'Number 39: Utopia',
  cdi: 'Cyber Dragon Infinity',
  cdn: 'Cyber Dragon Nova',
  zeus: 'Divine Arsenal AA-ZEUS - Sky Thunder',
  apo: 'Apollousa, Bow of the Goddess',
  halq: 'Crystron Halqifibrax',
  ip: 'I:P Masquerena',
  // Hand traps
  ash: 'Ash Blossom & Joyous Spring',
  droll: 'Droll & Lock Bird',
  imperm: 'Infinite Impermanence',
  veiler: 'Effect Veiler',
  ogre: 'Ghost Ogre & Snow Rabbit',
  belle: 'Ghost Belle & Haunted Mansion',
  nib: 'Nibiru, the Primal Being',
  // Spells
  mst: 'Mystical Space Typhoon',
  hfd: "Harpie's Feather Duster",
  drnm: 'Dark Ruler No More',
  lstorm: 'Lightning Storm',
  cbtg: 'Called by the Grave',
  pog: 'Pot of Greed',
  pop: 'Pot of Prosperity',
  pod: 'Pot of Desires',
  poe: 'Pot of Extravagance',
  ttt: 'Triple Tactics Talent',
  rota: 'Reinforcement of the Army',
  foolish: 'Foolish Burial',
  sorl: 'Swords of Revealing Light',
  bom: 'Book of Moon',
  engage: 'Sky Striker Mobilize - Engage!',
  // Traps
  coth: 'Call of the Haunted',
  bth: 'Bottomless Trap Hole',
  sj: 'Solemn Judgment',
};
