import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { CARD_LANGUAGES, type Card } from '../../src/cards/card.js';
import { toYdke } from '../../src/decks/ydke.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { embedCharacterCount } from '../../src/render/format.js';

const POT_OF_GREED = 55144522;
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;

describe('/deck show end to end: decks built from the real dump, through the fake Discord', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;
  let mainCards: Card[];
  let extraCards: Card[];

  async function showDeck(url: string, options: { locale?: string; public?: boolean } = {}) {
    const exchange = await bot.discord.chatInput({
      name: 'deck',
      subcommand: 'show',
      options: { url, ...(options.public === undefined ? {} : { public: options.public }) },
      ...(options.locale ? { locale: options.locale } : {}),
    });
    return exchange.final();
  }

  beforeAll(async () => {
    const dump = loadCardDump();
    ygoprodeck = await startFakeYgoprodeck({ cards: dump });
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
    });
    expect(await bot.app.services.cards.whenReady(60_000)).toBe(true);
    // The four languages download after English, and each still rebuilds the card matcher on the
    // event loop (issue #26): wait for them, so that no command here waits behind a rebuild.
    const deadline = Date.now() + 90_000;
    while (!CARD_LANGUAGES.every((language) => bot.app.services.cards.languageReady(language))) {
      if (Date.now() > deadline) throw new Error('the language databases never loaded');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Unlimited cards released in TCG, by frame: main-deck frames and Extra Deck frames.
    const playable = (frames: string[]): Card[] =>
      dump
        .filter((raw) => frames.includes(raw.frameType))
        .flatMap((raw) => bot.app.services.cards.byId(raw.id) ?? [])
        .filter((card) => card.banlist.tcg === undefined && card.formats.includes('TCG') && card.treatedAs === undefined);
    mainCards = playable(['normal', 'effect', 'spell', 'trap']);
    extraCards = playable(['fusion', 'synchro', 'xyz', 'link']);
  }, 180_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('a legal 40 + 15 + 15 deck: sections with counts, ✅ TCG, prices per vendor, the deck attached as .ydk and deck.txt', async () => {
    const main = mainCards.slice(0, 14).flatMap((card, index) => (index < 12 ? [card.id, card.id, card.id] : [card.id, card.id]));
    const extra = extraCards.slice(0, 15).map((card) => card.id);
    const side = mainCards.slice(20, 35).map((card) => card.id);
    const requestsBefore = ygoprodeck.server.requests.length;
    const reply = await showDeck(toYdke({ main, extra, side }));
    expect(reply.ephemeral).toBe(false);
    expect(reply.content).toBe(toYdke({ main, extra, side }));
    const embed = reply.embeds[0]!;
    expect(embed.description).toMatch(/\*\*Main \(40: \d+ monsters \/ \d+ spells \/ \d+ traps\)\*\*/);
    expect(embed.description).toMatch(/\*\*Extra \(15: \d+ Fusion \/ \d+ Synchro \/ \d+ Xyz \/ \d+ Link\)\*\*/);
    expect(embed.description).toContain('**Side (15)**');
    expect(embed.description).toContain(`3× ${mainCards[0]!.name}`);
    const legality = embed.fields!.find((field) => field.name === 'Legality')!.value;
    expect(legality).toContain('✅ **TCG**: legal');
    const price = embed.fields!.find((field) => field.name === 'Price')!.value;
    expect(price).toMatch(/\*\*Cardmarket\*\* €[\d,.]+/);
    expect(price).toMatch(/\*\*TCGplayer\*\* \$[\d,.]+/);
    expect(price).toContain('prices as of');
    expect(JSON.stringify(reply.embeds)).not.toMatch(BROKEN_VALUE);
    expect(reply.files.map((file) => file.name).sort()).toEqual(['deck.txt', 'deck.ydk']);
    const ydk = reply.files.find((file) => file.name === 'deck.ydk')!.data.toString();
    expect(ydk.split('\n').filter((line) => /^\d+$/.test(line))).toHaveLength(70);
    // Everything came from the local database.
    expect(ygoprodeck.server.requests.length).toBe(requestsBefore);
  });

  it('names a forbidden card and a fourth copy (alternate art counted), and lists unknown passwords, in the player language', async () => {
    const alternate = mainCards.find((card) => card.imageIds.length > 1)!;
    const main = [...mainCards.slice(40, 75).map((card) => card.id), POT_OF_GREED, alternate.id, alternate.id, alternate.id, alternate.imageIds[1]!, 12345678, 12345678];
    const reply = await showDeck(toYdke({ main, extra: [], side: [] }));
    const embed = reply.embeds[0]!;
    const legality = embed.fields!.find((field) => field.name === 'Legality')!.value;
    expect(legality).toContain('❌ **TCG**');
    expect(legality).toContain('Pot of Greed: Forbidden in TCG');
    expect(legality).toContain(`${alternate.name}: 4 copies (at most 3)`);
    expect(embed.fields!.find((field) => field.name === 'Unknown cards')!.value).toBe('unknown card 12345678 ×2');
    expect(embed.description).toContain(`4× ${alternate.name}`);

    const french = await showDeck(toYdke({ main, extra: [], side: [] }), { locale: 'fr', public: false });
    expect(french.ephemeral).toBe(true);
    expect(french.embeds[0]!.fields!.map((field) => field.name)).toEqual([fr.deck.unknownCards, fr.deck.legality, fr.deck.price]);
    expect(french.embeds[0]!.description).toMatch(/\*\*Main \(40 : /);
  });

  it('a deck of 200 long names keeps every card in the embed: names shorten and the embed says the full list is attached', async () => {
    const longest = [...mainCards].sort((a, b) => b.name.length - a.name.length).slice(0, 200);
    const reply = await showDeck(toYdke({ main: longest.map((card) => card.id), extra: [], side: [] }));
    const embed = reply.embeds[0]!;
    expect(embedCharacterCount(embed)).toBeLessThanOrEqual(6000);
    expect(embed.description!.split('\n').filter((line) => line.startsWith('1× '))).toHaveLength(200);
    expect(embed.description).toContain(en.deck.shortened);
    expect(reply.files.find((file) => file.name === 'deck.txt')!.data.toString()).toContain(longest[0]!.name);
  });

  it('refuses every bad input with one ephemeral sentence, asking no upstream', async () => {
    const requestsBefore = ygoprodeck.server.requests.length;
    const cases: [string, string][] = [
      ['https://example.com/deck', en.deck.problems.notYdke],
      ['ydke://abc$!!!', en.deck.problems.badBase64],
      [`ydke://${Buffer.from([1, 2, 3, 4, 5]).toString('base64')}!!!`, en.deck.problems.badSectionLength],
      ['ydke://AAAAAA==!!!AAAAAA==!', en.deck.problems.tooManySections],
      [toYdke({ main: Array.from({ length: 201 }, () => POT_OF_GREED), extra: [], side: [] }), en.deck.problems.tooManyCards],
      ['ydke://!!!', en.deck.problems.emptyDeck],
    ];
    for (const [url, sentence] of cases) {
      const reply = await showDeck(url);
      expect(reply.ephemeral).toBe(true);
      expect(reply.content).toBe(sentence);
      expect(reply.embeds).toHaveLength(0);
    }
    expect(ygoprodeck.server.requests.length).toBe(requestsBefore);
  });
});
