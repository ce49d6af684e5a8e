import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPick,
  mainDeckText,
  MAX_ODDS_CARDS,
  oddsButtonCustomId,
  oddsMenuCustomId,
  parseMainDeckText,
  parseOddsCustomId,
  type OddsPicks,
} from '../../src/decks/odds-custom-ids.js';
import { menuPages, MORE_VALUE, pageCards } from '../../src/decks/card-menu-pages.js';

const KEY = 'Ab3_-xyz09';
const picksArb = fc.record({
  key: fc.stringMatching(/^[A-Za-z0-9_-]{10}$/),
  startersPage: fc.integer({ min: 0, max: 2 }),
  neededPage: fc.integer({ min: 0, max: 2 }),
  starters: fc.uniqueArray(fc.nat(MAX_ODDS_CARDS - 1)).map((indices) => indices.sort((a, b) => a - b)),
  needed: fc.uniqueArray(fc.nat(MAX_ODDS_CARDS - 1)).map((indices) => indices.sort((a, b) => a - b)),
});

describe('odds custom_ids', () => {
  it('round-trip every pick state within Discord’s 100 characters', () => {
    fc.assert(
      fc.property(picksArb, fc.constantFrom('starters' as const, 'needed' as const), (picks: OddsPicks, menu) => {
        const id = oddsMenuCustomId(menu, picks);
        expect(id.length).toBeLessThanOrEqual(100);
        expect(parseOddsCustomId(id)).toEqual({ action: 'pick', menu, ...picks });
      }),
    );
    expect(parseOddsCustomId(oddsButtonCustomId(KEY))).toEqual({ action: 'open', key: KEY });
  });

  it('reads any string without throwing, and refuses what it never made', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        expect(() => parseOddsCustomId(text)).not.toThrow();
        expect(() => parseOddsCustomId(`deck:os:${text}`)).not.toThrow();
      }),
    );
    for (const bad of ['deck:odds', 'deck:odds:short', 'deck:os:Ab3_-xyz09:0:0:1', 'deck:os:Ab3_-xyz09:9:0:1:0', 'deck:os:Ab3_-xyz09:0:0:01:0', 'deck:xx:Ab3_-xyz09:0:0:1:0', 'card:os:Ab3_-xyz09:0:0:1:0']) {
      expect(parseOddsCustomId(bad)).toBeNull();
    }
    // A mask naming a card past the 60th.
    expect(parseOddsCustomId(`deck:os:${KEY}:0:0:${(1n << 60n).toString(36)}:0`)).toBeNull();
  });

  it('pages menus past 25 cards: 24 a page and "more"; up to 25, one page', () => {
    expect(menuPages(25)).toBe(1);
    expect(pageCards(25, 0)).toHaveLength(25);
    expect(menuPages(60)).toBe(3);
    expect(pageCards(60, 2)).toEqual(Array.from({ length: 12 }, (_, index) => 48 + index));
  });

  it('a pick replaces the page’s marks, keeps the other pages’, ignores forged values, and "more" turns the page', () => {
    const action = { menu: 'starters' as const, key: KEY, startersPage: 1, neededPage: 0, starters: [0, 30], needed: [5] };
    expect(applyPick(action, ['25', '47', '2', 'x', '99'], 60)).toEqual({ key: KEY, startersPage: 1, neededPage: 0, starters: [0, 25, 47], needed: [5] });
    expect(applyPick(action, [MORE_VALUE], 60)).toMatchObject({ startersPage: 2, starters: [0] });
    expect(applyPick({ ...action, startersPage: 2 }, [MORE_VALUE], 60)).toMatchObject({ startersPage: 0 });
    expect(applyPick({ ...action, menu: 'needed' }, ['3'], 10)).toEqual({ key: KEY, startersPage: 1, neededPage: 0, starters: [0, 30], needed: [3] });
  });

  it('any submitted values give marks within the deck and a page that exists', () => {
    fc.assert(
      fc.property(picksArb, fc.integer({ min: 1, max: MAX_ODDS_CARDS }), fc.array(fc.oneof(fc.string(), fc.nat(70).map(String), fc.constant(MORE_VALUE))), (picks, cards, values) => {
        const next = applyPick({ menu: 'starters', ...picks }, values, cards);
        expect(next.starters.every((index) => index < MAX_ODDS_CARDS)).toBe(true);
        expect(next.startersPage).toBeLessThan(Math.max(menuPages(cards), picks.startersPage + 1));
        expect(() => oddsMenuCustomId('starters', next)).not.toThrow();
      }),
    );
  });

  it('keeps the Main Deck as text and reads it back, refusing anything else', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff_ffff }), { maxLength: 200 }), (main) => {
          expect(parseMainDeckText(mainDeckText(main))).toEqual(main);
        }),
      );
    for (const bad of ['1,,2', 'a', '01', '4294967296', ' 1']) expect(parseMainDeckText(bad)).toBeNull();
  });
});
