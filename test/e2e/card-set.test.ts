import {
  ComponentType,
  InteractionResponseType,
  type APIButtonComponentWithCustomId,
  type APIEmbed,
  type APIStringSelectComponent,
} from 'discord.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawCardSet } from '../../src/cards/card-set.js';
import type { FakeMessage, InteractionExchange } from '../fakes/discord.js';
import { LOB_SET, SECOND_LOB_SET, loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';
import type { UploadedFile } from '../helpers/http-body.js';
import { waitForEveryCardDatabase } from '../helpers/language-databases.js';
import { field } from '../helpers/components.js';

const BLUE_EYES = 89631139;
const SOMEONE_ELSE = { id: '1356000000000000777', username: 'someone-else' };
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;
const EPHEMERAL = 64;

interface ShownMessage {
  message: FakeMessage;
  files: UploadedFile[];
  ephemeral: boolean;
  /** How the interaction was answered: a new message, or the message it came from edited in place. */
  answer: 'new message' | 'updated in place';
}

function embedOf(shown: ShownMessage): APIEmbed {
  expect(shown.message.embeds).toHaveLength(1);
  return shown.message.embeds[0]!;
}

function componentsOf(message: FakeMessage) {
  return (message.components ?? []).flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []));
}

function selectOf(message: FakeMessage): APIStringSelectComponent {
  const select = componentsOf(message).find((component) => component.type === ComponentType.StringSelect);
  expect(select).toBeDefined();
  return select as APIStringSelectComponent;
}

function button(message: FakeMessage, label: string): APIButtonComponentWithCustomId {
  const found = componentsOf(message).find((component) => component.type === ComponentType.Button && 'custom_id' in component && component.label === label);
  if (!found) throw new Error(`no ${label} button on the message`);
  return found as APIButtonComponentWithCustomId;
}

describe('/card set end to end: the real client against the fake Discord and the fake YGOPRODeck (whole database)', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;

  /** The message an interaction ended with: a reply, a follow-up after a deferred update, or the message edited in place. */
  async function shown(exchange: InteractionExchange): Promise<ShownMessage> {
    const callback = await exchange.callback();
    if (callback.type === InteractionResponseType.DeferredMessageUpdate) {
      const followUp = await Promise.race([
        exchange.waitForFollowUp().then((write) => ({ write, answer: 'new message' as const })),
        exchange.waitForEdit().then((write) => ({ write, answer: 'updated in place' as const })),
      ]);
      return { message: followUp.write.message, files: followUp.write.files, ephemeral: ((followUp.write.message.flags ?? 0) & EPHEMERAL) !== 0, answer: followUp.answer };
    }
    const final = await exchange.final();
    const answer = callback.type === InteractionResponseType.UpdateMessage ? 'updated in place' : 'new message';
    return { message: final, files: final.files, ephemeral: final.ephemeral, answer };
  }

  async function showSet(name: string, user?: typeof SOMEONE_ELSE): Promise<ShownMessage> {
    return shown(await bot.discord.chatInput({ name: 'card', subcommand: 'set', options: { name }, ...(user ? { user } : {}) }));
  }

  async function press(message: FakeMessage, label: string, user?: typeof SOMEONE_ELSE): Promise<ShownMessage> {
    return shown(await bot.discord.button({ customId: button(message, label).custom_id, message, ...(user ? { user } : {}) }));
  }

  async function autocomplete(value: string) {
    const exchange = await bot.discord.autocomplete({ name: 'card', subcommand: 'set', options: { name: value }, focused: 'name' });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    const choices = callback.data?.choices ?? [];
    for (const choice of choices) {
      expect(choice.name.length).toBeLessThanOrEqual(100);
      expect(String(choice.value).length).toBeLessThanOrEqual(100);
    }
    return choices;
  }

  const cardsetsRequests = () => ygoprodeck.requestsTo('/api/v7/cardsets.php').length;

  /** A listed set with cards in the database and the given date and image facts. */
  function setWhere(predicate: (set: RawCardSet) => boolean): RawCardSet {
    const found = ygoprodeck.cardSets.find((set) => set.set_name !== SECOND_LOB_SET && Number(set.num_of_cards) >= 3 && predicate(set));
    if (!found) throw new Error('the fake lists no such set');
    return found;
  }

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck({ cards: loadCardDump() });
    // The card databases come from a snapshot (a first start's download of the real dump is first-start.process.test.ts's); the set list is fetched at start.
    bot = await startTestBot({
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    await waitForEveryCardDatabase(bot.app.services.cards);
  }, 180_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  it('fetched the set list once at start, before any command, and keeps it in DATA_DIR', () => {
    expect(cardsetsRequests()).toBe(1);
    const stored = JSON.parse(readFileSync(join(bot.config.dataDir, 'cards', 'card-sets.json'), 'utf8')) as { sets: unknown[] };
    expect(stored.sets.length).toBeGreaterThan(0);
    expect(bot.app.services.cards.health().details).toMatchObject({ cardSets: stored.sets.length });
  });

  it('autocompletes by partial name, by code, with typos and with nothing typed, without touching YGOPRODeck', async () => {
    const before = ygoprodeck.server.requests.length;
    const byName = await autocomplete('legend of blue');
    expect(byName[0]).toEqual({ name: 'Legend of Blue Eyes White Dragon (LOB)', value: LOB_SET.set_name });
    const byCode = await autocomplete('LOB');
    expect(byCode.slice(0, 2)).toEqual([
      { name: 'Legend of Blue Eyes White Dragon (LOB)', value: LOB_SET.set_name },
      { name: `${SECOND_LOB_SET} (LOB)`, value: SECOND_LOB_SET },
    ]);
    expect((await autocomplete('metal raidrs'))[0]).toEqual({ name: 'Metal Raiders (MRD)', value: 'Metal Raiders' });
    expect(await autocomplete('')).toHaveLength(25);
    expect(ygoprodeck.server.requests.length).toBe(before);
  });

  it('shows a set with a release date and an image: the date as a Discord date, the image attached, never linked', async () => {
    const [choice] = await autocomplete('legend of blue eyes');
    const set = await showSet(String(choice!.value));
    expect(set.ephemeral).toBe(false);
    const embed = embedOf(set);
    expect(embed.title).toBe(LOB_SET.set_name);
    expect(field(embed, 'Set code')).toBe('`LOB` (also used by 1 other set)');
    expect(field(embed, 'TCG release')).toBe(`<t:${Date.UTC(2002, 2, 8, 12) / 1000}:D>`);
    expect(field(embed, 'Cards')).toBe('126');
    expect(embed.thumbnail?.url).toBe('attachment://set-LOB.jpg');
    expect(set.files.map((file) => file.name)).toEqual(['set-LOB.jpg']);
    expect(set.files[0]!.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(embed.description!.split('\n')[0]).toBe('`LOB-000` **Tri-Horned Dragon** · Secret Rare · also `LOB-E000`, `LOB-EN000`');
    expect(selectOf(set.message).options).toHaveLength(15);
    expect(JSON.stringify([set.message.embeds, set.message.components])).not.toMatch(BROKEN_VALUE);

    // Shown again: the image comes from the local store.
    await showSet(LOB_SET.set_name);
    expect(ygoprodeck.requestsTo('/images/sets/').map((request) => request.path)).toEqual(['/images/sets/LOB.jpg']);
  });

  it('shows a set without a release date or an image, saying so and attaching nothing', async () => {
    const bare = setWhere((set) => set.tcg_date == null && set.set_image == null);
    const set = await showSet(bare.set_name);
    const embed = embedOf(set);
    expect(embed.title).toBe(bare.set_name);
    expect(field(embed, 'TCG release')).toBe('No TCG release date listed');
    expect(embed.thumbnail).toBeUndefined();
    expect(set.files).toHaveLength(0);
    expect(selectOf(set.message).options.length).toBeGreaterThan(0);

    const dated = setWhere((set) => typeof set.tcg_date === 'string' && set.set_image == null);
    const datedEmbed = embedOf(await showSet(dated.set_name));
    expect(field(datedEmbed, 'TCG release')).toBe(`<t:${Date.parse(`${dated.tcg_date}T12:00:00Z`) / 1000}:D>`);
    expect(datedEmbed.thumbnail).toBeUndefined();
  });

  it('pages through a set of over 100 cards with ◀ ▶ in place, each card once, and opens a listed card', async () => {
    let page = await showSet(LOB_SET.set_name);
    const seen = selectOf(page.message).options.map((option) => option.value);
    expect(button(page.message, '◀').disabled).toBe(true);
    for (let next = 2; next <= 9; next++) {
      page = await press(page.message, '▶');
      expect(page.answer).toBe('updated in place');
      expect(embedOf(page).footer?.text).toMatch(new RegExp(`^Page ${next} / 9 · `));
      // The image stays attached on every page.
      expect(embedOf(page).thumbnail?.url).toBe('attachment://set-LOB.jpg');
      seen.push(...selectOf(page.message).options.map((option) => option.value));
    }
    expect(button(page.message, '▶').disabled).toBe(true);
    expect(seen).toHaveLength(126);
    expect(new Set(seen).size).toBe(126);
    expect(embedOf(page).footer?.text).toBe('Page 9 / 9 · cards 121–126 of 126 in the card database');

    page = await press(page.message, '◀');
    expect(embedOf(page).footer?.text).toMatch(/^Page 8 \/ 9 · /);

    // Anyone else gets the page in a message of their own; the owner's message stays as it is.
    const elsewhere = await press(page.message, '▶', SOMEONE_ELSE);
    expect(elsewhere.answer).toBe('new message');
    expect(elsewhere.ephemeral).toBe(true);
    expect(embedOf(elsewhere).footer?.text).toMatch(/^Page 9 \/ 9 · /);

    const menu = selectOf(page.message);
    const option = menu.options[0]!;
    const card = await shown(await bot.discord.select({ customId: menu.custom_id, values: [option.value], message: page.message }));
    expect(card.ephemeral).toBe(false);
    expect(embedOf(card).title).toBe(option.label);
    expect(card.files.map((file) => file.name)).toEqual([`card-${option.value}.jpg`]);
  });

  it('asks which set is meant for a code several sets share, and opens the one picked', async () => {
    const question = await showSet('lob');
    expect(question.ephemeral).toBe(true);
    expect(question.message.content).toBe('2 card sets use the code `LOB`. Which one?');
    const menu = selectOf(question.message);
    expect(menu.options.map((option) => option.label)).toEqual([LOB_SET.set_name, SECOND_LOB_SET]);
    const picked = await shown(await bot.discord.select({ customId: menu.custom_id, values: [menu.options[1]!.value], message: question.message }));
    expect(picked.ephemeral).toBe(false);
    expect(embedOf(picked).title).toBe(SECOND_LOB_SET);
    expect(embedOf(picked).description).toBe('No card of this set is in the card database yet.');
  });

  it('answers a set that matches nothing with a clear ephemeral sentence', async () => {
    const reply = await showSet('qqqqzzzzxxxxwwww');
    expect(reply.ephemeral).toBe(true);
    expect(reply.message.content).toBe('No card set matches “qqqqzzzzxxxxwwww”. Pick one from the suggestions, or give a set code such as `LOB`.');
  });

  it('lists the printings of a card with many of them from its Printings button, paged in place, for the presser only', async () => {
    const card = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(BLUE_EYES) } }));
    expect(embedOf(card).fields?.find((entry) => entry.name === 'Printings')?.value).toBe('72 printings');
    let list = await press(card.message, 'Printings', SOMEONE_ELSE);
    expect(list.answer).toBe('new message');
    expect(list.ephemeral).toBe(true);
    expect(embedOf(list).title).toBe('Printings of Blue-Eyes White Dragon');
    const lines = embedOf(list).description!.split('\n');
    for (let next = 2; next <= 5; next++) {
      list = await press(list.message, '▶', SOMEONE_ELSE);
      expect(list.answer).toBe('updated in place');
      expect(embedOf(list).footer?.text).toMatch(new RegExp(`^Page ${next} / 5 · `));
      lines.push(...embedOf(list).description!.split('\n'));
    }
    expect(lines).toHaveLength(72);
    expect(lines.filter((line) => line.includes('**Legend of Blue Eyes White Dragon** (2002) · Ultra Rare (UR)'))).toHaveLength(3);
    expect(button(list.message, '▶').disabled).toBe(true);
  });

  it('/card price: vendor prices in their currencies and every printing cheapest first, paged in place for its owner, without a request', async () => {
    const requests = ygoprodeck.server.requests.length;
    let prices = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'price', options: { name: String(BLUE_EYES) } }));
    expect(prices.ephemeral).toBe(false);
    expect(embedOf(prices).title).toBe('Prices of Blue-Eyes White Dragon');
    expect(field(embedOf(prices), 'Price by vendor')).toMatch(/^\*\*TCGplayer\*\* (\$[\d,.]+|no price)\n\*\*Cardmarket\*\* (€[\d,.]+|no price)\n/);
    expect(embedOf(prices).footer?.text).toMatch(/^Page 1 \/ 5 · printings 1–15 of 72 · cheapest first · .* · prices as of \w+ \d+, \d{4}$/);
    const amounts: number[] = [];
    for (let page = 1; ; page++) {
      for (const line of embedOf(prices).description!.split('\n')) amounts.push(Number(/\$([\d,.]+)$/.exec(line)?.[1]?.replaceAll(',', '') ?? Infinity));
      if (page === 5) break;
      prices = await press(prices.message, '▶');
      expect(prices.answer).toBe('updated in place');
    }
    expect(amounts).toHaveLength(72);
    expect(amounts).toEqual([...amounts].sort((left, right) => left - right));
    const forSomeoneElse = await press(prices.message, '◀', SOMEONE_ELSE);
    expect([forSomeoneElse.answer, forSomeoneElse.ephemeral]).toEqual(['new message', true]);
    expect(ygoprodeck.server.requests.length).toBe(requests);
  });

  it('/card art: every artwork attached in turn with ◀ ▶, each image downloaded once', async () => {
    const imageRequests = () => ygoprodeck.requestsTo('/images/cards/').length;
    const before = imageRequests();
    let art = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'art', options: { name: 'blue-eyes white dragon' } }));
    const seen: string[] = [];
    for (let index = 1; ; index++) {
      expect(embedOf(art).footer?.text).toMatch(new RegExp(`^Artwork ${index} / 8 · Passcode \\d{8}$`));
      expect(art.files).toHaveLength(1);
      expect(embedOf(art).image?.url).toBe(`attachment://${art.files[0]!.name}`);
      seen.push(art.files[0]!.name);
      if (index === 8) break;
      art = await press(art.message, '▶');
    }
    expect(new Set(seen).size).toBe(8);
    expect(seen[0]).toBe(`card-${BLUE_EYES}.jpg`);
    expect(imageRequests() - before).toBeLessThanOrEqual(8);
    const again = imageRequests();
    await press(art.message, '◀');
    expect(imageRequests()).toBe(again);
  });

  it('never asks cardsets.php again for any command, and never sends an images.ygoprodeck.com link or the token to Discord', () => {
    expect(cardsetsRequests()).toBe(1);
    const sent = everythingSentToDiscord(bot.discord);
    expect(sent).toContain('attachment://set-LOB.jpg');
    expect(sent).not.toContain('images.ygoprodeck.com');
    expect(sent).not.toContain(CANARY_TOKEN);
  });
});
