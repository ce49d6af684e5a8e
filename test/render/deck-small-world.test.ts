import type { APIStringSelectComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import type { SmallWorldMonster } from '../../src/decks/small-world.js';
import { parseSmallWorldCustomId } from '../../src/decks/small-world-custom-ids.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { renderSmallWorld, smallWorldButton } from '../../src/render/deck-small-world.js';

const KEY = 'Ab3_-xyz09';
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;
const NONE = { key: KEY, handPage: 0, targetPage: 0, hand: null, target: null };

function monster(id: number, race: string, attribute: string, level: number, atk: number, def: number): SmallWorldMonster {
  return { card: { id, name: `Monster ${id}` } as Card, race, attribute, level, atk, def };
}
// 0 → 2 through 1 only (1 shares Level with 0, Attribute with 2); 3 shares two with 0.
const FEW = [monster(0, 'Zombie', 'FIRE', 3, 0, 1800), monster(1, 'Fiend', 'DARK', 3, 1000, 600), monster(2, 'Spellcaster', 'DARK', 7, 2500, 2100), monster(3, 'Zombie', 'FIRE', 4, 100, 100)];
const MANY = Array.from({ length: 30 }, (_, index) => monster(100 + index, 'Warrior', 'EARTH', 4, index * 100, 0));

function menus(payload: ReturnType<typeof renderSmallWorld>): APIStringSelectComponent[] {
  return payload.components!.map((row) => row.components[0] as APIStringSelectComponent);
}

describe('Small World', () => {
  it('a button whose custom_id opens the menus', () => {
    expect(parseSmallWorldCustomId(smallWorldButton(KEY, en).custom_id)).toEqual({ action: 'open', key: KEY });
  });

  it('asks for the two picks, one monster each, paged past 25 monsters', () => {
    const payload = renderSmallWorld({ monsters: MANY, choices: NONE, localNames: new Map(), messages: en });
    expect(payload.embeds![0]!.description).toBe(en.deck.smallWorld.pick);
    const [hand, target] = menus(payload);
    expect([hand!.placeholder, target!.placeholder]).toEqual([en.deck.smallWorld.handMenu, en.deck.smallWorld.targetMenu]);
    expect(hand!.options).toHaveLength(25);
    expect(hand!.options.at(-1)).toMatchObject({ value: 'more', description: 'Cards 25–30 of 30' });
    expect([hand!.min_values, hand!.max_values]).toEqual([1, 1]);
  });

  it('names the bridges and what each shares, in the player’s language and names, the picks kept as defaults', () => {
    const payload = renderSmallWorld({ monsters: FEW, choices: { ...NONE, hand: 0, target: 2 }, localNames: new Map([[1, 'Sangan FR']]), messages: fr });
    expect(payload.embeds![0]!.description).toBe('**Monster 0** → **Monster 2**\n\n• **Sangan FR** : Niveau 3 avec votre main, Attribut TÉNÈBRES avec la cible');
    const [hand, target] = menus(payload);
    expect(hand!.options.find((option) => option.default === true)?.value).toBe('0');
    expect(target!.options.find((option) => option.default === true)?.value).toBe('2');
    expect(JSON.stringify(payload)).not.toMatch(BROKEN_VALUE);
  });

  it('says so when no monster bridges them', () => {
    const payload = renderSmallWorld({ monsters: FEW, choices: { ...NONE, hand: 3, target: 2 }, localNames: new Map(), messages: en });
    expect(payload.embeds![0]!.description).toBe(`**Monster 3** → **Monster 2**\n\n${en.deck.smallWorld.none}`);
  });
});
