import { describe, expect, it, vi } from 'vitest';
import { openPicked } from '../../../commands/card/pick.js';
import { en } from '../../../src/i18n/en.js';
import { componentContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);

function cards() {
  return {
    byId: (id: number) => (id === DARK_MAGICIAN.id ? DARK_MAGICIAN : undefined),
    present: vi.fn(async (card: unknown) => ({ card, art: null })),
    genesysPoints: () => undefined,
    artwork: vi.fn(async () => null),
    pricesAsOf: null,
  };
}

describe('a card picked from a menu', () => {
  it('opens it as /card show would, in the language the menu was made in whoever picks', async () => {
    const service = cards();
    const reply = await openPicked(componentContext('card:open:fr', { values: ['46986414'] }), stubServices({ cards: service }), { action: 'open', language: 'fr' });
    expect(service.present).toHaveBeenCalledWith(DARK_MAGICIAN, 'fr', expect.anything());
    expect(reply.embeds?.[0]?.title).toContain('Dark Magician');
  });

  it('opens the prices or the artworks for a menu of those', async () => {
    const service = cards();
    const prices = await openPicked(componentContext('card:open:price', { values: ['46986414'] }), stubServices({ cards: service }), { action: 'open', view: 'price' });
    expect(prices.embeds?.[0]?.footer?.text).toMatch(/cheapest first/);
    await openPicked(componentContext('card:open:art', { values: ['46986414'] }), stubServices({ cards: service }), { action: 'open', view: 'art' });
    expect(service.artwork).toHaveBeenCalledWith(DARK_MAGICIAN, 0, {});
    expect(service.present).not.toHaveBeenCalled();
  });

  it('refuses a menu it never made or a value that is no passcode, and a card no longer there', async () => {
    const app = stubServices({ cards: cards() });
    await expect(openPicked(componentContext('card:zz', { values: ['46986414'] }), app, null)).rejects.toThrow(en.card.menuExpired);
    await expect(openPicked(componentContext('card:open', { values: ['abc'] }), app, { action: 'open' })).rejects.toThrow(en.card.menuExpired);
    await expect(openPicked(componentContext('card:open', { values: ['12345'] }), app, { action: 'open' })).rejects.toThrow(en.card.cardGone);
  });
});
