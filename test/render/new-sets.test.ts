import { describe, expect, it } from 'vitest';
import type { CardSet } from '../../src/cards/card-set.js';
import { cardSetKey } from '../../src/cards/card-set.js';
import { en } from '../../src/i18n/en.js';
import { MAX_SETS_SHOWN, renderNewSets } from '../../src/render/new-sets.js';

const set = (name: string, extra: Partial<CardSet> = {}): CardSet => ({ key: cardSetKey(name), name, code: 'TST', ...extra });

describe('renderNewSets', () => {
  it('shows ten sets with their images, names the rest inertly, and keeps every Discord limit', () => {
    const sets = Array.from({ length: 12 }, (_, index) => ({
      set: set(index === 11 ? '@everyone *Bold* Pack' : `Pack ${index}`, { imageStem: `P${index}`, tcgDate: '2026-11-20', cardCount: 60 }),
      image: index === 3 ? null : { format: 'png' as const, data: Buffer.from([index]) },
    }));
    const post = renderNewSets(sets, en);
    expect(post.embeds).toHaveLength(MAX_SETS_SHOWN);
    expect(post.files!.map((file) => file.name)).toEqual(['set-P0.png', 'set-P1.png', 'set-P2.png', 'set-P4.png', 'set-P5.png', 'set-P6.png', 'set-P7.png', 'set-P8.png', 'set-P9.png']);
    expect(post.embeds![3]!.image).toBeUndefined();
    expect(post.embeds![0]!.fields).toEqual([
      { name: 'Set code', value: '`TST`', inline: true },
      { name: 'TCG release', value: `<t:${Date.UTC(2026, 10, 20, 12) / 1000}:D>`, inline: true },
      { name: 'Cards', value: '60', inline: true },
    ]);
    expect(post.content).toBe('**12 new card sets**\n…and 2 more: Pack 10, @\u200beveryone \\*Bold\\* Pack');
  });

  it('says a set has no TCG date yet and leaves out a card count upstream did not give', () => {
    const post = renderNewSets([{ set: set('Undated'), image: null }], en);
    expect(post.content).toBe('**A new card set**');
    expect(post.embeds![0]!.fields).toEqual([
      { name: 'Set code', value: '`TST`', inline: true },
      { name: 'TCG release', value: 'No TCG release date yet', inline: true },
    ]);
    expect(post.files).toBeUndefined();
  });
});
