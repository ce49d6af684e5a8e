import { describe, expect, it } from 'vitest';
import type { APIStringSelectComponent } from 'discord.js';
import type { Card } from '../../src/cards/card.js';
import { parseOddsCustomId } from '../../src/decks/odds-custom-ids.js';
import type { OddsCard } from '../../src/decks/opening-odds.js';
import { en } from '../../src/i18n/en.js';
import { CATALOGUES } from '../../src/i18n/messages.js';
import { oddsButton, renderOdds } from '../../src/render/deck-odds.js';

const KEY = 'Ab3_-xyz09';
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;

function entry(index: number, count: number): OddsCard {
  return { card: { id: 1000 + index, name: `Card ${index}` } as Card, password: 1000 + index, count };
}
/** A 40-card deck: one card ×3 and 37 singles, 38 distinct cards (past 25: menus page). */
const WIDE: OddsCard[] = [entry(0, 3), ...Array.from({ length: 37 }, (_, index) => entry(index + 1, 1))];
/** 3 copies of a starter among 40 cards in 14 distinct names. */
const NARROW: OddsCard[] = [entry(0, 3), ...Array.from({ length: 12 }, (_, index) => entry(index + 1, 3)), { password: 12345678, count: 1 }];
const NONE = { key: KEY, startersPage: 0, neededPage: 0, starters: [], needed: [] };

function menus(payload: ReturnType<typeof renderOdds>): APIStringSelectComponent[] {
  return payload.components!.map((row) => row.components[0] as APIStringSelectComponent);
}

describe('Opening odds', () => {
  it('asks for starters first, with two menus of every card up to 25, an unknown card included', () => {
    const payload = renderOdds({ cards: NARROW, picks: NONE, localNames: new Map(), messages: en });
    expect(payload.embeds![0]!.description).toBe(en.deck.odds.pick);
    const [starters, needed] = menus(payload);
    expect(starters!.options).toHaveLength(14);
    expect(starters!.options.at(-1)!.label).toBe('unknown card 12345678 ×1');
    expect(starters!.placeholder).toBe('Starters');
    expect(needed!.placeholder).toBe('Needs one of these too');
    expect(starters!.min_values).toBe(0);
    expect(starters!.max_values).toBe(14);
  });

  it('gives the exact chance going first and second, and the starters expected: 3 in 40 is 33.76 % in 5 cards', () => {
    const payload = renderOdds({ cards: NARROW, picks: { ...NONE, starters: [0] }, localNames: new Map(), messages: en });
    const text = payload.embeds![0]!.description!;
    expect(text).toContain('**Starters (3 of 40 cards)**: Card 0 ×3');
    expect(text).toContain('Going first (5 cards): **33.76%** · 0.38 starters expected');
    expect(text).toContain('Going second (6 cards): **39.43%** · 0.45 starters expected');
    expect(menus(payload)[0]!.options[0]!.default).toBe(true);
    // And one of a second group: 3 and 3 in 40, 5 cards, 9.80 %.
    const both = renderOdds({ cards: NARROW, picks: { ...NONE, starters: [0], needed: [1] }, localNames: new Map(), messages: en }).embeds![0]!.description!;
    expect(both).toContain('**Needs one of these too (3 of 40 cards)**: Card 1 ×3');
    expect(both).toContain('**9.80%**');
  });

  it('pages a menu past 25 distinct cards: 24 cards and "More cards…", state in a custom_id within 100 characters', () => {
    const first = menus(renderOdds({ cards: WIDE, picks: NONE, localNames: new Map(), messages: en }))[0]!;
    expect(first.options).toHaveLength(25);
    expect(first.options.at(-1)).toEqual({ label: 'More cards…', value: 'more', description: 'Cards 25–38 of 38' });
    const second = menus(renderOdds({ cards: WIDE, picks: { ...NONE, startersPage: 1, starters: [30] }, localNames: new Map(), messages: en }))[0]!;
    expect(second.options.map((option) => option.value)).toEqual([...Array.from({ length: 14 }, (_, index) => String(24 + index)), 'more']);
    expect(second.options.find((option) => option.value === '30')!.default).toBe(true);
    expect(second.options.at(-1)!.description).toBe('Cards 1–24 of 38');
    expect(second.custom_id.length).toBeLessThanOrEqual(100);
    expect(parseOddsCustomId(second.custom_id)).toMatchObject({ action: 'pick', menu: 'starters', startersPage: 1, starters: [30] });
  });

  it('speaks every language, with no broken value', () => {
    for (const messages of Object.values(CATALOGUES)) {
      const payload = renderOdds({ cards: WIDE, picks: { ...NONE, starters: [0, 2], needed: [3] }, localNames: new Map([[1000, 'Carte 0']]), messages });
      expect(JSON.stringify(payload)).not.toMatch(BROKEN_VALUE);
      expect(payload.embeds![0]!.title).toBe(messages.deck.odds.title);
      expect(payload.embeds![0]!.description).toContain('Carte 0');
      expect(oddsButton(KEY, messages)).toMatchObject({ label: messages.deck.odds.button, custom_id: `deck:odds:${KEY}` });
    }
    expect(renderOdds({ cards: NARROW, picks: { ...NONE, starters: [0] }, localNames: new Map(), messages: CATALOGUES.fr }).embeds![0]!.description).toContain('33,76');
  });
});
