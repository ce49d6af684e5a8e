import { PermissionFlagsBits, type APIButtonComponentWithCustomId } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toYdke } from '../../src/decks/ydke.js';
import { MEMBER_PERMISSIONS } from '../fakes/discord-guilds.js';
import { genesysFixture, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { waitForEveryCardDatabase } from '../helpers/language-databases.js';

/**
 * `/card banlist` and `/subscribe banlist` end to end: the app records the ban lists of the card
 * database it starts with; the list is shown paged, the changes say since when lists are kept; a
 * moderator subscribes the channel, `/subscribe list` shows it, and a deck then shown publicly in
 * that channel is kept (its cards) for the next change's post, while one shown elsewhere is not.
 */

const MODERATOR = { memberPermissions: MEMBER_PERMISSIONS | PermissionFlagsBits.ManageChannels };

describe('ban lists through the fake Discord', () => {
  let bot: TestBot;
  let ygoprodeck: FakeYgoprodeck;

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    await waitForEveryCardDatabase(bot.app.services.cards);
    // The version at start is recorded in the background; recording it again waits for that and adds nothing.
    await bot.app.services.banlists!.record(ygoprodeck.version);
  }, 180_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('shows the current TCG list paged, Forbidden first, and since when lists are kept', async () => {
    const list = await (await bot.discord.chatInput({ name: 'card', subcommand: 'banlist', options: { format: 'tcg' } })).final();
    const embed = list.embeds[0]!;
    expect(embed.title).toBe('TCG ban list');
    expect(embed.description).toMatch(/^\*\*Forbidden\*\*\n- /);
    expect(embed.fields?.[0]?.value).toMatch(/^Card database version 1\.00, seen <t:\d+:D>$/);
    const forbidden = ygoprodeck.cards.filter((card) => card.banlist_info?.ban_tcg === 'Forbidden').length;
    expect(forbidden).toBeGreaterThan(0);
    const buttons = (list.components?.[0] as { components?: APIButtonComponentWithCustomId[] } | undefined)?.components ?? [];
    if (buttons.length > 0) expect(buttons.map((button) => button.custom_id)).toEqual(['card:bl:tcg:0', 'card:bl:tcg:1']);

    const changes = await (await bot.discord.chatInput({ name: 'card', subcommand: 'banlist', options: { format: 'ocg', changes: true }, locale: 'fr' })).final();
    expect(changes.embeds[0]!.description).toMatch(/^YGOPRODeck ne garde pas les anciennes listes : Almanac les garde lui-même, depuis <t:\d+:D>\./);
  });

  it('shows the Genesys list: the pointed cards, dearest first, with their points', async () => {
    const points = genesysFixture();
    const pointed = ygoprodeck.cards
      .filter((card) => (points[card.name] ?? 0) > 0 && !card.frameType.endsWith('_pendulum') && card.frameType !== 'link')
      .sort((a, b) => points[b.name]! - points[a.name]! || a.name.localeCompare(b.name, 'en'));
    expect(pointed.length).toBeGreaterThan(0);
    const list = await (await bot.discord.chatInput({ name: 'card', subcommand: 'banlist', options: { format: 'genesys' } })).final();
    expect(list.embeds[0]!.title).toBe('Genesys ban list');
    expect(list.embeds[0]!.description).toBe(['**Points**', ...pointed.slice(0, 40).map((card) => `- ${card.name} (${points[card.name]})`)].join('\n'));
  });

  it('subscribes a channel to a format, lists it, and keeps decks shown there only', async () => {
    const added = await (await bot.discord.chatInput({ name: 'subscribe', subcommand: 'banlist', options: { format: 'masterduel' }, ...MODERATOR })).final();
    expect(added.ephemeral).toBe(true);
    expect(added.content).toBe('Subscribed: Ban-list changes: Master Duel, posted when it changes. The list in use now is not posted; the next change is.');
    const listed = await (await bot.discord.chatInput({ name: 'subscribe', subcommand: 'list', ...MODERATOR })).final();
    expect(listed.content).toContain('- Ban-list changes: Master Duel, posted when it changes\n  Posts when the list changes');

    const card = ygoprodeck.cards[0]!;
    const deck = toYdke({ main: [card.id, card.id], extra: [], side: [] });
    await (await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deck } })).final();
    await (await bot.discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deck }, channel: 'ageRestricted' })).final();
    const kept = async (channel: 'normal' | 'ageRestricted') => (await bot.app.services.banlists!.recentDecks(bot.discord.channels[channel], Date.now())).map((entry) => entry.cards);
    expect(await kept('normal')).toEqual([{ [String(card.id)]: 2 }]);
    expect(await kept('ageRestricted')).toEqual([]);
  });
});
