/**
 * Labelled card-name queries for evaluating matchers against the 2025-04-25 database dump.
 *
 * Each query is what a user plausibly types for a staple, meta or classic card; `expected` is the
 * exact name of the card they mean. A query is only included when a human reading it would agree
 * on the card: "malicious" could be Destiny HERO - Malicious or Malicious Edict, so it is not here.
 * Every expected name exists in the dump (the matcher tests check it).
 */

export type QueryCategory =
  | 'typo'
  | 'punctuation'
  | 'partial'
  | 'word-order'
  | 'prefix'
  | 'abbreviation'
  | 'old-name'
  | 'id'
  | 'exact';

export interface LabelledQuery {
  query: string;
  /** Exact card name. */
  expected: string;
  category: QueryCategory;
}

/**
 * Real renames: old TCG names, OCG names (literal translations of the Japanese) and YGOPRODeck
 * beta names, old name → current TCG name. The dump has no `misc_info`, so evaluations pass these
 * to the matcher as `altNames`, as the bot does with `misc_info.beta_name`.
 *
 * - TCG renames: Critter → Sangan, Harpie's Brother → Sky Scout, Cyber Harpie → Cyber Harpie Lady,
 *   and the "B." → "Black" errata (Red-Eyes B. Dragon, B. Skull Dragon, Meteor B. Dragon).
 * - OCG names: ブラック・マジシャン (Black Magician), ブラック・マジシャン・ガール, 混沌の黒魔術師
 *   (Black Magician of Chaos), 人造人間－サイコ・ショッカー (Android - Psycho Shocker), 増殖するG
 *   (Multiplying G), サイクロン (Cyclone), 死者蘇生 (Resurrection of the Dead), エルフの剣士
 *   (Elf Swordsman), 暗黒騎士ガイア (Dark Knight Gaia), カオス・ソルジャー (Chaos Soldier).
 * - Beta names: ヴァレルロード・ドラゴン was first translated Varrelload Dragon, its sibling Varrelsword.
 */
export const OLD_CARD_NAMES: Readonly<Record<string, string>> = {
  Critter: 'Sangan',
  "Harpie's Brother": 'Sky Scout',
  'Cyber Harpie': 'Cyber Harpie Lady',
  'Red-Eyes B. Dragon': 'Red-Eyes Black Dragon',
  'B. Skull Dragon': 'Black Skull Dragon',
  'Meteor B. Dragon': 'Meteor Black Dragon',
  'Black Magician': 'Dark Magician',
  'Black Magician Girl': 'Dark Magician Girl',
  'Black Magician of Chaos': 'Dark Magician of Chaos',
  'Android - Psycho Shocker': 'Jinzo',
  'Multiplying G': 'Maxx "C"',
  Cyclone: 'Mystical Space Typhoon',
  'Resurrection of the Dead': 'Monster Reborn',
  'Elf Swordsman': 'Celtic Guardian',
  'Dark Knight Gaia': 'Gaia The Fierce Knight',
  'Chaos Soldier': 'Black Luster Soldier',
  'Varrelload Dragon': 'Borreload Dragon',
  'Varrelsword Dragon': 'Borrelsword Dragon',
};

export const CARD_QUERIES: readonly LabelledQuery[] = [
  // Exact names, as pasted or typed with different case.
  { query: 'Dark Magician', expected: 'Dark Magician', category: 'exact' },
  { query: 'blue-eyes white dragon', expected: 'Blue-Eyes White Dragon', category: 'exact' },
  { query: 'POT OF GREED', expected: 'Pot of Greed', category: 'exact' },
  { query: 'Raigeki', expected: 'Raigeki', category: 'exact' },
  { query: 'Maxx "C"', expected: 'Maxx "C"', category: 'exact' },
  { query: 'Number 39: Utopia', expected: 'Number 39: Utopia', category: 'exact' },
  { query: 'kuriboh', expected: 'Kuriboh', category: 'exact' },
  { query: 'Sangan', expected: 'Sangan', category: 'exact' },
  { query: 'Yubel', expected: 'Yubel', category: 'exact' },
  { query: 'S:P Little Knight', expected: 'S:P Little Knight', category: 'exact' },
  { query: 'Evil★Twin Ki-sikil', expected: 'Evil★Twin Ki-sikil', category: 'exact' },
  { query: 'Rai-Mei', expected: 'Rai-Mei', category: 'exact' },
  { query: 'Raimei', expected: 'Raimei', category: 'exact' },
  { query: 'Polymerization', expected: 'Polymerization', category: 'exact' },
  { query: 'Mirror Force', expected: 'Mirror Force', category: 'exact' },
  { query: 'pot of greed', expected: 'Pot of Greed', category: 'exact' },

  // Punctuation, diacritics, symbols and spacing left out or typed differently.
  { query: 'blue eyes white dragon', expected: 'Blue-Eyes White Dragon', category: 'punctuation' },
  { query: 'maxx c', expected: 'Maxx "C"', category: 'punctuation' },
  { query: 'ash blossom and joyous spring', expected: 'Ash Blossom & Joyous Spring', category: 'punctuation' },
  { query: 'ash blossom joyous spring', expected: 'Ash Blossom & Joyous Spring', category: 'punctuation' },
  { query: 'harpies feather duster', expected: "Harpie's Feather Duster", category: 'punctuation' },
  { query: 'nibiru the primal being', expected: 'Nibiru, the Primal Being', category: 'punctuation' },
  { query: 'ip masquerena', expected: 'I:P Masquerena', category: 'punctuation' },
  { query: 'sp little knight', expected: 'S:P Little Knight', category: 'punctuation' },
  { query: 'number 39 utopia', expected: 'Number 39: Utopia', category: 'punctuation' },
  { query: 'elder entity ntss', expected: "Elder Entity N'tss", category: 'punctuation' },
  { query: 'evil twin ki sikil', expected: 'Evil★Twin Ki-sikil', category: 'punctuation' },
  { query: 'live twin lil la', expected: 'Live☆Twin Lil-la', category: 'punctuation' },
  { query: 'k9 oo lupus', expected: 'K9 - ØØ Lupus', category: 'punctuation' },
  { query: 'chirubime princess of autumn leaves', expected: 'Chirubimé, Princess of Autumn Leaves', category: 'punctuation' },
  { query: 'beast machine king barbaros ur', expected: 'Beast Machine King Barbaros Ür', category: 'punctuation' },
  { query: 'doll monster miss madchen', expected: 'Doll Monster Miss Mädchen', category: 'punctuation' },
  { query: 'sky striker mobilize engage', expected: 'Sky Striker Mobilize - Engage!', category: 'punctuation' },
  { query: 'divine arsenal aa zeus sky thunder', expected: 'Divine Arsenal AA-ZEUS - Sky Thunder', category: 'punctuation' },
  { query: 'dd crow', expected: 'D.D. Crow', category: 'punctuation' },
  { query: 'psy framegear gamma', expected: 'PSY-Framegear Gamma', category: 'punctuation' },
  { query: 'red eyes black dragon', expected: 'Red-Eyes Black Dragon', category: 'punctuation' },
  { query: 'droll and lock bird', expected: 'Droll & Lock Bird', category: 'punctuation' },
  { query: 'ghost ogre snow rabbit', expected: 'Ghost Ogre & Snow Rabbit', category: 'punctuation' },
  { query: 'vanitys fiend', expected: "Vanity's Fiend", category: 'punctuation' },
  { query: 'tri brigade shuraig the ominous omen', expected: 'Tri-Brigade Shuraig the Ominous Omen', category: 'punctuation' },
  { query: 'thunder king raioh', expected: 'Thunder King Rai-Oh', category: 'punctuation' },
  { query: 'blueeyes white dragon', expected: 'Blue-Eyes White Dragon', category: 'punctuation' },
  { query: 'dark magician girl!', expected: 'Dark Magician Girl', category: 'punctuation' },

  // Typos: missing, extra, swapped and wrong letters.
  { query: 'dark magican', expected: 'Dark Magician', category: 'typo' },
  { query: 'mystical space typhon', expected: 'Mystical Space Typhoon', category: 'typo' },
  { query: 'blue eys white dragon', expected: 'Blue-Eyes White Dragon', category: 'typo' },
  { query: 'drak magician girl', expected: 'Dark Magician Girl', category: 'typo' },
  { query: 'acesscode talker', expected: 'Accesscode Talker', category: 'typo' },
  { query: 'apolousa bow of the goddess', expected: 'Apollousa, Bow of the Goddess', category: 'typo' },
  { query: 'borelload dragon', expected: 'Borreload Dragon', category: 'typo' },
  { query: 'eldlitch the golden lord', expected: 'Eldlich the Golden Lord', category: 'typo' },
  { query: 'infinite impermenance', expected: 'Infinite Impermanence', category: 'typo' },
  { query: 'effect veilar', expected: 'Effect Veiler', category: 'typo' },
  { query: 'herald of the arc ligth', expected: 'Herald of the Arc Light', category: 'typo' },
  { query: 'cyber dragon infinty', expected: 'Cyber Dragon Infinity', category: 'typo' },
  { query: 'crystron halqifibax', expected: 'Crystron Halqifibrax', category: 'typo' },
  { query: 'dark rular no more', expected: 'Dark Ruler No More', category: 'typo' },
  { query: 'caled by the grave', expected: 'Called by the Grave', category: 'typo' },
  { query: 'pot of prosparity', expected: 'Pot of Prosperity', category: 'typo' },
  { query: 'solemn judgement', expected: 'Solemn Judgment', category: 'typo' },
  { query: 'torrential tribue', expected: 'Torrential Tribute', category: 'typo' },
  { query: 'judgement dragon', expected: 'Judgment Dragon', category: 'typo' },
  { query: 'ancient fariy dragon', expected: 'Ancient Fairy Dragon', category: 'typo' },
  { query: 'thousend dragon', expected: 'Thousand Dragon', category: 'typo' },
  { query: 'sumoned skull', expected: 'Summoned Skull', category: 'typo' },
  { query: 'exodia the forbiden one', expected: 'Exodia the Forbidden One', category: 'typo' },
  { query: 'gaia the fierse knight', expected: 'Gaia The Fierce Knight', category: 'typo' },
  { query: 'stardust dragn', expected: 'Stardust Dragon', category: 'typo' },
  { query: 'black rose dragoon', expected: 'Black Rose Dragon', category: 'typo' },
  { query: 'tearlaments kitkalos', expected: 'Tearlaments Kitkallos', category: 'typo' },
  { query: 'kashtira fenrirr', expected: 'Kashtira Fenrir', category: 'typo' },
  { query: 'mirorjade the iceblade dragon', expected: 'Mirrorjade the Iceblade Dragon', category: 'typo' },
  { query: 'foolish burrial', expected: 'Foolish Burial', category: 'typo' },
  { query: 'reinforcment of the army', expected: 'Reinforcement of the Army', category: 'typo' },
  { query: 'tragedia', expected: 'Tragoedia', category: 'typo' },
  { query: 'heavymetalfoes electromite', expected: 'Heavymetalfoes Electrumite', category: 'typo' },
  { query: 'gren maju da eisa', expected: 'Gren Maju Da Eiza', category: 'typo' },
  { query: 'witch of the black forrest', expected: 'Witch of the Black Forest', category: 'typo' },
  { query: 'graceful charaty', expected: 'Graceful Charity', category: 'typo' },
  { query: 'elemental hero stratus', expected: 'Elemental HERO Stratos', category: 'typo' },
  { query: 'fallen of albas', expected: 'Fallen of Albaz', category: 'typo' },
  { query: 'snatch steel', expected: 'Snatch Steal', category: 'typo' },
  { query: 'swords of reveling light', expected: 'Swords of Revealing Light', category: 'typo' },
  { query: 'bottomless trap whole', expected: 'Bottomless Trap Hole', category: 'typo' },
  { query: 'chimeratec overdragon', expected: 'Chimeratech Overdragon', category: 'typo' },

  // Partial words or a subset of the words, not from the start of the name.
  { query: 'halqifibrax', expected: 'Crystron Halqifibrax', category: 'partial' },
  { query: 'avramax', expected: 'Mekk-Knight Crusadia Avramax', category: 'partial' },
  { query: 'bagooska', expected: 'Number 41: Bagooska the Terribly Tired Tapir', category: 'partial' },
  { query: 'zeus sky thunder', expected: 'Divine Arsenal AA-ZEUS - Sky Thunder', category: 'partial' },
  { query: 'shuraig', expected: 'Tri-Brigade Shuraig the Ominous Omen', category: 'partial' },
  { query: 'masquerena', expected: 'I:P Masquerena', category: 'partial' },
  { query: 'ntss', expected: "Elder Entity N'tss", category: 'partial' },
  { query: 'fuwalos', expected: 'Mulcharmy Fuwalos', category: 'partial' },
  { query: 'almiraj', expected: 'Salamangreat Almiraj', category: 'partial' },
  { query: 'pankratops', expected: 'Dinowrestler Pankratops', category: 'partial' },
  { query: 'kitkallos', expected: 'Tearlaments Kitkallos', category: 'partial' },
  { query: 'zephyros', expected: 'Blackwing - Zephyros the Elite', category: 'partial' },
  { query: 'electrumite', expected: 'Heavymetalfoes Electrumite', category: 'partial' },
  { query: 'ace raye', expected: 'Sky Striker Ace - Raye', category: 'partial' },
  { query: 'striker kagari', expected: 'Sky Striker Ace - Kagari', category: 'partial' },
  { query: 'bagooska tapir', expected: 'Number 41: Bagooska the Terribly Tired Tapir', category: 'partial' },
  { query: 'hero stratos', expected: 'Elemental HERO Stratos', category: 'partial' },
  { query: 'envoy of the beginning', expected: 'Black Luster Soldier - Envoy of the Beginning', category: 'partial' },
  { query: 'magician girl', expected: 'Dark Magician Girl', category: 'partial' },
  { query: 'savage dragon', expected: 'Borreload Savage Dragon', category: 'partial' },

  // Words in another order.
  { query: 'dragon white blue eyes', expected: 'Blue-Eyes White Dragon', category: 'word-order' },
  { query: 'magician dark', expected: 'Dark Magician', category: 'word-order' },
  { query: 'girl dark magician', expected: 'Dark Magician Girl', category: 'word-order' },
  { query: 'typhoon mystical space', expected: 'Mystical Space Typhoon', category: 'word-order' },
  { query: 'talker accesscode', expected: 'Accesscode Talker', category: 'word-order' },
  { query: 'dragon borreload', expected: 'Borreload Dragon', category: 'word-order' },
  { query: 'impermanence infinite', expected: 'Infinite Impermanence', category: 'word-order' },
  { query: 'grave called by the', expected: 'Called by the Grave', category: 'word-order' },
  { query: 'judgment solemn', expected: 'Solemn Judgment', category: 'word-order' },
  { query: 'droplet forbidden', expected: 'Forbidden Droplet', category: 'word-order' },
  { query: 'golden lord eldlich', expected: 'Eldlich the Golden Lord', category: 'word-order' },
  { query: 'lock bird droll', expected: 'Droll & Lock Bird', category: 'word-order' },
  { query: 'veiler effect', expected: 'Effect Veiler', category: 'word-order' },
  { query: 'dragon stardust', expected: 'Stardust Dragon', category: 'word-order' },
  { query: 'storm heavy', expected: 'Heavy Storm', category: 'word-order' },

  // The start of the name, as typed into autocomplete.
  { query: 'accesscode', expected: 'Accesscode Talker', category: 'prefix' },
  { query: 'ash bloss', expected: 'Ash Blossom & Joyous Spring', category: 'prefix' },
  { query: 'mystical space', expected: 'Mystical Space Typhoon', category: 'prefix' },
  { query: 'borreload sav', expected: 'Borreload Savage Dragon', category: 'prefix' },
  { query: 'triple tactics tal', expected: 'Triple Tactics Talent', category: 'prefix' },
  { query: 'crossout', expected: 'Crossout Designator', category: 'prefix' },
  { query: 'forbidden drop', expected: 'Forbidden Droplet', category: 'prefix' },
  { query: 'lightning sto', expected: 'Lightning Storm', category: 'prefix' },
  { query: 'harpies feath', expected: "Harpie's Feather Duster", category: 'prefix' },
  { query: 'apollousa', expected: 'Apollousa, Bow of the Goddess', category: 'prefix' },
  { query: 'baronne', expected: 'Baronne de Fleur', category: 'prefix' },
  { query: 'infinite imp', expected: 'Infinite Impermanence', category: 'prefix' },
  { query: 'effect veil', expected: 'Effect Veiler', category: 'prefix' },
  { query: 'nibiru', expected: 'Nibiru, the Primal Being', category: 'prefix' },
  { query: 'dark ruler no', expected: 'Dark Ruler No More', category: 'prefix' },
  { query: 'eldlich', expected: 'Eldlich the Golden Lord', category: 'prefix' },
  { query: 'mekk-knight crusadia av', expected: 'Mekk-Knight Crusadia Avramax', category: 'prefix' },

  // Community abbreviations and nicknames.
  { query: 'mst', expected: 'Mystical Space Typhoon', category: 'abbreviation' },
  { query: 'MST', expected: 'Mystical Space Typhoon', category: 'abbreviation' },
  { query: 'bewd', expected: 'Blue-Eyes White Dragon', category: 'abbreviation' },
  { query: 'VFD', expected: 'True King of All Calamities', category: 'abbreviation' },
  { query: 'ash', expected: 'Ash Blossom & Joyous Spring', category: 'abbreviation' },
  { query: 'droll', expected: 'Droll & Lock Bird', category: 'abbreviation' },
  { query: 'imperm', expected: 'Infinite Impermanence', category: 'abbreviation' },
  { query: 'hfd', expected: "Harpie's Feather Duster", category: 'abbreviation' },
  { query: 'cbtg', expected: 'Called by the Grave', category: 'abbreviation' },
  { query: 'drnm', expected: 'Dark Ruler No More', category: 'abbreviation' },
  { query: 'ttt', expected: 'Triple Tactics Talent', category: 'abbreviation' },
  { query: 'rota', expected: 'Reinforcement of the Army', category: 'abbreviation' },
  { query: 'bls', expected: 'Black Luster Soldier - Envoy of the Beginning', category: 'abbreviation' },
  { query: 'dmg', expected: 'Dark Magician Girl', category: 'abbreviation' },
  { query: 'cdi', expected: 'Cyber Dragon Infinity', category: 'abbreviation' },
  { query: 'afd', expected: 'Ancient Fairy Dragon', category: 'abbreviation' },
  { query: 'tkro', expected: 'Thunder King Rai-Oh', category: 'abbreviation' },
  { query: 'apo', expected: 'Apollousa, Bow of the Goddess', category: 'abbreviation' },
  { query: 'halq', expected: 'Crystron Halqifibrax', category: 'abbreviation' },
  { query: 'zeus', expected: 'Divine Arsenal AA-ZEUS - Sky Thunder', category: 'abbreviation' },
  { query: 'coth', expected: 'Call of the Haunted', category: 'abbreviation' },
  { query: 'rebd', expected: 'Red-Eyes Black Dragon', category: 'abbreviation' },
  { query: 'veiler', expected: 'Effect Veiler', category: 'abbreviation' },
  { query: 'nib', expected: 'Nibiru, the Primal Being', category: 'abbreviation' },

  // Old TCG names, OCG names and beta names (see OLD_CARD_NAMES).
  { query: 'critter', expected: 'Sangan', category: 'old-name' },
  { query: "harpie's brother", expected: 'Sky Scout', category: 'old-name' },
  { query: 'cyber harpie', expected: 'Cyber Harpie Lady', category: 'old-name' },
  { query: 'red-eyes b. dragon', expected: 'Red-Eyes Black Dragon', category: 'old-name' },
  { query: 'red eyes b dragon', expected: 'Red-Eyes Black Dragon', category: 'old-name' },
  { query: 'b. skull dragon', expected: 'Black Skull Dragon', category: 'old-name' },
  { query: 'meteor b dragon', expected: 'Meteor Black Dragon', category: 'old-name' },
  { query: 'black magician', expected: 'Dark Magician', category: 'old-name' },
  { query: 'black magician girl', expected: 'Dark Magician Girl', category: 'old-name' },
  { query: 'black magician of chaos', expected: 'Dark Magician of Chaos', category: 'old-name' },
  { query: 'android psycho shocker', expected: 'Jinzo', category: 'old-name' },
  { query: 'multiplying g', expected: 'Maxx "C"', category: 'old-name' },
  { query: 'resurrection of the dead', expected: 'Monster Reborn', category: 'old-name' },
  { query: 'elf swordsman', expected: 'Celtic Guardian', category: 'old-name' },
  { query: 'dark knight gaia', expected: 'Gaia The Fierce Knight', category: 'old-name' },
  { query: 'varrelload dragon', expected: 'Borreload Dragon', category: 'old-name' },
  { query: 'varrelsword dragon', expected: 'Borrelsword Dragon', category: 'old-name' },

  // Passcodes, with and without the leading zeros printed on the card.
  { query: '89631139', expected: 'Blue-Eyes White Dragon', category: 'id' },
  { query: '46986414', expected: 'Dark Magician', category: 'id' },
  { query: '05318639', expected: 'Mystical Space Typhoon', category: 'id' },
  { query: '5318639', expected: 'Mystical Space Typhoon', category: 'id' },
  { query: '14558127', expected: 'Ash Blossom & Joyous Spring', category: 'id' },
  { query: '23434538', expected: 'Maxx "C"', category: 'id' },
  { query: '10000000', expected: 'Obelisk the Tormentor', category: 'id' },
  { query: '00102380', expected: 'Lava Golem', category: 'id' },
  { query: '24094653', expected: 'Polymerization', category: 'id' },
  { query: '86066372', expected: 'Accesscode Talker', category: 'id' },
];
