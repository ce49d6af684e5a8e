import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { sharedProperties, smallWorldBridges, smallWorldDeck, smallWorldMonster, type SmallWorldMonster } from '../../src/decks/small-world.js';
import { normalisedDumpCards } from '../helpers/card-dump.js';

const cards = await normalisedDumpCards();
const named = (name: string): Card => {
  const card = cards.find((candidate) => candidate.name === name);
  if (card === undefined) throw new Error(`no card named ${name}`);
  return card;
};
const monster = (name: string): SmallWorldMonster => {
  const found = smallWorldMonster(named(name));
  if (found === undefined) throw new Error(`${name} is no Small World monster`);
  return found;
};

// Type / Attribute / Level / ATK / DEF, as the dump has them:
// Ash Blossom & Joyous Spring  Zombie      FIRE  3  0     1800
// Effect Veiler                Spellcaster LIGHT 1  0     0
// Droll & Lock Bird            Spellcaster WIND  1  0     0
// Sangan                       Fiend       DARK  3  1000  600
// Ghost Belle & Haunted Mansion Zombie     EARTH 3  0     1800
// Dark Magician                Spellcaster DARK  7  2500  2100
// Blue-Eyes White Dragon       Dragon      LIGHT 8  3000  2500
const deck = ['Ash Blossom & Joyous Spring', 'Effect Veiler', 'Droll & Lock Bird', 'Sangan', 'Ghost Belle & Haunted Mansion', 'Dark Magician', 'Blue-Eyes White Dragon'].map(monster);
const bridgesOf = (hand: string, target: string) =>
  smallWorldBridges(monster(hand), monster(target), deck).map(({ bridge, withHand, withTarget }) => [bridge.card.name, withHand, withTarget]);

describe('Small World bridges, on real cards', () => {
  it('Ash Blossom to Blue-Eyes: only Effect Veiler (ATK 0 with Ash, LIGHT with Blue-Eyes)', () => {
    expect(bridgesOf('Ash Blossom & Joyous Spring', 'Blue-Eyes White Dragon')).toEqual([['Effect Veiler', 'atk', 'attribute']]);
  });

  it('Ash Blossom to Dark Magician: Veiler and Droll by ATK then Type, Sangan by Level then Attribute', () => {
    expect(bridgesOf('Ash Blossom & Joyous Spring', 'Dark Magician')).toEqual([
      ['Effect Veiler', 'atk', 'race'],
      ['Droll & Lock Bird', 'atk', 'race'],
      ['Sangan', 'level', 'attribute'],
    ]);
  });

  it('never bridges through a monster sharing more than one property: Ghost Belle shares four with Ash', () => {
    expect(sharedProperties(monster('Ash Blossom & Joyous Spring'), monster('Ghost Belle & Haunted Mansion'))).toEqual(['race', 'level', 'atk', 'def']);
    expect(bridgesOf('Ash Blossom & Joyous Spring', 'Ghost Belle & Haunted Mansion').map(([name]) => name)).not.toContain('Ghost Belle & Haunted Mansion');
    // Droll shares four with Veiler, Blue-Eyes none with Sangan: neither bridges Veiler to Sangan.
    expect(bridgesOf('Effect Veiler', 'Sangan')).toEqual([
      ['Ash Blossom & Joyous Spring', 'atk', 'level'],
      ['Ghost Belle & Haunted Mansion', 'atk', 'level'],
      ['Dark Magician', 'race', 'attribute'],
    ]);
  });
});

describe('which cards Small World can use', () => {
  it('takes monsters with a Level, and no Xyz, Link, spell or trap', () => {
    expect(smallWorldMonster(named('Dark Magician'))).toMatchObject({ race: 'Spellcaster', attribute: 'DARK', level: 7, atk: 2500, def: 2100 });
    for (const name of ['Number 39: Utopia', 'Decode Talker', 'Pot of Greed', 'Mirror Force']) expect(smallWorldMonster(named(name))).toBeUndefined();
  });

  it('counts a "?" ATK or DEF as 0, as the game does outside the field', () => {
    const unknown = cards.find((card) => card.kind === 'monster' && card.level !== undefined && card.atk === '?');
    expect(unknown).toBeDefined();
    expect(smallWorldMonster(unknown!)!.atk).toBe(0);
  });

  it('reads a Main Deck as its distinct usable monsters, in deck order', () => {
    const ids = ['Sangan', 'Pot of Greed', 'Sangan', 'Effect Veiler', 'Number 39: Utopia', 'Sangan'].map((name) => named(name).id);
    expect(smallWorldDeck([...ids, 99_999_999_999], (password) => cards.find((card) => card.id === password)).map((entry) => entry.card.name)).toEqual(['Sangan', 'Effect Veiler']);
  });
});
