import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { OLD_CARD_NAMES } from '../../bench/card-queries.js';
import { shuffled } from '../../bench/stats.js';
import { loadCardDump } from './card-dump.js';
import { seededRandom } from './seeded-random.js';

/**
 * YGOPRODeck's `misc_info` (what `misc=yes` adds) for every card of the 2025-04-25 dump, which has
 * none: test/fixtures/misc-info-2025-04-25.json.br, made by `generateMiscInfo` (seeded, so a test
 * checks the file is exactly what it makes; `npx tsx test/helpers/misc-info.ts` writes it again).
 *
 * - `beta_name`: the real renames of OLD_CARD_NAMES (old TCG, OCG and beta names) on their cards;
 *   besides them one card in twenty carries a generated one, spelled the way beta names differ from
 *   final ones (another romanisation: r/l, b/v, a vowel), so old names compete at real scale.
 * - `views`: the staples below get hand-entered views of the order YGOPRODeck shows for them (from
 *   memory: their order matters, not their digits); every other card a log-normal draw around
 *   25,000 (real pages of ordinary cards show 10,000–120,000), so a staple outranks the obscure
 *   cards that share its prefix, as on the real site.
 * - `konami_id`: a distinct number from 4,000 to 24,000 per card, as real ones are (not the real ones).
 * - `formats`, `md_rarity`: every card but skills and tokens is TCG and OCG; nine in ten are in Master
 *   Duel with a rarity (Common the most, Ultra Rare the least), half in Duel Links, some in GOAT and
 *   Speed Duel; skills are Duel Links only. One card in fifty lists "Common Charity" and a duplicate,
 *   as the real data does.
 * - `treated_as`: the real Harpie Lady cards treated as "Harpie Lady".
 * - `ban_masterduel` (upstream sends it in `banlist_info`, kept here so the fixture is one file): a
 *   few staples with a Master Duel status (hand-entered, plausible rather than current).
 *
 * The fields after `beta_name` come from a stream of their own, so adding them left the older ones as
 * they were.
 */
export interface MiscInfo {
  views: number;
  viewsweek: number;
  upvotes: number;
  downvotes: number;
  konami_id: number;
  beta_name?: string;
  formats: string[];
  md_rarity?: string;
  treated_as?: string;
  ban_masterduel?: string;
}

export const MISC_INFO_URL = new URL('../fixtures/misc-info-2025-04-25.json.br', import.meta.url);
const SEED = 20250425;
const FORMATS_SEED = 20251125;

const TREATED_AS_HARPIE_LADY = ['Harpie Lady 1', 'Harpie Lady 2', 'Harpie Lady 3', 'Cyber Harpie Lady'];
const MASTER_DUEL_BANLIST: Readonly<Record<string, string>> = {
  'Maxx "C"': 'Forbidden',
  'Pot of Greed': 'Forbidden',
  'Called by the Grave': 'Limited',
  'Infinite Impermanence': 'Limited',
  'Ash Blossom & Joyous Spring': 'Semi-Limited',
};
const MD_RARITIES: readonly (readonly [string, number])[] = [
  ['Common', 0.45],
  ['Rare', 0.7],
  ['Super Rare', 0.88],
  ['Ultra Rare', 1],
];

/** Hand-entered views of well-known staples (millions, approximate). */
const STAPLE_VIEWS: Readonly<Record<string, number>> = {
  'Blue-Eyes White Dragon': 6.1,
  'Dark Magician': 5.8,
  'Exodia the Forbidden One': 4.2,
  'Red-Eyes Black Dragon': 3.9,
  'Dark Magician Girl': 3.6,
  'Pot of Greed': 3.4,
  'Ash Blossom & Joyous Spring': 3.3,
  'Monster Reborn': 3.1,
  'Raigeki': 3,
  'Mirror Force': 2.9,
  'Black Luster Soldier - Envoy of the Beginning': 2.6,
  'Maxx "C"': 2.6,
  'Infinite Impermanence': 2.5,
  'Called by the Grave': 2.4,
  'Stardust Dragon': 2.3,
  'Polymerization': 2.3,
  'Mystical Space Typhoon': 2.2,
  'Harpie\'s Feather Duster': 2.1,
  'Kuriboh': 2,
  'Jinzo': 2,
  'Summoned Skull': 1.9,
  'Swords of Revealing Light': 1.9,
  'Gaia The Fierce Knight': 1.8,
  'Call of the Haunted': 1.8,
  'Book of Moon': 1.7,
  'Torrential Tribute': 1.7,
  'Thousand-Eyes Restrict': 1.6,
  'Dark Ruler No More': 1.6,
  'Triple Tactics Talent': 1.5,
  'Effect Veiler': 1.5,
  'Time Wizard': 1.4,
  'Sangan': 1.4,
  'Chaos Emperor Dragon - Envoy of the End': 1.4,
  'Number 39: Utopia': 1.3,
  'Accesscode Talker': 1.3,
  'Apollousa, Bow of the Goddess': 1.2,
  'Borreload Dragon': 1.2,
  'Red-Eyes Dark Dragoon': 1.1,
  'Celtic Guardian': 1.1,
  'Black Luster Soldier': 1,
  'Dark Magician of Chaos': 1,
  'Cyber Dragon': 1,
  'Elemental HERO Neos': 1,
  'Solemn Judgment': 0.9,
  'Dark Hole': 0.9,
  'Heavy Storm': 0.9,
};

export function generateMiscInfo(cards: readonly { id: number; name: string; frameType: string }[]): Record<string, MiscInfo> {
  const random = seededRandom(SEED);
  const formatsRandom = seededRandom(FORMATS_SEED);
  const realOldName = new Map(Object.entries(OLD_CARD_NAMES).map(([old, current]) => [current, old]));
  const konamiIds = shuffled(cards.map((_, index) => 4_000 + Math.floor((index * 20_000) / cards.length)), random);
  const info: Record<string, MiscInfo> = {};
  cards.forEach((card, index) => {
    const staple = STAPLE_VIEWS[card.name];
    // Box–Muller: a normal draw for the log of an ordinary card's views.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const views = staple === undefined ? Math.round(25_000 * Math.exp(normal)) : Math.round(staple * 1_000_000);
    const entry: MiscInfo = {
      views,
      viewsweek: Math.round(views / (200 + random() * 2_000)),
      upvotes: Math.round((views / 4_000) * random()),
      downvotes: Math.round((views / 20_000) * random()),
      konami_id: konamiIds[index] as number,
      formats: [],
    };
    const betaName = realOldName.get(card.name) ?? (random() < 0.05 ? betaSpelling(card.name, random) : undefined);
    if (betaName !== undefined && betaName !== card.name) entry.beta_name = betaName;
    Object.assign(entry, formatsOf(card, formatsRandom));
    info[String(card.id)] = entry;
  });
  return info;
}

function formatsOf(card: { name: string; frameType: string }, random: () => number): Pick<MiscInfo, 'formats' | 'md_rarity' | 'treated_as' | 'ban_masterduel'> {
  const draws = [random(), random(), random(), random(), random(), random()] as const;
  if (card.frameType === 'skill') return { formats: ['Duel Links'] };
  const formats = ['TCG', 'OCG'];
  if (card.frameType === 'token') return { formats };
  const result: ReturnType<typeof formatsOf> = { formats };
  if (draws[0] < 0.1) formats.push('GOAT');
  if (draws[1] < 0.9) {
    formats.push('Master Duel');
    result.md_rarity = MD_RARITIES.find(([, upTo]) => draws[2] < upTo)![0];
  }
  if (draws[3] < 0.5) formats.push('Duel Links');
  if (draws[4] < 0.08) formats.push('Speed Duel');
  if (draws[5] < 0.02) formats.push('Common Charity', 'TCG');
  if (TREATED_AS_HARPIE_LADY.includes(card.name)) result.treated_as = 'Harpie Lady';
  const banned = MASTER_DUEL_BANLIST[card.name];
  if (banned !== undefined) result.ban_masterduel = banned;
  return result;
}

/** The name as a first, provisional translation might have spelled it: one letter swapped in its longest word. */
function betaSpelling(name: string, random: () => number): string {
  const words = name.split(' ');
  const longest = words.reduce((best, word, index) => (word.length > (words[best] as string).length ? index : best), 0);
  const swaps: [RegExp, string][] = [
    [/r/, 'l'],
    [/l/, 'r'],
    [/b/, 'v'],
    [/v/, 'b'],
    [/o/, 'a'],
    [/e/, 'a'],
  ];
  const start = Math.floor(random() * swaps.length);
  for (let offset = 0; offset < swaps.length; offset++) {
    const [pattern, replacement] = swaps[(start + offset) % swaps.length]!;
    const word = words[longest] as string;
    if (pattern.test(word)) {
      words[longest] = word.replace(pattern, replacement);
      break;
    }
  }
  return words.join(' ');
}

/** The fixture, by passcode. */
export function loadMiscInfo(): Map<number, MiscInfo> {
  const parsed = JSON.parse(brotliDecompressSync(readFileSync(MISC_INFO_URL)).toString('utf8')) as Record<string, MiscInfo>;
  return new Map(Object.entries(parsed).map(([id, info]) => [Number(id), info]));
}

export function encodeMiscInfo(info: Record<string, MiscInfo>): Buffer {
  return brotliCompressSync(JSON.stringify(info), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(MISC_INFO_URL, encodeMiscInfo(generateMiscInfo(loadCardDump())));
}
