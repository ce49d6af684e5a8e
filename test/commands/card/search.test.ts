import { describe, expect, it, vi } from 'vitest';
import { search } from '../../../commands/card/search.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);

function cards(found: ReturnType<typeof dumpCard>[], total = found.length) {
  return {
    ready: true,
    knowsFormats: true,
    waitForDatabase: async () => true,
    archetype: () => undefined,
    search: vi.fn(() => ({ cards: found, total })),
    localNames: () => new Map([[DARK_MAGICIAN.id, 'Magicien Sombre']]),
  };
}

describe('/card search', () => {
  it('asks for words or a filter rather than list everything', async () => {
    const service = cards([]);
    await expect(search(chatContext('search', {}).ctx, stubServices({ cards: service }))).rejects.toThrow(en.card.giveQueryOrFilter);
    expect(service.search).not.toHaveBeenCalled();
  });

  it('searches in the user’s language too, at most 25, and lists the matches with their local names and a menu', async () => {
    const service = cards([DARK_MAGICIAN], 40);
    const reply = await search(chatContext('search', { query: ' magicien ', attribute: 'DARK' }, { user: { locale: 'fr' } }).ctx, stubServices({ cards: service }));
    expect(service.search).toHaveBeenCalledWith('magicien', expect.objectContaining({ attribute: 'DARK' }), 25, 'fr');
    expect(reply.embeds?.[0]?.description).toContain('Magicien Sombre');
    expect(JSON.stringify(reply.components)).toContain('card:open');
  });

  it('says nothing matches, naming the query and whether filters narrowed it', async () => {
    const none = stubServices({ cards: cards([]) });
    await expect(search(chatContext('search', { query: 'zzz', level: 4 }).ctx, none)).rejects.toThrow(en.card.noSearchMatch('“zzz”', true));
    await expect(search(chatContext('search', { level: 4 }).ctx, none)).rejects.toThrow(en.card.noFilterMatch);
  });
});
