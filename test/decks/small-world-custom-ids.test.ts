import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MORE_VALUE } from '../../src/decks/card-menu-pages.js';
import {
  applySmallWorldChoice,
  parseSmallWorldCustomId,
  smallWorldButtonCustomId,
  smallWorldMenuCustomId,
  type SmallWorldChoices,
} from '../../src/decks/small-world-custom-ids.js';

const KEY = 'Ab3_-xyz09';
const choice = fc.option(fc.nat(59), { nil: null });
const choicesArb = fc.record({
  key: fc.stringMatching(/^[A-Za-z0-9_-]{10}$/),
  handPage: fc.integer({ min: 0, max: 2 }),
  targetPage: fc.integer({ min: 0, max: 2 }),
  hand: choice,
  target: choice,
});

describe('Small World custom_ids', () => {
  it('read back what they were made from, within 100 characters', () => {
    fc.assert(
      fc.property(choicesArb, fc.constantFrom('hand' as const, 'target' as const), (choices, menu) => {
        const customId = smallWorldMenuCustomId(menu, choices);
        expect(customId.length).toBeLessThanOrEqual(100);
        expect(parseSmallWorldCustomId(customId)).toEqual({ action: 'pick', menu, ...choices });
      }),
    );
    expect(parseSmallWorldCustomId(smallWorldButtonCustomId(KEY))).toEqual({ action: 'open', key: KEY });
  });

  it('read anything else as null, never throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const parsed = parseSmallWorldCustomId(text);
        if (parsed !== null) expect(text.startsWith('deck:s')).toBe(true);
      }),
    );
    for (const forged of [`deck:sh:${KEY}:0:0:60:-`, `deck:sh:${KEY}:3:0:-:-`, `deck:st:${KEY}:0:0:01:-`, `deck:sh:${KEY}:0:0:-`, `deck:sx:${KEY}:0:0:-:-`, `deck:sw:short`, `deck:sh:${KEY}:0:0:1e1:-`]) {
      expect(parseSmallWorldCustomId(forged)).toBeNull();
    }
  });
});

describe('a Small World menu pick', () => {
  const start: SmallWorldChoices = { key: KEY, handPage: 0, targetPage: 0, hand: null, target: null };

  it('takes a monster of the page shown, and ignores one of another page or a forged value', () => {
    expect(applySmallWorldChoice({ menu: 'hand', ...start }, ['3'], 40)).toMatchObject({ hand: 3, target: null });
    expect(applySmallWorldChoice({ menu: 'target', ...start, hand: 3 }, ['30'], 40)).toMatchObject({ hand: 3, target: null });
    expect(applySmallWorldChoice({ menu: 'target', ...start, hand: 3, targetPage: 1 }, ['30'], 40)).toMatchObject({ hand: 3, target: 30 });
    expect(applySmallWorldChoice({ menu: 'hand', ...start }, ['x', '-1', '999'], 40)).toMatchObject({ hand: null });
  });

  it('turns to the next page on "more", round to the first, and drops a choice past a smaller deck', () => {
    expect(applySmallWorldChoice({ menu: 'hand', ...start }, [MORE_VALUE], 60)).toMatchObject({ handPage: 1 });
    expect(applySmallWorldChoice({ menu: 'hand', ...start, handPage: 2 }, [MORE_VALUE], 60)).toMatchObject({ handPage: 0 });
    expect(applySmallWorldChoice({ menu: 'target', ...start, hand: 45, target: 2 }, [], 10)).toMatchObject({ hand: null, target: 2 });
  });
});
