import { ComponentType, InteractionResponseType, type APIStringSelectComponent } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage, FinalMessage, InteractionExchange } from '../fakes/discord.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { waitForLanguageDatabases } from '../helpers/language-databases.js';

const DARK_MAGICIAN = 46986414;
const BLUE_EYES = 89631139;

function selectOf(message: FakeMessage): APIStringSelectComponent {
  const row = message.components?.[0];
  const component = row?.type === ComponentType.ActionRow ? row.components[0] : undefined;
  expect(component?.type).toBe(ComponentType.StringSelect);
  return component as APIStringSelectComponent;
}

describe("/card in the user's language: names in French, German, Italian or Portuguese, from the local language databases, find their card through the fake Discord", () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;

  async function autocomplete(value: string, locale: string, language?: string) {
    const options: Record<string, string> = { name: value };
    if (language !== undefined) options.language = language;
    const exchange = await bot.discord.autocomplete({ name: 'card', subcommand: 'show', options, focused: 'name', locale });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    return callback.data?.choices ?? [];
  }

  async function final(exchange: InteractionExchange): Promise<FinalMessage> {
    await exchange.callback();
    return exchange.final();
  }

  beforeAll(async () => {
    const dump = loadCardDump();
    ygoprodeck = await startFakeYgoprodeck({ cards: dump });
    // Every card database from a snapshot: a first start's download of the real dump is first-start.process.test.ts's.
    bot = await startTestBot({
      cardSnapshot: { cards: dump, version: ygoprodeck.version },
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
    });
    expect(await bot.app.services.cards.whenReady(60_000)).toBe(true);
    // The names come from the local language databases.
    await waitForLanguageDatabases(bot.app.services.cards);
  }, 150_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('autocompletes a French name (typo and all) for a French-locale user, showing it beside the English one, with no request upstream', async () => {
    const before = ygoprodeck.server.requests.length;
    for (const typed of ['magicien sombre', 'magicien sombr', 'magicen sombre', 'MAGICIEN SOMBRE']) {
      const [first] = await autocomplete(typed, 'fr');
      expect(first).toEqual({ name: 'Magicien Sombre (Dark Magician)', value: String(DARK_MAGICIAN) });
    }
    const [blueEyes] = await autocomplete('dragon blanc aux yeux', 'fr');
    expect(blueEyes).toEqual({ name: 'Dragon Blanc aux Yeux Bleus (Blue-Eyes White Dragon)', value: String(BLUE_EYES) });
    // English names still work for the same user, and are shown in French too.
    const [english] = await autocomplete('dark magican', 'fr');
    expect(english).toEqual({ name: 'Magicien Sombre (Dark Magician)', value: String(DARK_MAGICIAN) });
    expect(ygoprodeck.server.requests.length).toBe(before);
  });

  it('matches by the locale (pt-BR → Portuguese) or by the language option, and not in a language the user did not ask for', async () => {
    expect((await autocomplete('mago negro', 'pt-BR'))[0]).toEqual({ name: 'Mago Negro (Dark Magician)', value: String(DARK_MAGICIAN) });
    expect((await autocomplete('dunkler magier', 'fr', 'de'))[0]).toEqual({ name: 'Dunkler Magier (Dark Magician)', value: String(DARK_MAGICIAN) });
    // An English-locale user typing the German name gets no German-named card, and English labels.
    const choices = await autocomplete('dunkler magier', 'en-US');
    expect(choices.map((choice) => choice.name)).not.toContain('Dunkler Magier (Dark Magician)');
    expect(choices.every((choice) => !choice.name.includes('('))).toBe(true);
  });

  it('opens the card a French name clearly names, and offers a bilingual "Did you mean" menu when several fit', async () => {
    const shown = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'magicien sombre' }, locale: 'fr' }));
    expect(shown.ephemeral).toBe(false);
    // The footer is in the French user's words too.
    expect(shown.embeds[0]?.footer?.text).toContain(`${messagesFor('fr').card.passcode} ${DARK_MAGICIAN}`);

    const menu = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'magicien' }, locale: 'fr' }));
    expect(menu.ephemeral).toBe(true);
    const labels = selectOf(menu).options.map((option) => option.label);
    expect(labels).toEqual(expect.arrayContaining(['Magicien Sombre (Dark Magician)', 'Magicien du Temps (Time Wizard)']));
    expect(labels.every((label) => label.length <= 100)).toBe(true);
  });

  it('/card search finds cards by their French name for a French-locale user and labels them in both languages', async () => {
    const reply = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'yeux bleus' }, locale: 'fr' }));
    expect(selectOf(reply).options[0]).toMatchObject({ label: 'Dragon Blanc aux Yeux Bleus (Blue-Eyes White Dragon)', value: String(BLUE_EYES) });
    expect(reply.embeds[0]?.description).toContain('Dragon Blanc aux Yeux Bleus (Blue-Eyes White Dragon)');
  });

  it('/card search finds cards by what they do, with typed filters, over the whole database, and says what it did not understand', async () => {
    const before = ygoprodeck.server.requests.length;
    const dump = loadCardDump() as (ReturnType<typeof loadCardDump>[number] & { atk?: number | null })[];
    const expected = dump.filter((card) => card.race === 'Dragon' && card.type.includes('Monster') && (card.atk ?? -1) >= 2500 && /(^|[^a-z0-9])destroy all/.test(card.desc.toLowerCase()));
    const typed = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'atk>=2500 race:dragon "destroy all"' }, locale: 'en-US' }));
    expect(typed.ephemeral).toBe(true);
    expect(expected.length).toBeGreaterThan(3);
    const shownCount = Math.min(25, expected.length);
    const ids = new Set(expected.map((card) => String(card.id)));
    expect(selectOf(typed).options.every((option) => ids.has(option.value))).toBe(true);
    expect(selectOf(typed).options).toHaveLength(shownCount);
    expect(typed.embeds[0]?.footer?.text).toMatch(new RegExp(`${expected.length} match(es)? \\(Dragon, ATK ≥ 2500\\)$|best of ${expected.length} matches \\(Dragon, ATK ≥ 2500\\)$`));

    // A French user: the effect text in French, the Type picked from French suggestions.
    const races = await bot.discord.autocomplete({ name: 'card', subcommand: 'search', options: { race: 'serpent' }, focused: 'race', locale: 'fr' });
    expect((await races.callback()).data?.choices).toEqual([{ name: 'Serpent de Mer', value: 'Sea Serpent' }]);
    const french = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { text: 'détruisez', race: 'Dragon', atk: '>=2500' }, locale: 'fr' }));
    expect(french.embeds[0]?.footer?.text).toContain('(Dragon, ATK ≥ 2500, Texte : "détruisez")');
    expect(selectOf(french).options.length).toBeGreaterThan(3);

    const refused = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'atk>= race:dragon' }, locale: 'fr' }));
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toBe(messagesFor('fr').cardSearch.badStat('“atk>=”'));
    const nothing = await final(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { text: '"qqqq zzzz"' }, locale: 'en-US' }));
    expect(nothing.content).toContain(messagesFor('en-US').cardSearch.syntaxHelp);
    expect(ygoprodeck.server.requests.length).toBe(before);
  });
});
