import { ComponentType, type APIButtonComponentWithURL } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../fakes/discord.js';
import { QUIRK_CARD_IDS, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';

/**
 * A bot upgraded over a DATA_DIR written by main 9f0f9b6 (card format 2): the old snapshot answers
 * `/card show` at once, while the download in the new format is still under way, then that download
 * brings the Master Duel facts. Nothing but the whole-database download is asked of YGOPRODeck.
 */
describe('/card show across a card format upgrade', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;
  let release!: () => void;

  const linkButtons = (message: FakeMessage): APIButtonComponentWithURL[] =>
    (message.components ?? []).flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : [])).filter((component) => 'url' in component) as APIButtonComponentWithURL[];

  async function showCard(id: number, locale = 'en-US'): Promise<FakeMessage> {
    return (await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(id) }, locale })).final();
  }

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    ygoprodeck.wholeDownloadsHeld = new Promise<void>((resolve) => (release = resolve));
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version, cardFormat: 2 },
      // The fake serves 300 cards; production refuses a download of fewer than 5,000.
      overrides: { cardDatabase: { minCards: 100 } },
    });
  }, 60_000);

  afterAll(async () => {
    release();
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('answers from the old snapshot before the download completes, then with Master Duel status, formats and links', async () => {
    const before = await showCard(QUIRK_CARD_IDS.masterDuelForbidden);
    expect(before.embeds[0]!.title).toBe('Maxx "C"');
    expect(before.embeds[0]!.fields?.find((field) => field.name === 'Ban list')?.value).toBe('TCG Forbidden · OCG Semi-Limited');
    expect(before.embeds[0]!.fields?.find((field) => field.name === 'Master Duel')?.value ?? '').not.toMatch(/Forbidden/);
    // The new download has been asked for (and is held): the answer above did not wait for it.
    await waitForCondition({
      emitter: ygoprodeck.events,
      events: ['request'],
      probe: () => (ygoprodeck.fullDownloads().length > 0 ? true : undefined),
      timeoutMs: 30_000,
      describeTimeout: () => 'the bot never asked for the new database',
    });
    expect(ygoprodeck.fullDownloads()).toHaveLength(1);
    // A snapshot without formats cannot answer a format filter: it says so instead of finding nothing.
    const formatFilter = await (await bot.discord.chatInput({ name: 'card', subcommand: 'random', options: { format: 'tcg' } })).final();
    expect([formatFilter.ephemeral, formatFilter.content]).toEqual([true, expect.stringContaining('does not list the formats')]);
    // The whole-database download alone: no lookup of the card.
    expect(ygoprodeck.requestsTo('/api/v7/cardinfo.php')).toHaveLength(1);

    release();
    // The languages are asked for once the English download is installed.
    await waitForCondition({
      emitter: ygoprodeck.events,
      events: ['request'],
      probe: () => (ygoprodeck.languageDownloads('fr').length > 0 ? true : undefined),
      timeoutMs: 30_000,
      describeTimeout: () => 'the new English download was never installed',
    });
    const after = await showCard(QUIRK_CARD_IDS.masterDuelForbidden, 'de');
    const fields = new Map(after.embeds[0]!.fields?.map((field) => [field.name, field.value]));
    expect(fields.get('Master Duel')).toMatch(/^Verboten · (Common|Rare|Super Rare|Ultra Rare)$/);
    expect(fields.get('Formate')).toBe('TCG · OCG · Master Duel · Common Charity');
    const links = linkButtons(after);
    expect(links.map((button) => button.label)).toEqual(['YGOPRODeck', 'Yugipedia', 'Konami-Datenbank', 'OCG-Rulings (auf Japanisch)']);
    expect(links[1]!.url).toBe('https://yugipedia.com/wiki/Maxx_%22C%22');
    const filtered = await (await bot.discord.chatInput({ name: 'card', subcommand: 'random', options: { format: 'duellinks', type: 'skill' } })).final();
    expect(filtered.embeds[0]!.description).toMatch(/^\*\*Skill\b/);
    expect(links[2]!.url).toMatch(/^https:\/\/www\.db\.yugioh-card\.com\/yugiohdb\/card_search\.action\?ope=2&cid=\d+&request_locale=de$/);
    expect(links[3]!.url).toMatch(/^https:\/\/www\.db\.yugioh-card\.com\/yugiohdb\/faq_search\.action\?ope=4&cid=\d+&request_locale=ja$/);
  });
});
