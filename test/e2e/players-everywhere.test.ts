import { ComponentType, PermissionFlagsBits, type APIEmbed } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeChannelName, FinalMessage, InteractionOrigin } from '../fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { LOB_SET, loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_WALLHAVEN_KEY, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';
import { waitForEveryCardDatabase } from '../helpers/language-databases.js';
import { translatedCard } from '../fakes/card-translations.js';

const DARK_MAGICIAN = '46986414';
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;

/** What a user of each language must see on Dark Magician (DARK Spellcaster, Level 7) and in refusals. */
const LANGUAGES = [
  {
    locale: 'fr',
    konamiButton: 'Base de données Konami',
    rulingsButton: 'Rulings OCG (en japonais)',
    printingsTitle: 'Éditions de Dark Magician',
    wallpaperField: 'Résolution',
    wallpaperButton: 'Ouvrir sur Wallhaven',
    cardLanguage: 'fr',
    header: '**Magicien / Normal**\nTÉNÈBRES · Niveau 7 · ATK 2500 / DEF 2100',
    fields: ['Archétype', 'Master Duel', 'Genesys', 'Prix', 'Éditions', 'Formats'],
    priceWord: ' sur ',
    footer: /^Français · Nom anglais : Dark Magician · Code 46986414$/,
    button: 'Éditions',
    giveName: 'Indiquez le nom d’une carte',
    notAddresses: 'Je recherche des adresses IP, des noms d’hôte et des URL.',
    network: 'Réseau',
    refused: 'ne sont affichés que dans les salons soumis à une limite d’âge',
  },
  {
    locale: 'de',
    konamiButton: 'Konami-Datenbank',
    rulingsButton: 'OCG-Rulings (auf Japanisch)',
    printingsTitle: 'Ausgaben von Dark Magician',
    wallpaperField: 'Auflösung',
    wallpaperButton: 'Auf Wallhaven öffnen',
    cardLanguage: 'de',
    header: '**Hexer / Normal**\nFINSTERNIS · Stufe 7 · ATK 2500 / DEF 2100',
    fields: ['Archetyp', 'Master Duel', 'Genesys', 'Preis', 'Ausgaben', 'Formate'],
    priceWord: ' bei ',
    footer: /^Deutsch · Englischer Name: Dark Magician · Kartennummer 46986414$/,
    button: 'Ausgaben',
    giveName: 'Gib einen Kartennamen an',
    notAddresses: 'Ich schlage IP-Adressen, Hostnamen und URLs nach.',
    network: 'Netzwerk',
    refused: 'werden nur in altersbeschränkten Kanälen',
  },
  {
    locale: 'it',
    konamiButton: 'Database Konami',
    rulingsButton: 'Ruling OCG (in giapponese)',
    printingsTitle: 'Edizioni di Dark Magician',
    wallpaperField: 'Risoluzione',
    wallpaperButton: 'Apri su Wallhaven',
    cardLanguage: 'it',
    header: '**Incantatore / Normale**\nOSCURITÀ · Livello 7 · ATK 2500 / DEF 2100',
    fields: ['Archetipo', 'Master Duel', 'Genesys', 'Prezzo', 'Edizioni', 'Formati'],
    priceWord: ' su ',
    footer: /^Italiano · Nome inglese: Dark Magician · Codice 46986414$/,
    button: 'Edizioni',
    giveName: 'Indica il nome di una carta',
    notAddresses: 'Cerco indirizzi IP, nomi host e URL.',
    network: 'Rete',
    refused: 'vengono mostrati solo nei canali con limiti di età',
  },
  {
    locale: 'pt-BR',
    konamiButton: 'Banco de dados da Konami',
    rulingsButton: 'Rulings OCG (em japonês)',
    printingsTitle: 'Edições de Dark Magician',
    wallpaperField: 'Resolução',
    wallpaperButton: 'Abrir no Wallhaven',
    cardLanguage: 'pt',
    header: '**Mago / Normal**\nTREVAS · Nível 7 · ATK 2500 / DEF 2100',
    fields: ['Arquétipo', 'Master Duel', 'Genesys', 'Preço', 'Edições', 'Formatos'],
    priceWord: ' na ',
    footer: /^Português · Nome em inglês: Dark Magician · Senha 46986414$/,
    button: 'Edições',
    giveName: 'Informe o nome de uma carta',
    notAddresses: 'Consulto endereços IP, nomes de host e URLs.',
    network: 'Rede',
    refused: 'só são exibidos em canais com restrição de idade',
  },
] as const;

/** English words of Almanac's own that must not show in another language's card answer. */
const ENGLISH_LABELS = ['Level', 'Spellcaster', 'DARK', 'Archetype', 'Price', 'Printings', 'Passcode', 'English name', ' on ', 'Effect'];

function embedOf(message: FinalMessage): APIEmbed {
  expect(message.embeds).toHaveLength(1);
  return message.embeds[0]!;
}

function buttonLabels(message: FinalMessage): string[] {
  return (message.components ?? []).flatMap((row) =>
    row.type === ComponentType.ActionRow ? row.components.flatMap((component) => (component.type === ComponentType.Button && 'label' in component ? [component.label ?? ''] : [])) : [],
  );
}

describe('players everywhere: user install in every context, in the player’s language, through the fake Discord', () => {
  let ygoprodeck: FakeYgoprodeck;
  let geo: FakeGeoJs;
  let wallhaven: FakeWallhaven;
  let bot: TestBot;

  beforeAll(async () => {
    [ygoprodeck, geo, wallhaven] = await Promise.all([startFakeYgoprodeck({ cards: loadCardDump() }), startFakeGeoJs(), startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY })]);
    // Every card database from a snapshot: a first start's download of the real dump is first-start.process.test.ts's.
    bot = await startTestBot({
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
      env: {
        YGOPRODECK_URL: ygoprodeck.url,
        YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl,
        GEOJS_URL: geo.url,
        WALLHAVEN_URL: wallhaven.url,
        WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY,
      },
    });
    await waitForEveryCardDatabase(bot.app.services.cards);
  }, 180_000);

  afterAll(async () => {
    await bot?.stop();
    await Promise.all([ygoprodeck?.close(), geo?.close(), wallhaven?.close()]);
  });

  async function run(name: string, subcommand: string, options: Record<string, string | boolean>, origin: InteractionOrigin = {}): Promise<FinalMessage> {
    return (await bot.discord.chatInput({ name, subcommand, options, ...origin })).final();
  }

  describe.each(LANGUAGES)('a $locale user', (language) => {
    it('reads /card show entirely in their language, apart from names with no translation', async () => {
      const shown = await run('card', 'show', { name: DARK_MAGICIAN }, { locale: language.locale });
      const embed = embedOf(shown);
      expect(embed.title).toBe(translatedCard(loadCardDump().find((card) => card.id === Number(DARK_MAGICIAN))!, language.cardLanguage)!.name);
      expect(embed.description!.startsWith(`${language.header}\n\n`)).toBe(true);
      expect(embed.fields!.map((field) => field.name)).toEqual(language.fields);
      expect(embed.fields!.find((field) => field.name === language.fields[3])!.value).toContain(language.priceWord);
      expect(embed.footer?.text).toMatch(language.footer);
      expect(buttonLabels(shown)).toEqual([language.button, 'YGOPRODeck', 'Yugipedia', language.konamiButton, language.rulingsButton]);
      expect(shown.files.map((file) => file.name)).toEqual([`card-${DARK_MAGICIAN}.jpg`]);
      const visible = JSON.stringify({ ...embed, title: '', footer: '', fields: embed.fields!.map((field) => field.name) }) + buttonLabels(shown).join();
      for (const word of ENGLISH_LABELS) expect(visible, word).not.toContain(word);
      expect(JSON.stringify({ embed, components: shown.components, content: shown.content })).not.toMatch(BROKEN_VALUE);

      const printingsButton = (shown.components ?? []).flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []))[0]!;
      const customId = 'custom_id' in printingsButton ? printingsButton.custom_id : '';
      const printings = await (await bot.discord.button({ customId, message: shown, locale: language.locale })).final();
      expect(embedOf(printings).title).toBe(language.printingsTitle);
    });

    it('gets errors, refusals and IP labels in their language', async () => {
      const blank = await run('card', 'show', { name: '   ' }, { locale: language.locale });
      expect(blank.ephemeral).toBe(true);
      expect(blank.content).toContain(language.giveName);

      const notAnAddress = await run('ip', 'lookup', { addresses: 'not-an-address' }, { locale: language.locale });
      expect(notAnAddress.content).toContain(language.notAddresses);

      const lookup = await run('ip', 'lookup', { addresses: '8.8.8.8' }, { locale: language.locale });
      expect(embedOf(lookup).fields!.map((field) => field.name)).toContain(language.network);

      const sketchy = await run('wallpaper', 'search', { query: 'mountains', purity: 'sketchy' }, { locale: language.locale });
      expect(sketchy.content).toContain(language.refused);

      const wallpaper = await run('wallpaper', 'search', { query: 'mountains' }, { locale: language.locale });
      expect(embedOf(wallpaper).fields!.map((field) => field.name)).toContain(language.wallpaperField);
      expect(buttonLabels(wallpaper)).toContain(language.wallpaperButton);
    });
  });

  it('speaks English to a locale it does not know, and the language option sets the card’s words', async () => {
    const japanese = embedOf(await run('card', 'show', { name: DARK_MAGICIAN }, { locale: 'ja' }));
    expect(japanese.description).toContain('DARK · Level 7 · ATK 2500 / DEF 2100');
    const germanCardForFrench = embedOf(await run('card', 'show', { name: DARK_MAGICIAN, language: 'de' }, { locale: 'fr' }));
    expect(germanCardForFrench.description).toContain('FINSTERNIS · Stufe 7');
  });

  describe('user install where the bot is not a member', () => {
    const placesWithoutTheBot: { channel: FakeChannelName; install?: 'user' }[] = [
      { channel: 'foreignGuild' },
      { channel: 'dm', install: 'user' },
      { channel: 'groupDm' },
    ];

    it('discord.js has neither the other server nor its channels cached', () => {
      expect([...bot.app.client.guilds.cache.keys()]).toEqual([bot.discord.guildId]);
    });

    it.each(placesWithoutTheBot)('answers /card, /ip and Locate IP in $channel', async (origin) => {
      const card = await run('card', 'show', { name: DARK_MAGICIAN }, origin);
      expect(embedOf(card).title).toBe('Dark Magician');
      expect(card.files.map((file) => file.name)).toEqual([`card-${DARK_MAGICIAN}.jpg`]);
      const ip = await run('ip', 'lookup', { addresses: '8.8.8.8' }, origin);
      expect(embedOf(ip).title).toBe('8.8.8.8');
      const located = await (await bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: 'from 8.8.8.8', ...origin })).final();
      expect(located.embeds.map((embed) => embed.title)).toEqual(['8.8.8.8']);
    });

    it.each(placesWithoutTheBot)('refuses sketchy and nsfw wallpapers in $channel before asking Wallhaven', async (origin) => {
      const before = wallhaven.requestsTo('/api/v1/search').length;
      for (const purity of ['sketchy', 'nsfw']) {
        const refused = await run('wallpaper', 'search', { query: 'mountains', purity }, origin);
        expect(refused.ephemeral).toBe(true);
        expect(refused.embeds).toHaveLength(0);
        expect(refused.content).toMatch(origin.channel === 'foreignGuild' ? /only shown in age-restricted channels/ : /never shown in DMs/);
      }
      expect(wallhaven.requestsTo('/api/v1/search').length).toBe(before);
    });

    it('serves sketchy where the interaction says the channel is age-restricted, though that server is not cached', async () => {
      const before = wallhaven.requestsTo('/api/v1/search').length;
      const shown = await run('wallpaper', 'search', { query: 'mountains', purity: 'sketchy' }, { channel: 'foreignAgeRestricted' });
      expect(shown.content ?? '').not.toMatch(/age-restricted/);
      expect(wallhaven.requestsTo('/api/v1/search').length).toBe(before + 1);
    });

    it('shows the card without art and says so where attachments are not allowed; nothing is hotlinked', async () => {
      const noAttachments = PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.MentionEveryone;
      const shown = await run('card', 'show', { name: DARK_MAGICIAN }, { channel: 'foreignGuild', appPermissions: noAttachments, locale: 'fr' });
      const embed = embedOf(shown);
      expect(shown.files).toEqual([]);
      expect(embed.image).toBeUndefined();
      expect(embed.thumbnail).toBeUndefined();
      expect(shown.content).toBe('Illustration non affichée : cette discussion n’autorise pas Almanac à joindre des fichiers.');
      expect(embed.description).toContain('Niveau 7');
      const set = await run('card', 'set', { name: LOB_SET.set_name }, { channel: 'groupDm', appPermissions: noAttachments });
      expect(set.files).toEqual([]);
      expect(embedOf(set).image).toBeUndefined();
      expect(set.content).toBe('Art not shown: this chat does not allow Almanac to attach files.');
      expect(everythingSentToDiscord(bot.discord)).not.toContain('images.ygoprodeck.com');
    });

    it.each(['foreignGuild', 'groupDm'] as const)('/status shows nothing operator-only in %s', async (channel) => {
      const status = await (await bot.discord.chatInput({ name: 'status', channel })).final();
      expect(status.ephemeral).toBe(true);
      expect(status.embeds).toHaveLength(0);
      expect(status.content).toContain('shows nothing here');
      expect(JSON.stringify(status)).not.toMatch(/Uptime|Memory|Queue|Cache hits|YGOPRODeck/);
    });

    it('/status still reports to operators in the server that installed Almanac', async () => {
      const status = await (await bot.discord.chatInput({ name: 'status' })).final();
      expect(embedOf(status).fields!.map((field) => field.name)).toContain('Uptime');
    });
  });
});
