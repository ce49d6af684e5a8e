import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deckLayout } from '../../src/decks/deck-layout.js';
import { toYdke } from '../../src/decks/ydke.js';
import { en } from '../../src/i18n/en.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/**
 * A cold deck end to end: the member's share (here 3 downloads) covers part of its art now, the
 * picture shows names for the rest and says so, and the reply is edited with the complete picture
 * once the background has fetched the rest. Asked again, the deck is complete at once.
 */
describe('/deck show picture: a cold deck completed in the background', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    ygoprodeck.decodableArt = await sharp({ create: { width: 168, height: 246, channels: 3, background: { r: 40, g: 90, b: 160 } } }).jpeg().toBuffer();
    bot = await startTestBot({
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      overrides: { memberShares: { ygoprodeck: { limit: 3 } } },
    });
    expect(await bot.app.services.cards.whenReady(30_000)).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('answers at once with what the share covers, then edits in the complete picture; the same deck later is complete at once', async () => {
    const main = ygoprodeck.cards.slice(0, 8).map((card) => card.id);
    const url = toYdke({ main, extra: [], side: [] });
    const exchange = await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url } });
    const first = await exchange.final();
    expect(first.embeds[0]!.footer?.text).toBe(en.deck.artComing('5'));
    expect(first.attachments.map((attachment) => attachment.filename).sort()).toEqual(['deck.jpg', 'deck.txt', 'deck.ydk']);

    const completed = await exchange.waitForEdit((edit) => edit.message.embeds[0]?.footer === undefined && edit.files.some((file) => file.name === 'deck.jpg'));
    expect(completed.message.content).toBe(url);
    const picture = completed.files.find((file) => file.name === 'deck.jpg')!.data;
    const layout = deckLayout({ main: 8, extra: 0, side: 0 });
    expect(await sharp(picture).metadata()).toMatchObject({ format: 'jpeg', width: layout.width, height: layout.height });
    const art = ygoprodeck.server.requests.filter((request) => request.path.startsWith('/images/cards_small/'));
    expect(art).toHaveLength(8);

    const again = await (await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url } })).final();
    expect(again.embeds[0]!.footer).toBeUndefined();
    expect(ygoprodeck.server.requests.filter((request) => request.path.startsWith('/images/cards_small/'))).toHaveLength(8);
  });
});
