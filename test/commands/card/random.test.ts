import { describe, expect, it, vi } from 'vitest';
import { random } from '../../../commands/card/random.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);

function cards(picked: unknown) {
  return {
    ready: true,
    knowsFormats: true,
    waitForDatabase: async () => true,
    archetype: (name: string) => (name === 'dark magician' ? 'Dark Magician' : undefined),
    random: vi.fn(async () => picked),
    present: vi.fn(async (card: unknown) => ({ card, art: null })),
    genesysPoints: () => undefined,
  };
}

describe('/card random', () => {
  it('picks in the channel, with the filters as the database names them, and shows the card in English', async () => {
    const service = cards(DARK_MAGICIAN);
    const reply = await random(chatContext('random', { archetype: 'dark magician', level: 7 }, { user: { locale: 'fr' } }).ctx, stubServices({ cards: service }));
    expect(service.random).toHaveBeenCalledWith('c1', expect.objectContaining({ archetype: 'Dark Magician', level: 7 }));
    expect(service.present).toHaveBeenCalledWith(DARK_MAGICIAN, undefined, expect.anything());
    expect(reply.embeds?.[0]?.title).toContain('Dark Magician');
  });

  it('says no card matches when the filters keep none', async () => {
    await expect(random(chatContext('random', { level: 13 }).ctx, stubServices({ cards: cards(undefined) }))).rejects.toThrow(en.card.noFilterMatch);
  });
});
