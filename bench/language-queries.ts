/**
 * Labelled queries for the matcher's sound-alike tolerance and its search in the user's language,
 * evaluated like CARD_QUERIES (card-queries.ts) against the 2025-04-25 dump, with the fake
 * YGOPRODeck's language dumps (test/fakes/card-translations.ts) for the other languages.
 *
 * `expected` is the English name of the card meant; `language` is the user's language when the
 * query is typed in one (names in that language are searched as well as English ones).
 */
import type { CardLanguage } from '../src/cards/card.js';

export interface LanguageQuery {
  query: string;
  /** Exact English card name. */
  expected: string;
  language?: CardLanguage;
}

/**
 * Names typed by ear: a "k" for a hard "c" or "ch", "i" for "y", one consonant for a doubled one
 * (or two for one), "f" for "ph", a silent letter left out ("nite"), Japanese names in the other
 * romanisation (si/shi, tu/tsu) or with their long vowels written out (Jinzou, Yuubel), German
 * umlauts typed as "ae"/"ue", and names in French, German, Italian or Portuguese spelled the same
 * way. Written from the same list of sound patterns as the sound key, before it was run on them.
 */
export const SOUND_ALIKE_QUERIES: readonly LanguageQuery[] = [
  // English and romanised Japanese names.
  { query: 'kaos emperor dragon', expected: 'Chaos Emperor Dragon - Envoy of the End' },
  { query: 'kimera the flying mythical beast', expected: 'Chimera the Flying Mythical Beast' },
  { query: 'eksodia the forbidden one', expected: 'Exodia the Forbidden One' },
  { query: 'mistikal space tyfoon', expected: 'Mystical Space Typhoon' },
  { query: 'harpy lady', expected: 'Harpie Lady' },
  { query: 'sky striker ace ray', expected: 'Sky Striker Ace - Raye' },
  { query: 'blackwing gale the wirlwind', expected: 'Blackwing - Gale the Whirlwind' },
  { query: 'kristron halkifibrax', expected: 'Crystron Halqifibrax' },
  { query: 'ash blosom and joyus spring', expected: 'Ash Blossom & Joyous Spring' },
  { query: 'gaia the feerce nite', expected: 'Gaia The Fierce Knight' },
  { query: 'thousand eyes restrikt', expected: 'Thousand-Eyes Restrict' },
  { query: 'apolousa bow of the godess', expected: 'Apollousa, Bow of the Goddess' },
  { query: 'dandilion', expected: 'Dandylion' },
  { query: 'psy framegear gama', expected: 'PSY-Framegear Gamma' },
  { query: 'ghost ogre and snow rabit', expected: 'Ghost Ogre & Snow Rabbit' },
  { query: 'gost bell and haunted mansion', expected: 'Ghost Belle & Haunted Mansion' },
  { query: 'dogmatika eklesia', expected: 'Dogmatika Ecclesia, the Virtuous' },
  { query: 'sky striker mobilise engage', expected: 'Sky Striker Mobilize - Engage!' },
  { query: 'polimerisation', expected: 'Polymerization' },
  { query: 'trishula dragon of the ise barrier', expected: 'Trishula, Dragon of the Ice Barrier' },
  { query: 'i p maskerena', expected: 'I:P Masquerena' },
  { query: 'mek nite crusadia avramax', expected: 'Mekk-Knight Crusadia Avramax' },
  { query: 'ultimate conductor tirano', expected: 'Ultimate Conductor Tyranno' },
  { query: 'nekroface', expected: 'Necroface' },
  { query: 'axesscode talker', expected: 'Accesscode Talker' },
  { query: 'siranui spectralsword', expected: 'Shiranui Spectralsword' },
  { query: 'kastira fenrir', expected: 'Kashtira Fenrir' },
  { query: 'raigekki', expected: 'Raigeki' },
  { query: 'sanggan', expected: 'Sangan' },
  { query: 'jinzou', expected: 'Jinzo' },
  { query: 'yuubel', expected: 'Yubel' },
  { query: 'kuribou', expected: 'Kuriboh' },
  { query: 'yata garrasu', expected: 'Yata-Garasu' },
  { query: 'tearlaments kitkalos', expected: 'Tearlaments Kitkallos' },
  { query: 'feendsmith engraver', expected: 'Fiendsmith Engraver' },
  { query: 'kozmo tincan', expected: 'Kozmo Tincan' },
  { query: 'nite beam', expected: 'Night Beam' },
  { query: 'sakred fenix of neftis', expected: 'Sacred Phoenix of Nephthys' },
  { query: 'blue eyes ultimat dragun', expected: 'Blue-Eyes Ultimate Dragon' },
  { query: 'red eyes dark dragoon', expected: 'Red-Eyes Dark Dragoon' },
  // Names in the user's language.
  { query: 'majicien sombre', expected: 'Dark Magician', language: 'fr' },
  { query: 'majicienne des tenebres', expected: 'Dark Magician Girl', language: 'fr' },
  { query: 'pot de kupidite', expected: 'Pot of Greed', language: 'fr' },
  { query: 'crane invoke', expected: 'Summoned Skull', language: 'fr' },
  { query: 'jugement solenel', expected: 'Solemn Judgment', language: 'fr' },
  { query: 'polimerisation', expected: 'Polymerization', language: 'fr' },
  { query: 'magisien du tan', expected: 'Time Wizard', language: 'fr' },
  { query: 'dunkler majier', expected: 'Dark Magician', language: 'de' },
  { query: 'topf der gir', expected: 'Pot of Greed', language: 'de' },
  { query: 'blauaeugiger w drache', expected: 'Blue-Eyes White Dragon', language: 'de' },
  { query: 'spigelkraft', expected: 'Mirror Force', language: 'de' },
  { query: 'mistischer raum taifun', expected: 'Mystical Space Typhoon', language: 'de' },
  { query: 'keltischer waechter', expected: 'Celtic Guardian', language: 'de' },
  { query: 'drago bianco ochi blu', expected: 'Blue-Eyes White Dragon', language: 'it' },
  { query: 'forza spekkio', expected: 'Mirror Force', language: 'it' },
  { query: 'ragaza maga nera', expected: 'Dark Magician Girl', language: 'it' },
  { query: 'giudizio solene', expected: 'Solemn Judgment', language: 'it' },
  { query: 'tiphone spaziale mistico', expected: 'Mystical Space Typhoon', language: 'it' },
  { query: 'dragao branko de olhos azuis', expected: 'Blue-Eyes White Dragon', language: 'pt' },
  { query: 'caveira invokada', expected: 'Summoned Skull', language: 'pt' },
  { query: 'tufao espacial mistiko', expected: 'Mystical Space Typhoon', language: 'pt' },
  { query: 'pote da gananssia', expected: 'Pot of Greed', language: 'pt' },
];

/**
 * Names in the user's language as players type them: exact (accents and punctuation left out),
 * with a typo, partial, or with the words in another order.
 */
export const TRANSLATED_QUERIES: readonly LanguageQuery[] = [
  { query: 'magicien sombre', expected: 'Dark Magician', language: 'fr' },
  { query: 'dragon blanc aux yeux bleus', expected: 'Blue-Eyes White Dragon', language: 'fr' },
  { query: 'dragon noir aux yeux rouges', expected: 'Red-Eyes Black Dragon', language: 'fr' },
  { query: 'typhon d espace mystique', expected: 'Mystical Space Typhoon', language: 'fr' },
  { query: 'typhon despace', expected: 'Mystical Space Typhoon', language: 'fr' },
  { query: 'pot de cupidite', expected: 'Pot of Greed', language: 'fr' },
  { query: 'force de miroir', expected: 'Mirror Force', language: 'fr' },
  { query: 'exodia linterdit', expected: 'Exodia the Forbidden One', language: 'fr' },
  { query: 'impermanence infinie', expected: 'Infinite Impermanence', language: 'fr' },
  { query: 'appele par la tombe', expected: 'Called by the Grave', language: 'fr' },
  { query: 'dragon poussiere detoile', expected: 'Stardust Dragon', language: 'fr' },
  { query: 'heros elementaire neos', expected: 'Elemental HERO Neos', language: 'fr' },
  { query: 'cendres de floraison', expected: 'Ash Blossom & Joyous Spring', language: 'fr' },
  { query: 'epees de lumiere revelatrice', expected: 'Swords of Revealing Light', language: 'fr' },
  { query: 'voileur d effet', expected: "Effect Veiler", language: 'fr' },
  { query: 'magicien sombr', expected: 'Dark Magician', language: 'fr' },
  { query: 'dragon blanc yeux bleu', expected: 'Blue-Eyes White Dragon', language: 'fr' },
  { query: 'livre de la lnue', expected: 'Book of Moon', language: 'fr' },
  { query: 'dunkler magier', expected: 'Dark Magician', language: 'de' },
  { query: 'blauaugiger w drache', expected: 'Blue-Eyes White Dragon', language: 'de' },
  { query: 'rotaugiger s drache', expected: 'Red-Eyes Black Dragon', language: 'de' },
  { query: 'topf der gier', expected: 'Pot of Greed', language: 'de' },
  { query: 'mystischer raum taifun', expected: 'Mystical Space Typhoon', language: 'de' },
  { query: 'spiegelkraft', expected: 'Mirror Force', language: 'de' },
  { query: 'unendliche verganglichkeit', expected: 'Infinite Impermanence', language: 'de' },
  { query: 'vom grab gerufen', expected: 'Called by the Grave', language: 'de' },
  { query: 'sternenstaubdrache', expected: 'Stardust Dragon', language: 'de' },
  { query: 'ruf der gejagten', expected: 'Call of the Haunted', language: 'de' },
  { query: 'schwarzes loch', expected: 'Dark Hole', language: 'de' },
  { query: 'beschworener totenkopf', expected: 'Summoned Skull', language: 'de' },
  { query: 'aschblute', expected: 'Ash Blossom & Joyous Spring', language: 'de' },
  { query: 'drache blauaugiger', expected: 'Blue-Eyes White Dragon', language: 'de' },
  { query: 'mago nero', expected: 'Dark Magician', language: 'it' },
  { query: 'drago bianco occhi blu', expected: 'Blue-Eyes White Dragon', language: 'it' },
  { query: 'vaso dellavidita', expected: 'Pot of Greed', language: 'it' },
  { query: 'tifone spaziale', expected: 'Mystical Space Typhoon', language: 'it' },
  { query: 'impermanenza infinita', expected: 'Infinite Impermanence', language: 'it' },
  { query: 'chiamato dalla tomba', expected: 'Called by the Grave', language: 'it' },
  { query: 'drago polvere di stelle', expected: 'Stardust Dragon', language: 'it' },
  { query: 'teschio evocato', expected: 'Summoned Skull', language: 'it' },
  { query: 'ragazza maga nera', expected: 'Dark Magician Girl', language: 'it' },
  { query: 'occhi blu drago bianco', expected: 'Blue-Eyes White Dragon', language: 'it' },
  { query: 'mago negro', expected: 'Dark Magician', language: 'pt' },
  { query: 'dragao branco de olhos azuis', expected: 'Blue-Eyes White Dragon', language: 'pt' },
  { query: 'pote da ganancia', expected: 'Pot of Greed', language: 'pt' },
  { query: 'tufao espacial mistico', expected: 'Mystical Space Typhoon', language: 'pt' },
  { query: 'forca espelho', expected: 'Mirror Force', language: 'pt' },
  { query: 'buraco negro', expected: 'Dark Hole', language: 'pt' },
  { query: 'chamado pelo tumulo', expected: 'Called by the Grave', language: 'pt' },
  { query: 'caveira invocada', expected: 'Summoned Skull', language: 'pt' },
  { query: 'dragao negro de olhos vermelhos', expected: 'Red-Eyes Black Dragon', language: 'pt' },
  { query: 'dragao da poeira', expected: 'Stardust Dragon', language: 'pt' },
];
