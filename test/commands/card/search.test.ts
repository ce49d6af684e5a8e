import { describe, expect, it, vi } from 'vitest';
import { search } from '../../../commands/card/search.js';
import { de } from '../../../src/i18n/de.js';
import { en } from '../../../src/i18n/en.js';
import { UserError } from '../../../src/interaction/errors.js';
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
    expect(service.search).toHaveBeenCalledWith({ words: 'magicien', phrases: [], text: [] }, expect.objectContaining({ attribute: 'DARK' }), 25, 'fr');
    expect(reply.embeds?.[0]?.description).toContain('Magicien Sombre');
    expect(JSON.stringify(reply.components)).toContain('card:open');
  });

  it('says nothing matches, naming the query and whether filters narrowed it', async () => {
    const none = stubServices({ cards: cards([]) });
    await expect(search(chatContext('search', { query: 'zzz', level: 4 }).ctx, none)).rejects.toThrow(en.card.noSearchMatch('“zzz”', true));
    await expect(search(chatContext('search', { level: 4 }).ctx, none)).rejects.toThrow(en.card.noFilterMatch);
  });

  it('reads the typed filters of query and the options, an option winning over the same filter typed', async () => {
    const service = cards([DARK_MAGICIAN]);
    const options = { query: 'Dark atk>=2500 race:spellcaster "destroy all" def:2000', def: '?', text: 'banish "your opponent"', banned: 'limited', released: '<2010', link: '1-3', scale: '<=4' };
    const reply = await search(chatContext('search', options).ctx, stubServices({ cards: service }));
    expect(service.search).toHaveBeenCalledWith(
      { words: 'Dark', phrases: ['destroy all'], text: ['banish', 'your opponent'] },
      expect.objectContaining({
        race: 'Spellcaster',
        atk: { min: 2500, max: 99_999 },
        def: '?',
        banned: 'limited',
        released: { before: '2010-01-01' },
        link: { min: 1, max: 3 },
        scale: { min: 0, max: 4 },
      }),
      25,
      undefined,
    );
    expect(reply.embeds?.[0]?.footer?.text).toContain('Spellcaster, ATK ≥ 2500, DEF ?, Link 1–3, Scale ≤ 4, Limited, Released < 2010-01-01, Text: "banish" "your opponent"');
  });

  it('finds a race by its name in the user’s language, typed or picked', async () => {
    const service = cards([DARK_MAGICIAN]);
    await search(chatContext('search', { query: 'race:Hexer' }, { user: { locale: 'de' } }).ctx, stubServices({ cards: service }));
    await search(chatContext('search', { race: 'Seeschlange' }, { user: { locale: 'de' } }).ctx, stubServices({ cards: service }));
    expect(service.search).toHaveBeenNthCalledWith(1, expect.anything(), expect.objectContaining({ race: 'Spellcaster' }), 25, 'de');
    expect(service.search).toHaveBeenNthCalledWith(2, expect.anything(), expect.objectContaining({ race: 'Sea Serpent' }), 25, 'de');
  });

  it.each([
    [{ query: 'atk>=' }, en.cardSearch.badStat('“atk>=”')],
    [{ query: 'race:nonsense' }, en.cardSearch.unknownRace('“nonsense”')],
    [{ query: 'dark "destroy all' }, en.cardSearch.unbalancedQuote('"')],
    [{ text: '"destroy' }, en.cardSearch.unbalancedQuote('"')],
    [{ atk: 'lots' }, en.cardSearch.badStat('“lots”')],
    [{ def: '3000-1000' }, en.cardSearch.badStat('“3000-1000”')],
    [{ released: 'last year' }, en.cardSearch.badDate('“last year”')],
    [{ race: 'Dragonne' }, en.cardSearch.unknownRace('“Dragonne”')],
    [{ query: 'banned:often' }, en.cardSearch.unknownStatus('“often”')],
    [{ banned: 'limited', format: 'speedduel' }, en.cardSearch.noBanlist('Speed Duel')],
  ])('names what it did not understand in %o, before searching', async (options, sentence) => {
    const service = cards([DARK_MAGICIAN]);
    await expect(search(chatContext('search', options).ctx, stubServices({ cards: service }))).rejects.toThrow(sentence);
    expect(service.search).not.toHaveBeenCalled();
  });

  it('says what was not understood in the user’s language', async () => {
    const service = cards([DARK_MAGICIAN]);
    const error: unknown = await search(chatContext('search', { query: 'scale>' }, { user: { locale: 'de' } }).ctx, stubServices({ cards: service })).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).textIn(de)).toBe(de.cardSearch.badStat('“scale>”'));
  });

  it('shows the typed syntax when nothing matches', async () => {
    const none = stubServices({ cards: cards([]) });
    await expect(search(chatContext('search', { text: 'zzz' }).ctx, none)).rejects.toThrow(en.cardSearch.syntaxHelp);
    await expect(search(chatContext('search', { query: 'atk>=9000' }).ctx, none)).rejects.toThrow(en.cardSearch.syntaxHelp);
  });
});
