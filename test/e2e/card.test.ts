import { ComponentType, InteractionResponseType, type APIEmbed, type APIStringSelectComponent } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage, InteractionExchange } from '../fakes/discord.js';
import { translatedCard, type FakeLanguage } from '../fakes/card-translations.js';
import { loadCardDump, QUIRK_CARD_IDS, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';
import { controlsAsked, controlsSent, TYPED_CONTROLS } from '../helpers/hostile-input.js';
import { waitForEveryCardDatabase } from '../helpers/language-databases.js';
import type { UploadedFile } from '../helpers/http-body.js';
import { embedCharacterCount } from '../../src/render/format.js';

const DARK_MAGICIAN = 46986414;
/** The longest card text of the 2025-04-25 dump (a Pendulum monster with two long boxes). */
const LONGEST_TEXT = 3611830; // Endymion, the Mighty Master of Magic
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;

interface ShownMessage {
  message: FakeMessage;
  files: UploadedFile[];
  ephemeral: boolean;
}

function embedOf(shown: ShownMessage): APIEmbed {
  expect(shown.message.embeds).toHaveLength(1);
  return shown.message.embeds[0]!;
}

function selectOf(message: FakeMessage): APIStringSelectComponent {
  const row = message.components?.[0];
  expect(row?.type).toBe(ComponentType.ActionRow);
  const component = row?.type === ComponentType.ActionRow ? row.components[0] : undefined;
  expect(component?.type).toBe(ComponentType.StringSelect);
  return component as APIStringSelectComponent;
}


describe('/card end to end: the real client against the fake Discord and the fake YGOPRODeck (whole database)', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;

  /** The message a command or a menu pick ended with: the reply itself, or the follow-up after a deferred update. */
  async function shown(exchange: InteractionExchange): Promise<ShownMessage> {
    const callback = await exchange.callback();
    if (callback.type === InteractionResponseType.DeferredMessageUpdate) {
      const followUp = await exchange.waitForFollowUp();
      return { message: followUp.message, files: followUp.files, ephemeral: ((followUp.message.flags ?? 0) & 64) !== 0 };
    }
    const final = await exchange.final();
    return { message: final, files: final.files, ephemeral: final.ephemeral };
  }

  async function showCard(name: string, origin: { locale?: string; language?: string } = {}): Promise<ShownMessage> {
    const options: Record<string, string> = { name };
    if (origin.language !== undefined) options.language = origin.language;
    return shown(await bot.discord.chatInput({ name: 'card', subcommand: 'show', options, ...(origin.locale ? { locale: origin.locale } : {}) }));
  }

  async function autocomplete(value: string, focused = 'name', subcommand = 'show') {
    const exchange = await bot.discord.autocomplete({ name: 'card', subcommand, options: { [focused]: value }, focused });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    return callback.data?.choices ?? [];
  }

  function cardinfoRequests(): number {
    return ygoprodeck.requestsTo('/api/v7/cardinfo.php').length;
  }

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck({ cards: loadCardDump() });
    // One member shows far more new cards than a member's share of art downloads: lifted here (see fair-share.test.ts).
    // Every card database from a snapshot: a first start's download of the real dump is first-start.process.test.ts's,
    // the language downloads card-database.test.ts's.
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      overrides: { memberShares: { ygoprodeck: { limit: 10_000 } } },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    await waitForEveryCardDatabase(bot.app.services.cards);
    expect(cardinfoRequests()).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('autocompletes typos with the right card first, using the passcode as value, without touching YGOPRODeck', async () => {
    const before = ygoprodeck.server.requests.length;
    const cases: [string, string][] = [
      ['dark magican', 'Dark Magician'],
      ['blue eyes white dragn', 'Blue-Eyes White Dragon'],
      ['ash blosom', 'Ash Blossom & Joyous Spring'],
      ['mst', 'Mystical Space Typhoon'],
      ['abyss actor comic', 'Abyss Actor - Comic Relief'],
    ];
    for (const [typed, expected] of cases) {
      const choices = await autocomplete(typed);
      expect(choices.length).toBeGreaterThan(0);
      expect(choices.length).toBeLessThanOrEqual(25);
      expect(choices[0]!.name).toBe(expected);
      expect(choices[0]!.value).toMatch(/^\d+$/);
      for (const choice of choices) {
        expect(choice.name.length).toBeLessThanOrEqual(100);
        expect(String(choice.value).length).toBeLessThanOrEqual(100);
      }
    }
    expect(ygoprodeck.server.requests.length).toBe(before);
  });

  it('/card random and /card search take filters, answered locally: Rank 4 Xyz, filters without a query, none matching said plainly', async () => {
    const before = cardinfoRequests();
    const rankFour = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'random', options: { type: 'xyz', level: 4, attribute: 'LIGHT' } }));
    expect(embedOf(rankFour).description).toMatch(/^\*\*[^*]*Xyz[^*]*\*\*\nLIGHT · Rank 4 · /);
    const none = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'random', options: { type: 'skill', format: 'masterduel' } }));
    expect([none.ephemeral, none.message.content]).toEqual([true, 'No card matches these filters.']);
    const list = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { format: 'masterduel', archetype: 'dark magician' } }));
    expect(embedOf(list).title).toBe('Cards matching the filters');
    expect(embedOf(list).footer?.text).toMatch(/\(Archetype: Dark Magician, Master Duel\)$/);
    const empty = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: {} }));
    expect(empty.message.content).toBe('Give some words of a card name, or at least one filter.');
    expect(cardinfoRequests()).toBe(before);
  });

  it('opens the autocompleted passcode exactly, with its art attached and never linked', async () => {
    const [choice] = await autocomplete('dark magican');
    const card = await showCard(String(choice!.value));
    expect(card.ephemeral).toBe(false);
    const embed = embedOf(card);
    expect(embed.title).toBe('Dark Magician');
    expect(embed.url).toMatch(/^https:\/\/ygoprodeck\.com\/card\//);
    expect(embed.image?.url).toBe(`attachment://card-${DARK_MAGICIAN}.jpg`);
    expect(card.files.map((file) => file.name)).toEqual([`card-${DARK_MAGICIAN}.jpg`]);
    expect(card.files[0]!.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(card.message.attachments?.map((attachment) => attachment.filename)).toEqual([`card-${DARK_MAGICIAN}.jpg`]);
  });

  it.each([
    ['a Link monster', QUIRK_CARD_IDS.linkNullDefLevel, /Link 4 ← → ↙ ↘ · ATK 2800$/m],
    ['a Pendulum monster', QUIRK_CARD_IDS.pendulum, /Scale 8[\s\S]*\*\*Pendulum Effect\*\*[\s\S]*\*\*Monster Effect\*\*/],
    ['a "?" ATK monster', QUIRK_CARD_IDS.questionAtk, /ATK \? \/ DEF 3000/],
    ['a spell', QUIRK_CARD_IDS.continuousSpell, /^\*\*Continuous Spell\*\*\n\n/],
    ['a trap', QUIRK_CARD_IDS.trapEmptyRace, /^\*\*Trap\*\*\n\n/],
    ['a token', QUIRK_CARD_IDS.token, /^\*\*Machine \/ Token\*\*\n\n/],
    ['a skill card', QUIRK_CARD_IDS.skill, /^\*\*Skill \/ Dr\. Vellian C\*\*\n\n/],
  ])('renders %s without null, undefined or NaN, with its art attached', async (_label, id, expected) => {
    const card = await showCard(String(id));
    const embed = embedOf(card);
    expect(embed.description).toMatch(expected);
    expect(JSON.stringify(card.message.embeds)).not.toMatch(BROKEN_VALUE);
    expect(embed.footer?.text).toBe(`Passcode ${String(id).padStart(8, '0')}`);
    expect(embed.image?.url).toBe(`attachment://card-${id}.jpg`);
    expect(card.files.map((file) => file.name)).toEqual([`card-${id}.jpg`]);
  });

  it('keeps the card with the longest text within 6,000 characters', async () => {
    const embed = embedOf(await showCard(String(LONGEST_TEXT)));
    expect(embed.description).toContain('**Pendulum Effect**');
    expect(embedCharacterCount(embed)).toBeLessThanOrEqual(6_000);
    expect(embed.description!.length).toBeLessThanOrEqual(4_096);
  });

  it('opens a typed name that is not a passcode when it is exact or clearly the best match', async () => {
    expect(embedOf(await showCard('dark magician')).title).toBe('Dark Magician');
    expect(embedOf(await showCard('ash blosom')).title).toBe('Ash Blossom & Joyous Spring');
    // "Dark Magician Girl" and "Toon Dark Magician" are close behind: the user picks, best first.
    const closeCall = await showCard('Dark Magican');
    expect(closeCall.ephemeral).toBe(true);
    expect(selectOf(closeCall.message).options[0]).toMatchObject({ label: 'Dark Magician', value: String(DARK_MAGICIAN) });
  });

  it('answers a name that matches nothing with a clear ephemeral sentence', async () => {
    const reply = await showCard('qqqqzzzzxxxxwwww');
    expect(reply.ephemeral).toBe(true);
    expect(reply.message.content).toBe('No card matches “qqqqzzzzxxxxwwww”. Check the spelling, or try `/card search`.');
    expect(reply.message.embeds).toHaveLength(0);
  });

  it('quotes a name holding NUL and bidi controls without them, and sends them in no reply and to no upstream', async () => {
    const before = ygoprodeck.server.requests.length;
    const noMatch = await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: `qqqq${TYPED_CONTROLS}zzzzxxxxwwww` } });
    expect((await shown(noMatch)).message.content).toBe('No card matches “qqqq\uFFFD\uFFFDzzzzxxxxwwww”. Check the spelling, or try `/card search`.');
    const closeCall = await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: `abyss${TYPED_CONTROLS} actor` } });
    await shown(closeCall);
    const exact = await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'Dark Magician\u202e' } });
    expect(embedOf(await shown(exact)).title).toBe('Dark Magician');
    for (const exchange of [noMatch, closeCall, exact]) expect(await controlsSent(exchange)).toEqual([]);
    expect(controlsAsked(ygoprodeck.server.requests.slice(before))).toEqual([]);
  });

  it('offers an ephemeral "Did you mean" menu for an ambiguous name, and the pick opens that card publicly', async () => {
    const menuMessage = await showCard('abyss actor');
    expect(menuMessage.ephemeral).toBe(true);
    expect(menuMessage.message.content).toBe('No card is named exactly “abyss actor”. Did you mean one of these?');
    const menu = selectOf(menuMessage.message);
    expect(menu.custom_id).toBe('card:open');
    expect(menu.options.length).toBeGreaterThan(1);
    expect(menu.options.length).toBeLessThanOrEqual(25);
    const option = menu.options.find((candidate) => candidate.label === 'Abyss Actor - Comic Relief')!;
    expect(option.value).toBe(String(QUIRK_CARD_IDS.pendulum));

    const pick = await bot.discord.select({ customId: menu.custom_id, values: [option.value], message: menuMessage.message });
    const card = await shown(pick);
    expect(card.ephemeral).toBe(false);
    expect(embedOf(card).title).toBe('Abyss Actor - Comic Relief');
    expect(card.files.map((file) => file.name)).toEqual([`card-${QUIRK_CARD_IDS.pendulum}.jpg`]);
  });

  it('shows the French text for a user whose Discord locale is fr, and the language option overrides the locale, with zero cardinfo.php requests', async () => {
    const before = cardinfoRequests();
    const inLanguage = (id: number, language: FakeLanguage) => translatedCard(loadCardDump().find((card) => card.id === id)!, language);
    const frenchDarkMagician = inLanguage(DARK_MAGICIAN, 'fr')!;
    const french = embedOf(await showCard(String(DARK_MAGICIAN), { locale: 'fr' }));
    expect(french.title).toBe(frenchDarkMagician.name);
    expect(french.title).not.toBe('Dark Magician');
    expect(french.description).toContain(frenchDarkMagician.desc.slice(0, 30));
    expect(french.footer?.text).toBe('Français · Nom anglais : Dark Magician · Code 46986414');

    expect(embedOf(await showCard(String(DARK_MAGICIAN), { locale: 'fr', language: 'de' })).title).toBe(inLanguage(DARK_MAGICIAN, 'de')!.name);
    expect(embedOf(await showCard(String(DARK_MAGICIAN), { locale: 'fr', language: 'en' })).title).toBe('Dark Magician');
    expect(embedOf(await showCard(String(DARK_MAGICIAN), { locale: 'pt-BR' })).title).toBe(inLanguage(DARK_MAGICIAN, 'pt')!.name);
    expect(embedOf(await showCard(String(DARK_MAGICIAN), { locale: 'it' })).title).toBe(inLanguage(DARK_MAGICIAN, 'it')!.name);
    // Every card command in every language, by passcode and by name.
    for (const locale of ['fr', 'de', 'it', 'pt-BR']) {
      await showCard('Blue-Eyes White Dragon', { locale });
      await showCard(String(QUIRK_CARD_IDS.pendulum), { locale });
      await autocomplete('dark magican');
    }
    expect(cardinfoRequests()).toBe(before);
  });

  it('shows a card that has no translation in English, with a note, asking YGOPRODeck nothing', async () => {
    const untranslated = loadCardDump().find((card) => translatedCard(card, 'de') === undefined && card.frameType === 'effect')!;
    const before = cardinfoRequests();
    const shownCard = embedOf(await showCard(String(untranslated.id), { locale: 'de' }));
    expect(shownCard.title).toBe(untranslated.name);
    expect(shownCard.footer?.text).toBe(`Kein Text auf Deutsch verfügbar; auf Englisch angezeigt · Kartennummer ${String(untranslated.id).padStart(8, '0')}`);
    expect(cardinfoRequests()).toBe(before);
  });

  it('shows the card without art, saying nothing broken, when the image cannot be had', async () => {
    ygoprodeck.server.mode = 'reset';
    try {
      // A card no earlier test has shown, so its art is not in the store yet.
      const card = await showCard(String(QUIRK_CARD_IDS.xyzRankZero));
      const embed = embedOf(card);
      expect(embed.title).toBe('Number F0: Utopic Future');
      expect(embed.image).toBeUndefined();
      expect(card.files).toHaveLength(0);
      expect(JSON.stringify(card.message)).not.toMatch(/error|unavailable|broken/i);
    } finally {
      ygoprodeck.server.mode = 'normal';
    }
  });

  it('shows /card random five times from the local database without any cardinfo.php request', async () => {
    const before = cardinfoRequests();
    const titles: string[] = [];
    for (let draw = 0; draw < 5; draw++) {
      const card = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'random' }));
      const embed = embedOf(card);
      expect(JSON.stringify(embed)).not.toMatch(BROKEN_VALUE);
      expect(card.files).toHaveLength(1);
      titles.push(embed.title!);
    }
    expect(new Set(titles).size).toBe(5);
    expect(cardinfoRequests()).toBe(before);
  });

  it('searches with filters into an ephemeral list whose menu opens any of the cards', async () => {
    const before = cardinfoRequests();
    const list = await shown(
      await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'dragon', type: 'synchro', attribute: 'DARK' } }),
    );
    expect(list.ephemeral).toBe(true);
    const embed = embedOf(list);
    expect(embed.title).toBe('Cards matching “dragon”');
    expect(embed.footer?.text).toMatch(/^25 best of \d+ matches \(Synchro Monster, DARK\)$/);
    const menu = selectOf(list.message);
    expect(menu.options).toHaveLength(25);
    expect(menu.options.every((option) => option.description?.includes('Synchro'))).toBe(true);

    const pick = await bot.discord.select({ customId: menu.custom_id, values: [menu.options[3]!.value], message: list.message });
    const card = await shown(pick);
    expect(embedOf(card).title).toBe(menu.options[3]!.label);
    expect(embedOf(card).description).toMatch(/^\*\*\w[^\n]*Synchro[^\n]*\*\*\nDARK · /);
    expect(cardinfoRequests()).toBe(before);
  });

  it('autocompletes archetypes locally and refuses one that does not exist', async () => {
    const choices = await autocomplete('blue-ey', 'archetype', 'search');
    expect(choices[0]).toEqual({ name: 'Blue-Eyes', value: 'Blue-Eyes' });
    const list = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'dragon', archetype: 'blue-eyes' } }));
    expect(embedOf(list).footer?.text).toMatch(/\(Archetype: Blue-Eyes\)$/);
    const refused = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'dragon', archetype: 'Nope Nope' } }));
    expect(refused.ephemeral).toBe(true);
    expect(refused.message.content).toBe('No archetype is named “Nope Nope”; pick one from the suggestions.');
  });

  it('never sends an images.ygoprodeck.com link or the token to Discord', () => {
    const sent = everythingSentToDiscord(bot.discord);
    expect(sent).toContain('attachment://card-');
    expect(sent).not.toContain('images.ygoprodeck.com');
    expect(sent).not.toContain(CANARY_TOKEN);
  });
});
