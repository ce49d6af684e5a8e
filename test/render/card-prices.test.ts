import { describe, expect, it } from 'vitest';
import { normaliseCard } from '../../src/cards/normalise-card.js';
import type { Card } from '../../src/cards/card.js';
import { printingsByPrice } from '../../src/cards/printings.js';
import { UI_LOCALES } from '../../src/i18n/catalogue.js';
import { CATALOGUES } from '../../src/i18n/messages.js';
import { renderArtwork } from '../../src/render/card-art.js';
import { renderPrices, vendorPriceLines } from '../../src/render/card-prices.js';
import { loadCardDump } from '../helpers/card-dump.js';
import { payloadProblems } from '../helpers/payload-checks.js';

const BLUE_EYES = 89631139;
const raw = loadCardDump().find((card) => card.id === BLUE_EYES)!;
const blueEyes = (() => {
  const result = normaliseCard({ ...raw, card_prices: [{ cardmarket_price: '0.35', tcgplayer_price: '0.00', ebay_price: '1.99', amazon_price: '0', coolstuffinc_price: '0.49' }] });
  if (!result.ok) throw new Error(result.problem);
  return result.card;
})();
const DOWNLOADED = Date.parse('2025-04-25T08:09:03Z');

describe('/card price', () => {
  it('names each vendor with its currency, and "0.00" as no price', () => {
    expect(vendorPriceLines(blueEyes)).toBe('**TCGplayer** no price\n**Cardmarket** €0.35\n**eBay** $1.99\n**Amazon** no price\n**CoolStuffInc** $0.49');
    expect(vendorPriceLines(blueEyes, CATALOGUES.fr)).toMatch(/\*\*Cardmarket\*\* 0,35\s€/);
  });

  it('lists printings cheapest first, unknown prices last, and says when the prices are from', () => {
    const withUnknown: Card = { ...blueEyes, sets: [{ setName: 'Z', setCode: 'Z-1', rarity: 'Rare', rarityCode: 'R' }, ...blueEyes.sets] };
    const ordered = printingsByPrice(withUnknown);
    expect(ordered.at(-1)!.setName).toBe('Z');
    const prices = ordered.flatMap((printing) => (printing.price === undefined ? [] : [printing.price]));
    expect(prices).toEqual([...prices].sort((left, right) => left - right));
    const reply = renderPrices({ card: withUnknown, printings: ordered, page: 99, pricesAsOf: DOWNLOADED, messages: CATALOGUES.de });
    expect(reply.embeds![0]!.footer!.text).toBe('Seite 5 / 5 · Ausgaben 61–73 von 73 · günstigste zuerst · Ausgabenpreise in USD · Preise vom 25. April 2025');
  });

  it.each(UI_LOCALES)('keeps every Discord limit in %s, for prices and artworks, whatever upstream sends', (locale) => {
    const messages = CATALOGUES[locale];
    const huge: Card = {
      ...blueEyes,
      name: 'N'.repeat(300),
      sets: Array.from({ length: 40 }, (_, index) => ({ setName: 'S'.repeat(300), setCode: 'C'.repeat(40), rarity: 'R'.repeat(200), rarityCode: 'X'.repeat(50), price: index * 1_000_000 })),
    };
    expect(payloadProblems(renderPrices({ card: huge, printings: printingsByPrice(huge), page: 1, pricesAsOf: DOWNLOADED, messages }))).toEqual([]);
    expect(payloadProblems(renderPrices({ card: { ...huge, sets: [], prices: {} }, printings: [], page: 0, pricesAsOf: null, messages }))).toEqual([]);
    for (const index of [0, 7, 500]) {
      expect(payloadProblems(renderArtwork({ card: huge, index, image: { format: 'jpg', data: Buffer.from('x') }, messages }))).toEqual([]);
    }
    const unavailable = renderArtwork({ card: huge, index: 0, image: null, messages });
    expect(unavailable.embeds![0]!.description).toBe(messages.card.artUnavailable);
    const notAttachable = renderArtwork({ card: huge, index: 0, image: { format: 'jpg', data: Buffer.from('x') }, artNotAttachable: true, messages });
    expect([notAttachable.content, notAttachable.files]).toEqual([messages.install.artNotAttachable, undefined]);
  });
});
