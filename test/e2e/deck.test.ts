import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_ANSWER_WITHIN_MS } from '../helpers/reliability.js';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { waitForEveryCardDatabase } from '../helpers/language-databases.js';
import type { Card } from '../../src/cards/card.js';
import type { APIAttachment } from 'discord.js';
import sharp from 'sharp';
import { deckLayout } from '../../src/decks/deck-layout.js';
import { toYdk } from '../../src/decks/ydk.js';
import { scaledLimiters } from '../helpers/reliability.js';
import { toYdke } from '../../src/decks/ydke.js';
import { de } from '../../src/i18n/de.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { embedCharacterCount } from '../../src/render/format.js';
import { BASTION_653 } from '../helpers/genesys-decks.js';

const POT_OF_GREED = 55144522;

/** A small card art that decodes (the fake's stub JPEG does not), as cards_small serves them. */
function smallArt(): Promise<Buffer> {
  return sharp({ create: { width: 168, height: 246, channels: 3, background: { r: 120, g: 60, b: 30 } } }).jpeg().toBuffer();
}
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;

describe('/deck show end to end: decks built from the real dump, through the fake Discord', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;
  let mainCards: Card[];
  let extraCards: Card[];

  async function showDeck(url: string, options: { locale?: string; public?: boolean; pointsCap?: number } = {}) {
    const exchange = await bot.discord.chatInput({
      name: 'deck',
      subcommand: 'show',
      options: { url, ...(options.public === undefined ? {} : { public: options.public }), ...(options.pointsCap === undefined ? {} : { 'points-cap': options.pointsCap }) },
      ...(options.locale ? { locale: options.locale } : {}),
    });
    // A deck of 200 new cards draws 200 pieces of art: on a busy machine that is more than the fake's default 10 s.
    return exchange.final(FINAL_ANSWER_WITHIN_MS);
  }

  beforeAll(async () => {
    const dump = loadCardDump();
    // Every card database from a snapshot (a first start's download of the real dump is first-start.process.test.ts's), with the
    // formats and ban lists a download stores. Decks of up to 200 new cards draw their art here: the limiter runs 20×
    // faster (the fake lets it), and the member's share covers whole decks (the background's pace is deck-picture's).
    ygoprodeck = await startFakeYgoprodeck({ cards: dump, rateLimit: { windowMs: 1_000, maxRequests: Number.MAX_SAFE_INTEGER } });
    ygoprodeck.decodableArt = await smallArt();
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: dump, version: ygoprodeck.version },
      overrides: { limiterFactory: scaledLimiters(20), memberShares: { ygoprodeck: { limit: 100_000 } } },
    });
    await waitForEveryCardDatabase(bot.app.services.cards);
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

  it('Genesys: Bastion #653’s deck totals 100 points, legal at the default cap, over a points-cap of 99, its pointed cards dearest first', async () => {
    const field = (embed: { fields?: { name: string; value: string }[] }, name: string) => embed.fields?.find((candidate) => candidate.name === name)?.value;
    const legal = (await showDeck(BASTION_653)).embeds[0]!;
    expect(field(legal, en.deck.legality)).toContain('✅ **Genesys**: legal · 100 / 100 points');
    expect(field(legal, 'Genesys points (100 / 100)')?.split('\n')).toEqual([
      '2× Pot of Greed: 60',
      '2× Mulcharmy Purulia: 20',
      '2× Mulcharmy Fuwalos: 14',
      '1× Ghost Ogre & Snow Rabbit: 5',
      '1× Hot Red Dragon Archfiend King Calamity: 1',
    ]);
    const over = (await showDeck(BASTION_653, { pointsCap: 99, locale: 'fr' })).embeds[0]!;
    expect(field(over, fr.deck.legality)).toContain('❌ **Genesys** · 100 / 99 points\n  • 100 points, au-delà du plafond de 99');
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
    expect(reply.files.map((file) => file.name).sort()).toEqual(['deck.jpg', 'deck.txt', 'deck.ydk']);
    const ydk = reply.files.find((file) => file.name === 'deck.ydk')!.data.toString();
    expect(ydk.split('\n').filter((line) => /^\d+$/.test(line))).toHaveLength(70);
    // The picture: 70 tiles in rows of 10 under three labels, within the bounds.
    expect(embed.image?.url).toBe('attachment://deck.jpg');
    expect(embed.footer).toBeUndefined();
    const picture = reply.files.find((file) => file.name === 'deck.jpg')!.data;
    expect(picture.length).toBeLessThanOrEqual(2_000_000);
    const layout = deckLayout({ main: 40, extra: 15, side: 15 });
    expect(await sharp(picture).metadata()).toMatchObject({ format: 'jpeg', width: layout.width, height: layout.height });
    // Everything else came from the local database; the art was asked once per distinct card.
    const asked = ygoprodeck.server.requests.slice(requestsBefore).map((request) => request.path);
    expect(asked.every((path) => path.startsWith('/images/cards_small/'))).toBe(true);
    expect(asked).toHaveLength(new Set([...main, ...extra, ...side]).size);
    expect(new Set(asked).size).toBe(asked.length);
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
    // Pot of Greed carries Genesys points: the pointed cards have their field.
    expect(french.embeds[0]!.fields!.map((field) => field.name)).toEqual([fr.deck.unknownCards, fr.deck.legality, expect.stringMatching(/^Points Genesys \(\d+ \/ 100\)$/), fr.deck.price]);
    // Every password counts: 40 known cards and 2 unknown are 42.
    expect(french.embeds[0]!.description).toMatch(/\*\*Main \(42, dont 2 inconnues : /);
  });

  it('a real-deck-like 40 cards with 14 passwords newer than the database reads Main 40, is not too small, and lists them', async () => {
    const newer = Array.from({ length: 14 }, (_, index) => 99_000_000 + index);
    const main = [...mainCards.slice(80, 106).map((card) => card.id), ...newer];
    const embed = (await showDeck(toYdke({ main, extra: [], side: [] }))).embeds[0]!;
    expect(embed.description).toMatch(/\*\*Main \(40, of which 14 unknown: \d+ monsters \/ \d+ spells \/ \d+ traps\)\*\*/);
    const legality = embed.fields!.find((field) => field.name === 'Legality')!.value;
    expect(legality).toContain('❔ **TCG**: unknown (14 unknown to the database)');
    expect(legality).not.toContain('(40–60 allowed)');
    expect(embed.fields!.find((field) => field.name === 'Unknown cards')!.value.split('\n')).toHaveLength(14);
    expect(JSON.stringify(embed)).not.toMatch(BROKEN_VALUE);

    const fortyOne = (await showDeck(toYdke({ main: [...mainCards.slice(80, 120).map((card) => card.id), 12345678], extra: [], side: [] }))).embeds[0]!;
    expect(fortyOne.description).toContain('**Main (41, of which 1 unknown: ');
  });

  it('Opening odds: the button under a shown deck gives its owner the menus privately, paged past 25 cards; a pick answers the exact odds', async () => {
    // 3 copies of one card and 37 singles: 38 distinct names.
    const main = [mainCards[0]!.id, mainCards[0]!.id, ...mainCards.slice(0, 38).map((card) => card.id)];
    const shown = await showDeck(toYdke({ main, extra: [], side: [] }));
    const button = (shown.components![0] as { components: unknown[] }).components[0] as { custom_id: string; label: string };
    expect(button.label).toBe('Opening odds');
    const stranger = await (await bot.discord.button({ customId: button.custom_id, message: shown, user: { id: '999', username: 'stranger' } })).final();
    expect(stranger).toMatchObject({ ephemeral: true, content: en.deck.odds.notYours });
    const menus = await (await bot.discord.button({ customId: button.custom_id, message: shown })).final();
    expect(menus.ephemeral).toBe(true);
    const starters = (menus.components![0] as { components: unknown[] }).components[0] as { custom_id: string; options: { value: string; label: string }[] };
    expect(starters.options).toHaveLength(25);
    expect(starters.options.at(-1)!.value).toBe('more');
    expect(starters.custom_id.length).toBeLessThanOrEqual(100);
    const picked = await (await bot.discord.select({ customId: starters.custom_id, values: ['0'], message: menus })).final();
    expect(picked.embeds[0]!.description).toContain('Going first (5 cards): **33.76%** · 0.38 starters expected');
    expect(picked.embeds[0]!.description).toContain('Going second (6 cards): **39.43%**');
    expect(JSON.stringify(picked.embeds)).not.toMatch(BROKEN_VALUE);
  });

  it('Small World: its owner picks a card in hand and a target, and gets the bridges of the Main Deck; others are refused', async () => {
    const id = (name: string) => loadCardDump().find((raw) => raw.name === name)!.id;
    const monsters = ['Ash Blossom & Joyous Spring', 'Effect Veiler', 'Droll & Lock Bird', 'Sangan', 'Dark Magician', 'Blue-Eyes White Dragon'];
    const main = [...monsters.flatMap((name) => [id(name), id(name), id(name)]), ...mainCards.filter((card) => card.kind !== 'monster').slice(0, 22).map((card) => card.id)];
    const shown = await showDeck(toYdke({ main, extra: [], side: [] }));
    const button = (shown.components![0] as { components: { custom_id: string; label: string }[] }).components[1]!;
    expect(button.label).toBe('Small World');
    const stranger = await (await bot.discord.button({ customId: button.custom_id, message: shown, user: { id: '999', username: 'stranger' } })).final();
    expect(stranger).toMatchObject({ ephemeral: true, content: en.deck.smallWorld.notYours });
    const menus = await (await bot.discord.button({ customId: button.custom_id, message: shown })).final();
    expect(menus.ephemeral).toBe(true);
    const menu = (row: number) => (menus.components![row] as { components: { custom_id: string; options: { value: string; label: string }[] }[] }).components[0]!;
    // Spells are no monsters: the menus list the six monsters, once each.
    expect(menu(0).options.map((option) => option.label)).toEqual(monsters);
    const hand = await (await bot.discord.select({ customId: menu(0).custom_id, values: ['0'], message: menus })).final();
    expect(hand.embeds[0]!.description).toBe(en.deck.smallWorld.pick);
    const handMenus = hand.components as { components: { custom_id: string }[] }[];
    const answer = await (await bot.discord.select({ customId: handMenus[1]!.components[0]!.custom_id, values: ['5'], message: hand })).final();
    expect(answer.embeds[0]!.description).toBe(
      ['**Ash Blossom & Joyous Spring** → **Blue-Eyes White Dragon**', '', '• **Effect Veiler**: ATK 0 with your hand, Attribute LIGHT with the target'].join('\n'),
    );
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

  it('reads a .ydk attachment from the CDN: comments, CRLF, a BOM and trailing spaces tolerated', async () => {
    const main = mainCards.slice(0, 40).map((card) => card.id);
    const extra = extraCards.slice(0, 2).map((card) => card.id);
    const text = `\uFEFF#created by a player\r\n#main\r\n${main.join(' \r\n')}\r\n\r\n#extra\r\n${extra.join('\r\n')}\r\n!side\r\n`;
    const file = bot.discord.attachment({ name: 'my deck.ydk', data: Buffer.from(text) });
    const exchange = await bot.discord.chatInput({ name: 'deck', subcommand: 'show', attachments: { file } });
    const reply = await exchange.final();
    expect(reply.ephemeral).toBe(false);
    expect(reply.content).toBe(toYdke({ main, extra, side: [] }));
    expect(reply.embeds[0]!.description).toMatch(/\*\*Main \(40: /);
    expect(bot.discord.cdnDownloads.filter((download) => download.path === new URL(file.url).pathname)).toHaveLength(1);
  });

  it('Read deck: the first ydke URL of a message, or its .ydk attachment; a message without either gets one sentence', async () => {
    const deck = { main: mainCards.slice(0, 40).map((card) => card.id), extra: [], side: [] };
    const fromUrl = await (await bot.discord.messageContext({ name: 'Read deck', targetContent: `my list: ${toYdke(deck)} what do you think?` })).final();
    expect(fromUrl.ephemeral).toBe(false);
    expect(fromUrl.content).toBe(toYdke(deck));
    expect(fromUrl.embeds[0]!.description).toMatch(/\*\*Main \(40: /);

    const notes = bot.discord.attachment({ name: 'notes.txt', data: Buffer.from('hello') });
    const file = bot.discord.attachment({ name: 'DECK.YDK', data: Buffer.from(toYdk(deck)) });
    const fromFile = await (await bot.discord.messageContext({ name: 'Read deck', targetContent: 'here', targetAttachments: [notes, file] })).final();
    expect(fromFile.content).toBe(toYdke(deck));
    expect(bot.discord.cdnDownloads.some((download) => download.path === new URL(notes.url).pathname)).toBe(false);

    const nothing = await (await bot.discord.messageContext({ name: 'Read deck', targetContent: 'no deck here', locale: 'de' })).final();
    expect(nothing.ephemeral).toBe(true);
    expect(nothing.content).toBe(de.deck.noDeckInMessage);
  });

  it('refuses a bad file with one ephemeral sentence: nothing read past the limit, nothing from another host, no upstream asked', async () => {
    const requestsBefore = ygoprodeck.server.requests.length;
    const downloadsBefore = bot.discord.cdnDownloads.length;
    const showFile = async (file: APIAttachment, options: Record<string, string> = {}) =>
      (await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options, attachments: { file } })).final();
    const huge = Buffer.alloc(32 * 1024 * 1024, '1\n');

    // Declared over 64 KiB: refused unread.
    const declaredLarge = bot.discord.attachment({ name: 'big.ydk', data: huge.subarray(0, 70 * 1024) });
    // Declared small, but the body goes on: reading stops at the limit.
    const lying = bot.discord.attachment({ name: 'liar.ydk', data: huge, declaredSize: 1_000 });
    // Not on the CDN at all, or redirected off it: never asked for there.
    const foreign = { ...bot.discord.attachment({ name: 'elsewhere.ydk', data: Buffer.from('#main\n') }), url: `${ygoprodeck.url}/deck.ydk` };
    const redirected = bot.discord.attachment({ name: 'moved.ydk', data: Buffer.alloc(0), redirectTo: `${ygoprodeck.url}/moved.ydk` });
    const binary = bot.discord.attachment({ name: 'image.ydk', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) });
    const cases: [APIAttachment, string][] = [
      [declaredLarge, en.deck.fileProblems.tooLarge],
      [lying, en.deck.fileProblems.tooLarge],
      [foreign, en.deck.fileProblems.notDiscord],
      [redirected, en.deck.fileProblems.notDiscord],
      [binary, en.deck.problems.binaryFile],
    ];
    for (const [file, sentence] of cases) {
      const reply = await showFile(file);
      expect(reply.ephemeral).toBe(true);
      expect(reply.content).toBe(sentence);
      expect(reply.embeds).toHaveLength(0);
    }
    const both = await showFile(binary, { url: 'ydke://!!!' });
    expect(both.content).toBe(en.deck.oneSource);
    const neither = await (await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: {} })).final();
    expect(neither.content).toBe(en.deck.oneSource);

    const downloads = bot.discord.cdnDownloads.slice(downloadsBefore);
    const pathOf = (file: APIAttachment) => new URL(file.url).pathname;
    expect(downloads.some((download) => download.path === pathOf(declaredLarge))).toBe(false);
    // The liar's body was cut off at the limit: of its 32 MiB, only that and what the sockets buffer went out.
    const liar = downloads.filter((download) => download.path === pathOf(lying));
    expect(liar).toHaveLength(1);
    expect(liar[0]!.bytesSent).toBeLessThan(huge.length / 2);
    expect(downloads.filter((download) => download.path === pathOf(redirected))).toHaveLength(1);
    expect(ygoprodeck.server.requests.length).toBe(requestsBefore);
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
