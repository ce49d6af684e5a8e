import { describe, expect, it } from 'vitest';
import { DEFAULT_ALIASES } from '../../../src/cards/aliases.js';
import { CardMatcher, type MatchableCard } from '../../../src/cards/matcher.js';
import { buildMatcherTablesOffThread } from '../../../src/services/matcher-builds/off-thread.js';
import { translatedCard } from '../../fakes/card-translations.js';
import { loadCardDump } from '../../helpers/card-dump.js';

const dump = loadCardDump().slice(0, 2_000);
const cards: MatchableCard[] = dump.map(({ id, name }, at) => ({ id, name, popularity: at % 7 }));
const french = new Map(dump.flatMap((card) => {
  const translated = translatedCard(card as never, 'fr');
  return translated === undefined ? [] : [[card.id, translated.name] as const];
}));
const queries = ['dark magician', 'blue eyes', 'mistical space tyfoon', 'a', 'mst', '46986414', 'magicien'];

describe('matcher builds in a worker thread', () => {
  it('give a matcher answering exactly as one built on the event loop, in English and in French', async () => {
    const tables = await buildMatcherTablesOffThread(cards, DEFAULT_ALIASES, new Map([['fr', french]]));
    const offThread = new CardMatcher(cards, DEFAULT_ALIASES, { tables });
    const inline = new CardMatcher(cards, DEFAULT_ALIASES, { localizedNames: (language) => (language === 'fr' ? french : []) });
    expect(offThread.entryCount).toBe(inline.entryCount);
    for (const query of queries) {
      expect(offThread.search(query)).toEqual(inline.search(query));
      expect(offThread.search(query, 25, 'fr')).toEqual(inline.search(query, 25, 'fr'));
    }
  });

  it('stop the worker and reject when aborted', async () => {
    const controller = new AbortController();
    const build = buildMatcherTablesOffThread(cards, DEFAULT_ALIASES, new Map(), controller.signal);
    controller.abort(new Error('closing'));
    await expect(build).rejects.toThrow('closing');
  });

  it('refuse tables built over other cards', async () => {
    const tables = await buildMatcherTablesOffThread(cards.slice(0, 10), DEFAULT_ALIASES, new Map());
    expect(() => new CardMatcher(cards, DEFAULT_ALIASES, { tables })).toThrow(/"tables"/);
  });
});
