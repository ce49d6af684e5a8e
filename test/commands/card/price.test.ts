import { describe, expect, it, vi } from 'vitest';
import { price, turnPricePage } from '../../../commands/card/price.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext, componentContext, dumpCard, stubServices, updated } from '../../helpers/command-contexts.js';

const BLUE_EYES = dumpCard(89631139);

function cards() {
  return {
    ready: true,
    pricesAsOf: Date.parse('2025-04-25T08:09:03Z'),
    resolvePatiently: vi.fn(async () => ({ kind: 'card', card: BLUE_EYES })),
    byId: (id: number) => (id === BLUE_EYES.id ? BLUE_EYES : undefined),
  };
}

describe('/card price', () => {
  it('lists the card’s printings cheapest first, page 1, with the date of the prices, without any download', async () => {
    const app = stubServices({ cards: cards() });
    const reply = await price(chatContext('price', { name: 'blue-eyes' }).ctx, app);
    expect(reply.embeds?.[0]?.footer?.text).toMatch(/^Page 1 \/ \d+ .*cheapest first.*April 25, 2025/);
    expect(app.memberShares.spenderFor).toHaveBeenCalledTimes(1); // the name's lookup only
  });

  it('turns the page in place for whoever ran it, and in a private reply for anyone else', async () => {
    const app = stubServices({ cards: cards() });
    const own = updated(turnPricePage(componentContext('card:prices:89631139:1'), app, BLUE_EYES.id, 1));
    expect(own.embeds?.[0]?.footer?.text).toMatch(/^Page 2 \//);
    const other = turnPricePage(componentContext('card:prices:89631139:1', { ownerId: 'someone else' }), app, BLUE_EYES.id, 1);
    expect(other).toEqual({ reply: expect.objectContaining({ ephemeral: true }) });
  });

  it('says the card is gone when the database no longer has it', () => {
    expect(() => turnPricePage(componentContext('card:prices:1:0'), stubServices({ cards: cards() }), 1, 0)).toThrow(en.card.cardGone);
  });
});
