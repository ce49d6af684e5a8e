import { ComponentType, InteractionResponseType, type APIEmbed, type APIStringSelectComponent } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage, InteractionExchange } from '../fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { QUIRK_CARD_IDS, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { buttonCustomId } from '../helpers/components.js';
import { controlsAsked, controlsSent, TYPED_CONTROLS } from '../helpers/hostile-input.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import type { UploadedFile } from '../helpers/http-body.js';

const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;

interface Shown {
  message: FakeMessage;
  files: UploadedFile[];
  ephemeral: boolean;
}

/** The message an interaction ended with: the reply or update itself, or the follow-up after a deferred update. */
async function shown(exchange: InteractionExchange): Promise<Shown> {
  const callback = await exchange.callback();
  if (callback.type === InteractionResponseType.DeferredMessageUpdate) {
    await expect.poll(() => exchange.followUps().length + exchange.edits().length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [followUp] = exchange.followUps();
    if (followUp) return { message: followUp.message, files: followUp.files, ephemeral: ((followUp.message.flags ?? 0) & 64) !== 0 };
  }
  const final = await exchange.final();
  return { message: final, files: final.files, ephemeral: final.ephemeral };
}

function embedOf(message: FakeMessage): APIEmbed {
  expect(message.embeds).toHaveLength(1);
  return message.embeds[0]!;
}

function components(message: FakeMessage) {
  return (message.components ?? []).flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []));
}

function select(message: FakeMessage): APIStringSelectComponent {
  const found = components(message).find((component) => component.type === ComponentType.StringSelect);
  if (!found) throw new Error('no select menu');
  return found as APIStringSelectComponent;
}

describe('HTTP mode: every command and component path end to end, against the fake upstreams', () => {
  let bot: TestHttpBot;
  let geo: FakeGeoJs;
  let wallhaven: FakeWallhaven;
  let ygoprodeck: FakeYgoprodeck;

  beforeAll(async () => {
    [geo, wallhaven, ygoprodeck] = await Promise.all([startFakeGeoJs(), startFakeWallhaven(), startFakeYgoprodeck()]);
    bot = await startTestHttpBot({
      env: { GEOJS_URL: geo.url, WALLHAVEN_URL: wallhaven.url, YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      overrides: { memberShares: { wallhaven: { limit: 10_000 } } },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    expect(bot.app.services.cards.ready).toBe(true);
    expect(await bot.app.services.cards.whenSetsReady(10_000)).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await Promise.all([geo?.close(), wallhaven?.close(), ygoprodeck?.close()]);
  });

  it('autocompletes a card name from local data only, answering in the HTTP body', async () => {
    // Only card lookups count: the languages' downloads may still be under way.
    const lookups = () => ygoprodeck.cardLookups().length;
    const before = lookups();
    const exchange = await bot.discord.autocomplete({ name: 'card', subcommand: 'show', options: { name: 'dark magican' }, focused: 'name' });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    expect(callback.data?.choices?.[0]).toEqual({ name: 'Dark Magician', value: String(QUIRK_CARD_IDS.normalMonster) });
    expect(lookups()).toBe(before);
  });

  it('shows a card with its art attached: a multipart answer (payload_json + files[0]) or a webhook upload', async () => {
    const card = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'Dark Magician' } }));
    expect(embedOf(card.message).title).toBe('Dark Magician');
    expect(card.files.map((file) => file.name)).toEqual([`card-${QUIRK_CARD_IDS.normalMonster}.jpg`]);
    expect(card.files[0]!.data.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(embedOf(card.message).image?.url).toBe(`attachment://card-${QUIRK_CARD_IDS.normalMonster}.jpg`);
    expect(JSON.stringify(card.message.embeds)).not.toMatch(BROKEN_VALUE);
    // Art already stored: the second time it is ready at once, so it travels in the HTTP response itself.
    const again = await bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'Dark Magician' } });
    const callback = await again.callback();
    expect(callback.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(callback.files.map((file) => [file.field, file.name])).toEqual([['files[0]', `card-${QUIRK_CARD_IDS.normalMonster}.jpg`]]);
  });

  it('shows a random card, and searches into a list whose menu opens a card', async () => {
    const random = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'random' }));
    expect(embedOf(random.message).title).toEqual(expect.any(String));
    const list = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: 'dragon' } }));
    const menu = select(list.message);
    const option = menu.options[0]!;
    const card = await shown(await bot.discord.select({ customId: menu.custom_id, values: [option.value], message: list.message }));
    expect(embedOf(card.message).title).toBe(option.label);
  });

  it('autocompletes sets, shows a set, and opens a listed card from its menu', async () => {
    const choices = (await (await bot.discord.autocomplete({ name: 'card', subcommand: 'set', options: { name: '' }, focused: 'name' })).callback()).data?.choices ?? [];
    expect(choices).toHaveLength(25);
    const darkMagician = ygoprodeck.cards.find((card) => card.id === QUIRK_CARD_IDS.normalMonster)!;
    const setName = darkMagician.card_sets![0]!.set_name;
    const set = await shown(await bot.discord.chatInput({ name: 'card', subcommand: 'set', options: { name: setName } }));
    expect(embedOf(set.message).footer?.text).toMatch(/^Page 1 \/ \d+ · /);
    const menu = select(set.message);
    const card = await shown(await bot.discord.select({ customId: menu.custom_id, values: [menu.options[0]!.value], message: set.message }));
    expect(embedOf(card.message).title).toBe(menu.options[0]!.label);
  });

  it('looks up IP addresses and their local time, and locates addresses from the message menu', async () => {
    const lookup = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8, 10.0.0.1' } })).final();
    expect(lookup.ephemeral).toBe(true);
    expect(lookup.embeds.map((embed) => embed.title)).toEqual(['8.8.8.8', '10.0.0.1']);
    const time = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' } })).final();
    expect(time.content).toMatch(/^`8\.8\.8\.8` · 🇺🇸 United States · America\/Chicago · \d\d:\d\d \(UTC−0[56]:00\)$/);
    const located = await (await bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: 'from 81.2.69.142 port 22' })).final();
    expect(located.embeds.map((embed) => embed.title)).toEqual(['81.2.69.142']);
  });

  it('sends NUL and bidi controls typed into /card show and /ip lookup in no reply and to no upstream', async () => {
    const before = { ygoprodeck: ygoprodeck.server.requests.length, geo: geo.requests.length };
    const card = (name: string) => bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name } });
    const noMatch = await card(`qqqq${TYPED_CONTROLS}zzzzxxxxwwww`);
    expect((await shown(noMatch)).message.content).toBe('No card matches “qqqq\uFFFD\uFFFDzzzzxxxxwwww”. Check the spelling, or try `/card search`.');
    const exact = await card('Dark Magician\u202e');
    expect(embedOf((await shown(exact)).message).title).toBe('Dark Magician');
    const ip = (addresses: string) => bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses } });
    const lookup = await ip('\u202e8.8.4.4');
    expect((await lookup.final()).embeds.map((embed) => embed.title)).toEqual(['8.8.4.4']);
    const refusal = await ip(`8.8.8.8 1.2.3${TYPED_CONTROLS}`);
    expect((await refusal.final()).content).toContain('“1.2.3\uFFFD\uFFFD”: holds characters a host name cannot have');
    for (const exchange of [noMatch, exact, lookup, refusal]) expect(await controlsSent(exchange)).toEqual([]);
    expect(controlsAsked([...ygoprodeck.server.requests.slice(before.ygoprodeck), ...geo.requests.slice(before.geo)])).toEqual([]);
  });

  it('searches wallpapers and pages ▶ in place; shows one by id; picks a random one', async () => {
    const first = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search' })).final();
    expect(first.embeds[0]?.footer?.text).toMatch(/^1 \/ \d+$/);
    const second = await (await bot.discord.button({ customId: buttonCustomId(first, '▶'), message: first })).final();
    expect(second.embeds[0]?.footer?.text).toMatch(/^2 \/ \d+$/);
    const id = first.embeds[0]!.title!.replace(/^Wallpaper /, '');
    const detail = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id } })).final();
    expect(detail.embeds[0]?.title).toBe(`Wallpaper ${id}`);
    const random = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random' })).final();
    expect(random.embeds[0]?.title).toMatch(/^Wallpaper /);
  });

  it('never linked card art, never connected a gateway, and acknowledged only through HTTP responses', () => {
    const sent = bot.discord.calls.map((call) => JSON.stringify(call.json ?? null)).join('\n');
    expect(sent).not.toContain('images.ygoprodeck.com');
    expect(bot.discord.identifyCount).toBe(0);
    expect(bot.discord.calls.every((call) => call.path.startsWith('/webhooks/'))).toBe(true);
  });
});
