import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toYdke } from '../../src/decks/ydke.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/**
 * Deck pictures take turns: one composed at a time, a member's decks one after another. A deck that
 * has to wait says so in its first answer and is answered once its turn comes; a member past three
 * pictures on their way is refused privately. Here the first composition is held until released, so
 * every other deck of the test meets a busy composer.
 */
describe('/deck show: deck pictures take turns', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding: Promise<void> | undefined;
  let entered = () => {};
  const firstEntered = new Promise<void>((resolve) => (entered = resolve));

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    bot = await startTestBot({
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      overrides: {
        deckPictures: {
          around: async (compose) => {
            if (holding === undefined) {
              holding = held;
              entered();
              await held;
            }
            return compose();
          },
        },
      },
    });
    expect(await bot.app.services.cards.whenReady(30_000)).toBe(true);
  }, 60_000);

  afterAll(async () => {
    release();
    await bot?.stop();
    await ygoprodeck?.close();
  });

  // Passwords the database does not know: name tiles only, no art request.
  const deckOf = (seed: number) => toYdke({ main: [90_000_000 + seed, 90_000_100 + seed], extra: [], side: [] });

  it('tells a waiting deck how many are ahead, answers it in turn, and refuses a member past three pictures', async () => {
    const ann = { id: '100000000000000001' };
    const first = await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deckOf(1) }, user: ann });
    await firstEntered;

    const bob = await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deckOf(2) }, user: { id: '100000000000000002' }, locale: 'fr' });
    const note = await bob.waitForEdit((edit) => edit.message.content?.startsWith('⏳') === true);
    expect(note.message.content).toBe(fr.deck.pictureWaiting('1'));

    const annAgain = [3, 4].map((seed) => bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deckOf(seed) }, user: ann }));
    const waiting = await Promise.all(annAgain);
    await Promise.all(waiting.map((exchange) => exchange.waitForEdit((edit) => edit.message.content?.startsWith('⏳') === true)));
    const refused = await (await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deckOf(5) }, user: ann })).final();
    expect(refused).toMatchObject({ content: en.deck.pictureRefused.member, ephemeral: true });

    release();
    // The held deck never waited: released within the 250 ms before a deferral (about 200 ms here),
    // it is answered at once, else its "thinking…" is replaced. Each waiting deck's note is replaced.
    const firstAnswer = await first.final();
    expect(firstAnswer.files.map((file) => file.name)).toContain('deck.jpg');
    expect(firstAnswer.content).toMatch(/^ydke:\/\//);
    for (const exchange of [bob, ...waiting]) {
      const answer = await exchange.waitForEdit((edit) => edit.files.some((file) => file.name === 'deck.jpg'));
      expect(answer.message.content).toMatch(/^ydke:\/\//);
    }
  });
});
