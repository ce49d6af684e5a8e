import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { normaliseCard, normaliseCards, normaliseLocalizedCard, parsePrice, type RawCard } from '../../src/cards/normalise-card.js';
import type { Card } from '../../src/cards/card.js';
import { QUIRK_CARD_IDS, loadCardDump } from '../fakes/ygoprodeck.js';

const dump = loadCardDump();

function rawById(id: number): RawCard {
  const raw = dump.find((card) => card.id === id);
  if (!raw) throw new Error(`card ${id} is not in the dump`);
  return structuredClone(raw);
}

function normalised(raw: unknown): Card {
  const result = normaliseCard(raw);
  if (!result.ok) throw new Error(result.problem);
  return result.card;
}

/** Every leaf of a value with its path, to look for values that should never reach a renderer. */
function* leaves(value: unknown, path = ''): Generator<[string, unknown]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* leaves(item, `${path}[${index}]`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) yield* leaves(item, `${path}.${key}`);
  } else {
    yield [path, value];
  }
}

describe('normaliseCards over the full 2025-04-25 dump', () => {
  const result = normaliseCards(dump);

  it('normalises every one of the 13,703 cards', () => {
    expect(result.problems).toEqual([]);
    expect(result.skipped).toBe(0);
    expect(result.cards).toHaveLength(13_703);
  });

  it('produces no NaN, null, undefined, "null"/"undefined" strings or carriage returns', () => {
    const bad: string[] = [];
    for (const card of result.cards) {
      for (const [path, value] of leaves(card)) {
        const wrong =
          value === null ||
          value === undefined ||
          (typeof value === 'number' && !Number.isFinite(value)) ||
          (typeof value === 'string' && (/^(null|undefined|NaN)$/.test(value) || value.includes('\r')));
        if (wrong) bad.push(`${card.id}${path}=${String(value)}`);
      }
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('gives every card a kind matching its frame, and stats only to monsters', () => {
    for (const card of result.cards) {
      if (card.kind !== 'monster') {
        expect([card.atk, card.def, card.level, card.rank, card.attribute, card.linkRating]).toEqual([
          undefined,
          undefined,
          undefined,
          undefined,
          undefined,
          undefined,
        ]);
      }
      if (card.frameType === 'link') expect(card.def).toBeUndefined();
      expect(card.imageIds[0]).toBe(card.id);
    }
    const kinds = new Map<string, number>();
    for (const card of result.cards) kinds.set(card.kind, (kinds.get(card.kind) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ monster: 8_801, spell: 2_689, trap: 1_983, token: 106, skill: 124 });
  });

  it('rebuilds the same type line as upstream `typeline` for every monster of an older response without it', () => {
    const mismatches: string[] = [];
    for (const raw of dump.filter((card) => card.typeline)) {
      const expected = raw.typeline!.join(' / ');
      const derived = normalised({ ...raw, typeline: undefined }).typeLine;
      if (derived !== expected) mismatches.push(`${raw.name}: ${derived} ≠ ${expected}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });
});

describe('normaliseCard quirks', () => {
  it('Link: no DEF or level (sent as null), link rating and markers kept', () => {
    const card = normalised(rawById(QUIRK_CARD_IDS.linkNullDefLevel));
    expect(card).toMatchObject({
      name: 'A Bao A Qu, the Lightless Shadow',
      kind: 'monster',
      typeLine: 'Fiend / Link / Effect',
      attribute: 'DARK',
      atk: 2800,
      linkRating: 4,
      linkMarkers: ['Left', 'Right', 'Bottom-Left', 'Bottom-Right'],
    });
    expect(card).not.toHaveProperty('def');
    expect(card).not.toHaveProperty('level');
    const levelZero = dump.find((raw) => raw.frameType === 'link' && raw.level === 0)!;
    expect(normalised(levelZero)).not.toHaveProperty('level');
    // Older responses left the keys out altogether.
    const { def: _def, level: _level, ...withoutKeys } = rawById(QUIRK_CARD_IDS.linkNullDefLevel);
    expect(normalised(withoutKeys)).toEqual(card);
  });

  it('Pendulum: scale, and the two effect boxes from pend_desc/monster_desc or from the markers', () => {
    const raw = rawById(QUIRK_CARD_IDS.pendulum);
    const card = normalised(raw);
    expect(card).toMatchObject({ scale: 8, level: 3, typeLine: 'Fiend / Pendulum / Effect' });
    expect(card.description.pendulumEffect).toBe(raw.pend_desc);
    expect(card.description.monsterEffect).toBe(raw.monster_desc);
    expect(card.description.text.startsWith('[ Pendulum Effect ]')).toBe(true);
    const fromMarkers = normalised({ ...raw, pend_desc: undefined, monster_desc: undefined, desc: raw.desc.replaceAll('\n', '\r\n') });
    expect(fromMarkers.description).toEqual({ ...card.description });
  });

  it('Pendulum without markers: the whole text is the monster effect', () => {
    const card = normalised(rawById(QUIRK_CARD_IDS.pendulumWithoutMarkers));
    expect(card.description.pendulumEffect).toBeUndefined();
    expect(card.description.monsterEffect).toBe(card.description.text);
  });

  it('Xyz: the level is the rank (0 included); a null level gives no rank', () => {
    expect(normalised(rawById(QUIRK_CARD_IDS.normalMonster))).toMatchObject({ level: 7, typeLine: 'Spellcaster / Normal' });
    const xyz = normalised(rawById(QUIRK_CARD_IDS.xyzRankZero));
    expect(xyz.rank).toBe(0);
    expect(xyz).not.toHaveProperty('level');
    const nullLevel = normalised(rawById(QUIRK_CARD_IDS.xyzNullLevel));
    expect(nullLevel).not.toHaveProperty('rank');
    expect(nullLevel).not.toHaveProperty('level');
  });

  it('"?" ATK/DEF: -1 becomes "?"', () => {
    expect(normalised(rawById(QUIRK_CARD_IDS.questionAtk)).atk).toBe('?');
    const lostGuardian = normalised(rawById(QUIRK_CARD_IDS.questionDef));
    expect(lostGuardian.def).toBe('?');
    expect(typeof lostGuardian.atk).toBe('number');
  });

  it('token: no stats, a "<race> / Token" type line, \\r\\n turned into \\n', () => {
    const card = normalised(rawById(QUIRK_CARD_IDS.token));
    expect(card).toMatchObject({ kind: 'token', typeLine: 'Machine / Token', race: 'Machine', humanReadableType: 'Token' });
    expect(card.description.text).toBe(
      'This card can be used as an "Ancient Gear Token".\n\n\n*If used for another Token, apply that Token\'s Type/Attribute/Level/ATK/DEF.',
    );
  });

  it('skill: the character is the (truncated) race; an empty race is left out', () => {
    expect(normalised(rawById(QUIRK_CARD_IDS.skill))).toMatchObject({
      kind: 'skill',
      race: 'Dr. Vellian C',
      humanReadableType: 'Skill - Dr. Vellian C',
      typeLine: 'Skill / Dr. Vellian C',
    });
    const noCharacter = normalised(rawById(QUIRK_CARD_IDS.skillEmptyRace));
    expect(noCharacter.typeLine).toBe('Skill');
    expect(noCharacter).not.toHaveProperty('race');
  });

  it('spell and trap: the kind of spell/trap in the type line, no stats', () => {
    const spell = normalised(rawById(QUIRK_CARD_IDS.continuousSpell));
    expect(spell).toMatchObject({
      kind: 'spell',
      race: 'Continuous',
      typeLine: 'Continuous Spell',
      humanReadableType: 'Continuous Spell',
      archetype: 'Alien',
      sets: [{ setName: 'Force of the Breaker', setCode: 'FOTB-EN043', rarity: 'Common', rarityCode: 'C' }],
      prices: { cardmarket: 0.06, tcgplayer: 0.19, ebay: 0.99, amazon: 24.45, coolstuffinc: 0.25 },
      ygoprodeckUrl: 'https://ygoprodeck.com/card/a-cell-breeding-device-9766',
    });
    expect(spell.sets[0]).not.toHaveProperty('price');
    expect(normalised(rawById(QUIRK_CARD_IDS.trapEmptyRace))).toMatchObject({ kind: 'trap', typeLine: 'Trap' });
  });

  it('alternate artworks: every image id, the main art first', () => {
    const card = normalised(rawById(QUIRK_CARD_IDS.altArts));
    expect(card.imageIds).toEqual([89631139, 89631140, 89631141, 89631142, 89631143, 89631144, 89631145, 89631146]);
  });

  it('banlist: "Banned" (older data) is Forbidden; unknown values are dropped', () => {
    const raw = { ...rawById(QUIRK_CARD_IDS.normalMonster), banlist_info: { ban_tcg: 'Banned', ban_ocg: 'Semi-Limited', ban_goat: 'Unlimited?' } };
    expect(normalised(raw).banlist).toEqual({ tcg: 'Forbidden', ocg: 'Semi-Limited' });
    expect(normalised(rawById(QUIRK_CARD_IDS.normalMonster)).banlist).toEqual({});
  });

  it('prices: strings with or without "$"; "0" and "0.00" mean unknown', () => {
    expect([parsePrice('0'), parsePrice('0.00'), parsePrice(''), parsePrice('$1.55'), parsePrice('62.15'), parsePrice('1,234.50')]).toEqual([
      undefined,
      undefined,
      undefined,
      1.55,
      62.15,
      1234.5,
    ]);
    const raw = {
      ...rawById(QUIRK_CARD_IDS.normalMonster),
      card_prices: [{ cardmarket_price: '$1.55', tcgplayer_price: '0.00', ebay_price: '0', amazon_price: 'n/a', coolstuffinc_price: '3' }],
      card_sets: [{ set_name: 'Quarter Century Bonanza', set_code: 'RA03-EN079', set_rarity: 'Quarter Century Secret Rare', set_rarity_code: '', set_price: '$2.10' }],
    };
    const card = normalised(raw);
    expect(card.prices).toEqual({ cardmarket: 1.55, coolstuffinc: 3 });
    expect(card.sets).toEqual([
      { setName: 'Quarter Century Bonanza', setCode: 'RA03-EN079', rarity: 'Quarter Century Secret Rare', rarityCode: '', price: 2.1 },
    ]);
  });

  it('keeps the YGOPRODeck page only when it is https on ygoprodeck.com', () => {
    const base = rawById(QUIRK_CARD_IDS.normalMonster);
    for (const url of ['http://ygoprodeck.com/card/x', 'https://evil.example/card/x', 'https://ygoprodeck.com.evil.example/x', 'javascript:alert(1)', 'not a url']) {
      expect(normalised({ ...base, ygoprodeck_url: url })).not.toHaveProperty('ygoprodeckUrl');
    }
    expect(normalised(base).ygoprodeckUrl).toBe('https://ygoprodeck.com/card/dark-magician-4003');
  });

  it('misc_info: beta name (quotes stripped), Konami id, views, dates and de-duplicated formats', () => {
    const raw = {
      ...rawById(QUIRK_CARD_IDS.ampersandName),
      misc_info: [
        {
          beta_name: '"Ash Blossom"',
          views: 25663772,
          viewsweek: 1000,
          formats: ['Common Charity', 'TCG', 'OCG', 'TCG', 'Master Duel'],
          tcg_date: '2017-05-04',
          ocg_date: '2017-01-14',
          konami_id: 12950,
          has_effect: 1,
          md_rarity: 'Ultra Rare',
          genesys_points: 20,
        },
      ],
    };
    expect(normalised(raw)).toMatchObject({
      altNames: ['Ash Blossom'],
      konamiId: 12950,
      views: 25663772,
      tcgDate: '2017-05-04',
      ocgDate: '2017-01-14',
      formats: ['Common Charity', 'TCG', 'OCG', 'Master Duel'],
    });
    const sameBeta = normalised({ ...raw, misc_info: [{ beta_name: 'ASH BLOSSOM & JOYOUS SPRING', tcg_date: 'soon' }] });
    expect(sameBeta).toMatchObject({ altNames: [], views: 0, formats: [] });
    expect(sameBeta).not.toHaveProperty('tcgDate');
    expect(normalised(rawById(QUIRK_CARD_IDS.ampersandName))).toMatchObject({ altNames: [], views: 0, formats: [] });
  });

  it('misc_info and banlist_info: Master Duel rarity and status, treated-as name (not when it is the card itself)', () => {
    const raw = {
      ...rawById(QUIRK_CARD_IDS.treatedAs),
      banlist_info: { ban_masterduel: 'Limited', ban_tcg: 'Banned' },
      misc_info: [{ md_rarity: ' Super Rare ', treated_as: 'Harpie Lady', formats: ['Master Duel'] }],
    };
    expect(normalised(raw)).toMatchObject({ banlist: { masterduel: 'Limited', tcg: 'Forbidden' }, mdRarity: 'Super Rare', treatedAs: 'Harpie Lady' });
    const self = normalised({ ...raw, misc_info: [{ md_rarity: '', treated_as: 'HARPIE LADY 1' }] });
    expect(self).not.toHaveProperty('treatedAs');
    expect(self).not.toHaveProperty('mdRarity');
  });

  it('a translated card keeps its English name', () => {
    const raw = { ...rawById(QUIRK_CARD_IDS.normalMonster), name: 'Magicien Sombre', name_en: 'Dark Magician' };
    expect(normaliseLocalizedCard(raw, 'fr')).toMatchObject({ name: 'Magicien Sombre', englishName: 'Dark Magician', language: 'fr', id: 46986414 });
  });

  it('skips and counts cards that fail validation, never throws', () => {
    const good = rawById(QUIRK_CARD_IDS.normalMonster);
    const result = normaliseCards([good, { ...good, id: '46986414' }, { ...good, name: '' }, null, 'card', { ...good, card_sets: [{}] }]);
    expect(result.cards.map((card) => card.id)).toEqual([46986414]);
    expect(result.skipped).toBe(5);
    expect(result.problems[0]).toContain('card 46986414: id');
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = normaliseCard(value);
        return result.ok === false || typeof result.card.name === 'string';
      }),
      { numRuns: fuzzRuns(500) },
    );
  });
});
