import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CARD_QUERIES, OLD_CARD_NAMES } from '../../bench/card-queries.js';
import { SOUND_ALIKE_QUERIES, TRANSLATED_QUERIES } from '../../bench/language-queries.js';
import { BETA_NAME_QUERIES, POPULAR_PREFIX_QUERIES } from '../../bench/misc-info-queries.js';
import { DEFAULT_ALIASES } from '../../src/cards/aliases.js';
import { CardMatcher, type MatchableCard } from '../../src/cards/matcher.js';
import { tokenizeCardText } from '../../src/cards/card-words.js';
import { loadCardDump, type RawCard } from '../helpers/card-dump.js';
import { loadMiscInfo } from '../helpers/misc-info.js';

let dump: RawCard[];
let matcher: CardMatcher;
let cardNames: Set<string>;

beforeAll(() => {
  dump = loadCardDump();
  cardNames = new Set(dump.map((card) => card.name));
  const oldNamesByCard = new Map<string, string[]>();
  for (const [oldName, current] of Object.entries(OLD_CARD_NAMES)) {
    oldNamesByCard.set(current, [...(oldNamesByCard.get(current) ?? []), oldName]);
  }
  matcher = new CardMatcher(
    dump.map(({ id, name }): MatchableCard => ({ id, name, altNames: oldNamesByCard.get(name) })),
  );
});

const topName = (query: string): string | undefined => matcher.search(query, 5)[0]?.name;

describe('tokenizeCardText', () => {
  it.each([
    ['Blue-Eyes White Dragon', ['blue', 'eyes', 'white', 'dragon']],
    ["Harpie's Feather Duster", ['harpies', 'feather', 'duster']],
    ['Ash Blossom & Joyous Spring', ['ash', 'blossom', 'and', 'joyous', 'spring']],
    ['Maxx "C"', ['maxx', 'c']],
    ['K9 - ØØ Lupus', ['k9', 'oo', 'lupus']],
    ['Chirubimé, Princess of Autumn Leaves', ['chirubime', 'princess', 'of', 'autumn', 'leaves']],
    ['Evil★Twin Ki-sikil', ['evil', 'twin', 'ki', 'sikil']],
    ['🐉 \u0000 \u202E', []],
  ])('%s → %j', (text, words) => {
    expect(tokenizeCardText(text)).toEqual(words);
  });
});

describe('CardMatcher on the real dump', () => {
  describe('tolerates case, punctuation, hyphens and diacritics', () => {
    it.each([
      ['blue eyes white dragon', 'Blue-Eyes White Dragon'],
      ['BLUE-EYES WHITE DRAGON', 'Blue-Eyes White Dragon'],
      ['blueeyes white dragon', 'Blue-Eyes White Dragon'],
      ['maxx c', 'Maxx "C"'],
      ['harpies feather duster', "Harpie's Feather Duster"],
      ['ash blossom and joyous spring', 'Ash Blossom & Joyous Spring'],
      ['k9 oo lupus', 'K9 - ØØ Lupus'],
      ['doll monster miss madchen', 'Doll Monster Miss Mädchen'],
      ['evil twin ki sikil', 'Evil★Twin Ki-sikil'],
      ['number 39 utopia', 'Number 39: Utopia'],
    ])('%s → %s', (query, expected) => {
      expect(topName(query)).toBe(expected);
    });
  });

  describe('tolerates typos', () => {
    it.each([
      ['dark magican', 'Dark Magician'],
      ['mystical space typhon', 'Mystical Space Typhoon'],
      ['drak magician girl', 'Dark Magician Girl'],
      ['solemn judgement', 'Solemn Judgment'],
      ['infinite impermenance', 'Infinite Impermanence'],
      ['tragedia', 'Tragoedia'],
      // A wrong first letter costs the second typo allowance, not the match.
      ['whooting star', 'Shooting Star'],
      // A letter next to the space bar typed instead of the space.
      ['battleguardvcadet', 'Battleguard Cadet'],
    ])('%s → %s', (query, expected) => {
      const [first] = matcher.search(query, 5);
      expect(first?.name).toBe(expected);
      expect(first?.kind).toBe('fuzzy');
    });
  });

  describe('ignores word order and accepts partial words', () => {
    it.each([
      ['dragon white blue eyes', 'Blue-Eyes White Dragon'],
      ['girl dark magician', 'Dark Magician Girl'],
      ['zeus sky thunder', 'Divine Arsenal AA-ZEUS - Sky Thunder'],
      ['halqifibrax', 'Crystron Halqifibrax'],
      ['bagooska tapir', 'Number 41: Bagooska the Terribly Tired Tapir'],
    ])('%s → %s (word match)', (query, expected) => {
      const [first] = matcher.search(query, 5);
      expect(first).toMatchObject({ name: expected, kind: 'word' });
    });

    it.each([
      ['ash bloss', 'Ash Blossom & Joyous Spring'],
      ['accesscode', 'Accesscode Talker'],
      ['mystical space typ', 'Mystical Space Typhoon'],
    ])('%s → %s (prefix match)', (query, expected) => {
      const [first] = matcher.search(query, 5);
      expect(first).toMatchObject({ name: expected, kind: 'prefix' });
    });
  });

  describe('exact names and passcodes win outright', () => {
    it('puts the exact name first and calls it clear', () => {
      const results = matcher.search('dark magician', 10);
      expect(results[0]).toMatchObject({ name: 'Dark Magician', kind: 'exact' });
      expect(results.slice(1).map((match) => match.name)).toContain('Dark Magician Girl');
      expect(matcher.best('Dark Magician')).toMatchObject({ match: { name: 'Dark Magician' }, clear: true });
    });

    it.each([
      ['89631139', 'Blue-Eyes White Dragon'],
      ['05318639', 'Mystical Space Typhoon'],
      ['5318639', 'Mystical Space Typhoon'],
      ['00000483', 'Parallel Teleport'],
    ])('passcode %s → %s', (query, expected) => {
      expect(matcher.search(query, 5)[0]).toMatchObject({ kind: 'id', name: expected });
      expect(matcher.best(query)?.clear).toBe(true);
    });

    it('prefers the name with the same spacing when two names differ only in punctuation', () => {
      expect(topName('Rai-Mei')).toBe('Rai-Mei');
      expect(topName('Raimei')).toBe('Raimei');
    });

    it('does not treat an over-long number as a passcode', () => {
      expect(matcher.search('8963113989631139', 5).every((match) => match.kind !== 'id')).toBe(true);
    });
  });

  describe('aliases and old names', () => {
    it.each([
      ['mst', 'Mystical Space Typhoon'],
      ['VFD', 'True King of All Calamities'],
      ['bewd', 'Blue-Eyes White Dragon'],
      ['imperm', 'Infinite Impermanence'],
    ])('alias %s → %s', (query, expected) => {
      expect(matcher.search(query, 5)[0]).toMatchObject({ kind: 'alias', name: expected });
      expect(matcher.best(query)?.clear).toBe(true);
    });

    it.each([
      ['critter', 'Sangan'],
      ["Harpie's Brother", 'Sky Scout'],
      ['Red-Eyes B. Dragon', 'Red-Eyes Black Dragon'],
      ['varrelload dragon', 'Borreload Dragon'],
    ])('old name %s → %s', (query, expected) => {
      expect(matcher.search(query, 5)[0]).toMatchObject({ kind: 'alias', name: expected });
    });

    it('finds a mistyped old name through the fuzzy tier', () => {
      expect(topName('varreload dragon')).toBe('Borreload Dragon');
    });

    it('every default alias names a card in the dump', () => {
      const missing = Object.values(DEFAULT_ALIASES).filter((target) => !cardNames.has(target));
      expect(missing).toEqual([]);
      expect(Object.keys(DEFAULT_ALIASES).length).toBeGreaterThanOrEqual(40);
    });

    it('no alias key is itself a card name (the exact card would shadow it)', () => {
      const compactNames = new Set(dump.map((card) => tokenizeCardText(card.name).join('')));
      const shadowed = Object.keys(DEFAULT_ALIASES).filter((key) => compactNames.has(tokenizeCardText(key).join('')));
      expect(shadowed).toEqual([]);
    });

    it('every old name in the evaluation table maps to a card and is not a current name', () => {
      expect(Object.values(OLD_CARD_NAMES).filter((name) => !cardNames.has(name))).toEqual([]);
      expect(Object.keys(OLD_CARD_NAMES).filter((name) => cardNames.has(name))).toEqual([]);
    });
  });

  describe('ranking', () => {
    it('orders tiers exact > prefix > word > fuzzy with non-increasing scores', () => {
      const tier = { exact: 0, id: 0, alias: 0, prefix: 1, word: 2, fuzzy: 3 } as const;
      const results = matcher.search('blue eyes white dragon', 25);
      expect(results.map((match) => match.kind)).toContain('word');
      expect(results.map((match) => match.kind)).toContain('fuzzy');
      for (let i = 1; i < results.length; i++) {
        const previous = results[i - 1]!;
        const current = results[i]!;
        expect(current.score).toBeLessThanOrEqual(previous.score);
        expect(tier[current.kind]).toBeGreaterThanOrEqual(tier[previous.kind]);
      }
    });

    it('returns each card once', () => {
      const ids = matcher.search('dark magician', 25).map((match) => match.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('honours the limit', () => {
      expect(matcher.search('dragon', 3)).toHaveLength(3);
      expect(matcher.search('dragon')).toHaveLength(25);
      expect(matcher.search('dragon', 0)).toEqual([]);
      expect(matcher.search('dragon', Number.NaN)).toEqual([]);
    });

    it('is not clear when several names start with the query', () => {
      expect(matcher.best('dark magician g')).toMatchObject({ clear: false });
    });
  });

  it('answers at least 95 % of the labelled queries with the right card first', () => {
    expect(CARD_QUERIES.length).toBeGreaterThanOrEqual(120);
    expect(CARD_QUERIES.filter(({ expected }) => !cardNames.has(expected))).toEqual([]);
    const misses = CARD_QUERIES.filter(({ query, expected }) => topName(query) !== expected);
    expect(CARD_QUERIES.length - misses.length).toBeGreaterThanOrEqual(Math.ceil(0.95 * CARD_QUERIES.length));
  });

  describe('adversarial input returns without throwing', () => {
    it.each([
      ['empty', ''],
      ['whitespace', ' \t\r\n '],
      ['6,000 characters', 'a'.repeat(6_000)],
      ['6,000 characters of words', 'dark magician '.repeat(430)],
      ['path traversal', '../../../etc/passwd'],
      ['percent-encoded NUL', '%00'],
      ['control characters', '\u0000\u0007\u001b[31m'],
      ['emoji', '🐉🃏✨'],
      ['RTL text', 'التنين الأبيض ذو العيون الزرقاء'],
      ['RTL override', '\u202Enogard etihw'],
      ['lone surrogate', '\uD800dragon'],
      ['SQL', "' OR 1=1 --"],
      ['regex metacharacters', '.*+?^${}()|[]\\'],
    ])('%s', (_label, query) => {
      const results = matcher.search(query);
      expect(Array.isArray(results)).toBe(true);
      expect(results.length).toBeLessThanOrEqual(25);
      expect(() => matcher.best(query)).not.toThrow();
    });

    it('returns nothing for input without letters or digits', () => {
      for (const query of ['', '   ', '../', '🐉', '\u0000']) {
        expect(matcher.search(query)).toEqual([]);
        expect(matcher.best(query)).toBeNull();
      }
    });
  });
});

describe('CardMatcher on a hand-made list', () => {
  const cards: MatchableCard[] = [
    { id: 1, name: 'Sky Scout', altNames: ["Harpie's Brother"], konamiId: 4321 },
    { id: 2, name: 'Dragon Alpha', popularity: 10 },
    { id: 3, name: 'Dragon Alphabet Soup', popularity: 500 },
    { id: 4, name: 'Dragon Alp' },
  ];

  it('answers a search asked again (however it is spelled) as it did the first time, whatever the caller did with that answer', () => {
    const matcher = new CardMatcher(cards);
    const first = matcher.search('dragon al', 2);
    const expected = structuredClone(first);
    first[0]!.name = 'changed by the caller';
    first.pop();
    expect(matcher.search('DRAGON   al', 2)).toEqual(expected);
    // Another count or language is another search.
    expect(matcher.search('dragon al', 3)).toHaveLength(3);
    expect(matcher.search('dragon al', 3).slice(0, 2)).toEqual(expected);
  });

  it('searches again each time when told to remember no matches, and refuses a memory size that is not a count', () => {
    // `searchTokens` is private to TypeScript only; counting its calls tells a search from a remembered answer.
    const searches = vi.spyOn(CardMatcher.prototype as unknown as { searchTokens: () => unknown }, 'searchTokens');
    try {
      const remembering = new CardMatcher(cards);
      remembering.search('dragon al', 2);
      remembering.search('dragon al', 2);
      expect(searches).toHaveBeenCalledTimes(1);
      searches.mockClear();
      const forgetful = new CardMatcher(cards, DEFAULT_ALIASES, { rememberedMatches: 0 });
      expect(forgetful.search('dragon al', 2)).toEqual(remembering.search('dragon al', 2));
      forgetful.search('dragon al', 2);
      expect(searches).toHaveBeenCalledTimes(2);
    } finally {
      searches.mockRestore();
    }
    for (const rememberedMatches of [-1, 1.5, Number.NaN]) {
      expect(() => new CardMatcher(cards, DEFAULT_ALIASES, { rememberedMatches })).toThrow(/rememberedMatches/);
    }
  });

  it('maps a Konami id to its card', () => {
    expect(new CardMatcher(cards).search('4321')[0]).toMatchObject({ id: 1, kind: 'id' });
  });

  it('breaks ties by popularity, then by shorter name', () => {
    const names = new CardMatcher(cards).search('dragon al').map((match) => match.name);
    expect(names).toEqual(['Dragon Alphabet Soup', 'Dragon Alpha', 'Dragon Alp']);
    const withoutPopularity = cards.map(({ id, name }) => ({ id, name }));
    expect(new CardMatcher(withoutPopularity).search('dragon al').map((match) => match.name)).toEqual([
      'Dragon Alp',
      'Dragon Alpha',
      'Dragon Alphabet Soup',
    ]);
  });

  it('uses a custom alias table and ignores aliases whose card is missing', () => {
    const custom = new CardMatcher(cards, { ss: 'Sky Scout', mst: 'Mystical Space Typhoon' });
    expect(custom.search('ss')[0]).toMatchObject({ id: 1, kind: 'alias' });
    expect(custom.search('mst')).toEqual([]);
  });

  it('ranks a current name above an old name matching equally well', () => {
    const renamed = new CardMatcher([
      { id: 1, name: 'Sky Scout', altNames: ['Dragon Alpine'] },
      { id: 2, name: 'Dragon Alpine Lake' },
    ]);
    expect(renamed.search('dragon alpi').map((match) => match.id)).toEqual([2, 1]);
  });
});

describe('CardMatcher by sound', () => {
  it.each([
    ['kaos emperor dragon', 'Chaos Emperor Dragon - Envoy of the End'],
    ['mistikal space tyfoon', 'Mystical Space Typhoon'],
    ['kristron halkifibrax', 'Crystron Halqifibrax'],
    ['dogmatika eklesia', 'Dogmatika Ecclesia, the Virtuous'],
    ['nite beam', 'Night Beam'],
    ['sakred fenix of neftis', 'Sacred Phoenix of Nephthys'],
  ])('%s → %s (out of reach of the typo walk)', (query, expected) => {
    expect(topName(query)).toBe(expected);
  });

  it('never lets a name that only sounds right outrank one spelled right', () => {
    // "Knight" and "Night" share a sound key; the word typed wins.
    expect(topName('night beam')).toBe('Night Beam');
    expect(topName('ice knight')).toBe('Ice Knight');
    expect(matcher.search('chaos', 25).every((match) => tokenizeCardText(match.name).includes('chaos') || match.kind !== 'fuzzy')).toBe(true);
  });

  it('takes another phonetic key, refuses a key that is not a function, and matches nothing by sound with an empty key', () => {
    const cards: MatchableCard[] = [{ id: 1, name: 'Chaos Form' }, { id: 2, name: 'Kaiser Colosseum' }];
    expect(new CardMatcher(cards, {}).search('kaos')[0]?.id).toBe(1);
    expect(new CardMatcher(cards, {}, { soundKey: () => '' }).search('kaos')).toEqual([]);
    expect(() => new CardMatcher(cards, {}, { soundKey: 'metaphone' as never })).toThrow(/"soundKey"/);
  });
});

describe('CardMatcher in other languages', () => {
  const cards: MatchableCard[] = [
    { id: 46986414, name: 'Dark Magician' },
    { id: 89631139, name: 'Blue-Eyes White Dragon' },
    { id: 10000, name: 'Tragoedia' },
    { id: 20000, name: 'Magician of Faith' },
  ];
  const names: Record<string, [number, string][]> = {
    fr: [
      [46986414, 'Magicien Sombre'],
      [89631139, 'Dragon Blanc aux Yeux Bleus'],
      [10000, 'Tragoedia'],
      [20000, 'Magicien de la Foi'],
      [404, 'Carte Inconnue'],
    ],
    de: [[46986414, 'Dunkler Magier']],
  };
  const localized = new CardMatcher(cards, {}, { localizedNames: (language) => names[language] ?? [] });

  it('matches a name in the language searched, exactly, with a typo or in part, and carries it on the result', () => {
    expect(localized.search('magicien sombre', 5, 'fr')[0]).toMatchObject({ id: 46986414, name: 'Dark Magician', localName: 'Magicien Sombre', kind: 'exact' });
    expect(localized.search('magicen sombre', 5, 'fr')[0]?.id).toBe(46986414);
    expect(localized.search('yeux bleus', 5, 'fr')[0]).toMatchObject({ id: 89631139, localName: 'Dragon Blanc aux Yeux Bleus' });
    expect(localized.best('dunkler magier', 'de')).toMatchObject({ match: { id: 46986414 }, clear: true });
  });

  it('still matches English names, and names each result in the language searched', () => {
    expect(localized.search('dark magician', 5, 'fr')[0]).toMatchObject({ id: 46986414, localName: 'Magicien Sombre' });
    expect(localized.search('magician', 5, 'fr').map((match) => match.localName)).toEqual(['Magicien de la Foi', 'Magicien Sombre']);
  });

  it('ignores names in other languages, and gives no local name in English', () => {
    expect(localized.search('magicien sombre', 5)).toEqual([]);
    expect(localized.search('dunkler magier', 5, 'fr')).toEqual([]);
    expect(localized.search('dark magician', 5)[0]).not.toHaveProperty('localName');
  });

  it('adds no name equal to the English one, nor one for an unknown passcode', () => {
    const english = new CardMatcher(cards, {});
    expect(localized.entryCount - english.entryCount).toBe(4);
    expect(localized.localName(10000, 'fr')).toBeUndefined();
    expect(localized.localName(404, 'fr')).toBeUndefined();
    expect(localized.localName(46986414, 'de')).toBe('Dunkler Magier');
    expect(localized.localName(46986414, 'it')).toBeUndefined();
  });

  it('refuses localizedNames that is not a function, naming the option', () => {
    expect(() => new CardMatcher(cards, {}, { localizedNames: names as never })).toThrow(/"localizedNames"/);
  });
});

describe('CardMatcher on the whole dump with misc_info (test/fixtures/misc-info-2025-04-25.json.br)', () => {
  let withMisc: CardMatcher;
  beforeAll(() => {
    const misc = loadMiscInfo();
    withMisc = new CardMatcher(
      dump.map(({ id, name }): MatchableCard => {
        const info = misc.get(id)!;
        return { id, name, popularity: info.views, konamiId: info.konami_id, ...(info.beta_name ? { altNames: [info.beta_name] } : {}) };
      }),
    );
  });

  it.each(POPULAR_PREFIX_QUERIES.map(({ query, expected }) => [query, expected]))('popular prefix %s → %s', (query, expected) => {
    expect(withMisc.search(query, 1)[0]?.name).toBe(expected);
  });

  it('ranks a shorter name first for a shared prefix without views (what the views change)', () => {
    expect(topName('swords of')).toBe('Swords of Burning Light');
    expect(topName('red-eyes')).not.toBe('Red-Eyes Black Dragon');
  });

  it.each(BETA_NAME_QUERIES.map(({ query, expected }) => [query, expected]))('old name %s → %s', (query, expected) => {
    expect(withMisc.search(query, 1)[0]?.name).toBe(expected);
  });

  it('keeps the labelled set at least as accurate as without misc_info', () => {
    const hits = CARD_QUERIES.filter(({ query, expected }) => withMisc.search(query, 1)[0]?.name === expected).length;
    expect(hits).toBeGreaterThanOrEqual(188);
  });
});

describe('the newer labelled sets', () => {
  it('name only cards of the dump', () => {
    const expected = [...SOUND_ALIKE_QUERIES, ...TRANSLATED_QUERIES, ...BETA_NAME_QUERIES, ...POPULAR_PREFIX_QUERIES].map((query) => query.expected);
    expect(expected.filter((name) => !cardNames.has(name))).toEqual([]);
  });
});
