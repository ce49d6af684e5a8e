import { ComponentType, type APIStringSelectComponent } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { decodePagerId } from '../../src/wallpaper/pager-state.js';
import type { FakeChannelName, FinalMessage, InteractionExchange, OptionValue } from '../fakes/discord.js';
import { htmlPage } from '../fakes/fake-server.js';
import type { FakeWallhaven } from '../fakes/wallhaven.js';
import { CANARY_WALLHAVEN_KEY, type TestBot } from '../helpers/bot.js';
import { startListingsBot } from '../helpers/wallhaven-bot.js';
import { buttonCustomId, newMessageFrom } from '../helpers/components.js';

/**
 * The listings beyond a plain search, end to end through the fake Discord and the fake Wallhaven:
 * toplists and colours, "More like this", a tag from the detail view, collections. One bot for the file, its limiter 20 times faster (the count per window is
 * what the limit is about; test/e2e/wallpaper.test.ts shows the real spacing holds).
 */

const OWNER = { id: '1356000000000000200', username: 'tester' };
const SOMEONE_ELSE = { id: '1356000000000000777', username: 'someone-else' };

function wallpaperCommand(bot: TestBot, subcommand: string, options: Record<string, OptionValue> = {}, channel: FakeChannelName = 'normal'): Promise<InteractionExchange> {
  return bot.discord.chatInput({ name: 'wallpaper', subcommand, options, channel, user: OWNER });
}

async function press(bot: TestBot, message: FinalMessage, label: string, channel: FakeChannelName = 'normal', user = OWNER): Promise<FinalMessage> {
  return (await bot.discord.button({ customId: buttonCustomId(message, label), message, user, channel })).final();
}

async function moreLike(bot: TestBot, message: FinalMessage, user = OWNER, channel: FakeChannelName = 'normal'): Promise<FinalMessage> {
  return newMessageFrom(await bot.discord.button({ customId: buttonCustomId(message, 'More like this'), message, user, channel }));
}

const shownId = (message: FinalMessage) => message.embeds[0]?.title?.replace(/^Wallpaper /, '');

function selectMenuOf(message: FinalMessage): APIStringSelectComponent {
  const menu = message
    .components!.flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []))
    .find((component): component is APIStringSelectComponent => component.type === ComponentType.StringSelect);
  if (!menu) throw new Error('no select menu on the message');
  return menu;
}

/** The parameters of a request to the fake, in the order they were sent. */
const paramsOf = (request: { query: URLSearchParams }) => [...request.query.entries()];

describe('/wallpaper listings beyond search', () => {
  let bot: TestBot;
  let fake: FakeWallhaven;

  beforeAll(async () => {
    ({ bot, fake } = await startListingsBot());
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  it('lists the toplist of a period in a colour, sending exactly those parameters, and pages it ◀ ▶', async () => {
    const first = await (await wallpaperCommand(bot, 'search', { toplist: '1w', color: 'cc0000' })).final();
    expect(first.ephemeral).toBe(false);
    expect(first.embeds[0]!.description).toBe('All wallpapers · colour Red · sorted by toplist of the last week');
    const [request] = fake.requestsTo('/api/v1/search');
    expect(paramsOf(request!)).toEqual([
      ['categories', '111'],
      ['purity', '100'],
      ['sorting', 'toplist'],
      ['topRange', '1w'],
      ['colors', 'cc0000'],
      ['page', '1'],
    ]);
    expect(request!.headers['x-api-key']).toBe(CANARY_WALLHAVEN_KEY);
    const red = fake.catalogue.filter((w) => w.purity === 'sfw' && w.colors.includes('#cc0000')).sort((a, b) => b.favorites - a.favorites);
    expect(shownId(first)).toBe(red[0]!.id);
    const next = buttonCustomId(first, '▶');
    expect(next.length).toBeLessThanOrEqual(100);
    expect(decodePagerId(next)?.search).toMatchObject({ sorting: 'toplist', topRange: '1w', colour: 'cc0000' });

    const second = await press(bot, first, '▶');
    expect(shownId(second)).toBe(red[1]!.id);
    const back = await press(bot, second, '◀');
    expect(shownId(back)).toBe(red[0]!.id);
    // Both pages came from the one cached upstream page.
    expect(fake.requestsTo('/api/v1/search')).toHaveLength(1);
  });

  it('refuses a toplist period with another sorting, and an unknown colour, before any request', async () => {
    const contradiction = await (await wallpaperCommand(bot, 'search', { toplist: '1y', sorting: 'views' })).final();
    expect(contradiction).toMatchObject({ ephemeral: true, content: en.wallpaper.toplistWithOtherSorting });
    const german = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { color: 'mauve' }, locale: 'de' })).final();
    expect(german).toMatchObject({ ephemeral: true, content: 'Das ist keine der 29 Farben von Wallhaven: Wähle eine aus der Liste.' });
    expect(fake.requests).toHaveLength(0);
  });

  it('completes colours by name in the player’s language, without any request', async () => {
    const exchange = await bot.discord.autocomplete({ name: 'wallpaper', subcommand: 'search', options: { color: 'bleu' }, focused: 'color', locale: 'fr' });
    expect((await exchange.callback()).data?.choices).toEqual([
      { name: 'Bleu (#0066cc)', value: '0066cc' },
      { name: 'Bleu ciel (#0099cc)', value: '0099cc' },
    ]);
    expect(fake.requests).toHaveLength(0);
  });

  it('lists wallpapers like one in a new message owned by whoever pressed, with the purities the channel allows, paged ◀ ▶', async () => {
    const source = fake.byPurity('sfw')[0]!;
    const shown = await (await wallpaperCommand(bot, 'show', { id: source.id })).final();
    const similar = await moreLike(bot, shown, SOMEONE_ELSE);
    expect(similar.ephemeral).toBe(false);
    expect(similar.embeds[0]!.description).toBe(`Wallpapers like ${source.id} · sorted by relevance`);
    const [, request] = fake.requests;
    expect(paramsOf(request!)).toEqual([
      ['categories', '111'],
      ['purity', '100'],
      ['sorting', 'relevance'],
      ['q', `like:${source.id}`],
      ['page', '1'],
    ]);
    // Cloudflare challenges a query string that starts with q=like; ours never does.
    expect(request!.url).toMatch(/\?categories=/);
    // The listing is the presser's: the member who ran /wallpaper show cannot page it.
    expect((await press(bot, similar, '▶')).content).toBe(en.wallpaper.notYourPager);
    const second = await press(bot, similar, '▶', 'normal', SOMEONE_ELSE);
    expect(second.embeds[0]!.footer?.text).toMatch(/^2 \//);
    expect(shownId(await press(bot, second, '◀', 'normal', SOMEONE_ELSE))).toBe(shownId(similar));

    // In an age-restricted channel the listing asks for every purity it may show (NSFW: a key is configured).
    const restricted = await (await wallpaperCommand(bot, 'show', { id: source.id }, 'ageRestricted')).final();
    const all = await moreLike(bot, restricted, OWNER, 'ageRestricted');
    expect(all.embeds[0]!.description).toBe(`Wallpapers like ${source.id} · SFW + Sketchy + NSFW · sorted by relevance`);
    expect(fake.requestsTo('/api/v1/search').at(-1)!.query.get('purity')).toBe('111');
    // Under a search result and a random wallpaper too.
    const searched = await (await wallpaperCommand(bot, 'search', { query: 'nature' })).final();
    expect((await moreLike(bot, searched)).embeds[0]!.description).toMatch(/^Wallpapers like [a-z0-9]{6} · sorted by relevance$/);
    const random = await (await wallpaperCommand(bot, 'random')).final();
    expect(buttonCustomId(random, 'More like this')).toBe(`wp:l${shownId(random)}`);
  });

  it('lists the exact tag picked in a detail view’s menu, titled with its name and category, paged ◀ ▶', async () => {
    const source = fake.byPurity('sfw').find((w) => w.tags.length >= 3)!;
    const shown = await (await wallpaperCommand(bot, 'show', { id: source.id })).final();
    const menu = selectMenuOf(shown);
    expect(menu.custom_id).toBe(`wp:t${source.id}`);
    const { options } = menu;
    expect(options.map((option) => option.label)).toEqual(source.tags.map((tag) => tag.name));
    const tag = source.tags[1]!;
    const picked = options[1]!;
    expect(picked).toEqual({ label: tag.name, value: `${tag.id}:${tag.category}`, description: tag.category });

    const listing = await newMessageFrom(await bot.discord.select({ customId: menu.custom_id, values: [picked.value], message: shown, user: SOMEONE_ELSE }));
    expect(listing.ephemeral).toBe(false);
    expect(listing.embeds[0]!.description).toBe(`Tag “${tag.name}” · ${tag.category} · sorted by newest`);
    expect(paramsOf(fake.requestsTo('/api/v1/search').at(-1)!)).toEqual([
      ['categories', '111'],
      ['purity', '100'],
      ['sorting', 'date_added'],
      ['q', `id:${tag.id}`],
      ['page', '1'],
    ]);
    const tagged = fake.catalogue.filter((w) => w.purity === 'sfw' && w.tags.some((t) => t.id === tag.id)).sort((a, b) => b.created_at.localeCompare(a.created_at));
    expect(shownId(listing)).toBe(tagged[0]!.id);
    const second = await press(bot, listing, '▶', 'normal', SOMEONE_ELSE);
    expect(shownId(second)).toBe(tagged[1]!.id);
    expect(second.embeds[0]!.description).toBe(listing.embeds[0]!.description);
    expect(shownId(await press(bot, second, '◀', 'normal', SOMEONE_ELSE))).toBe(tagged[0]!.id);
  });

  it('lists a user’s public collections, opens one with only the purities the channel allows, and says how many it skipped', async () => {
    const list = await (await wallpaperCommand(bot, 'collections', { user: 'alpha' })).final();
    expect(list.ephemeral).toBe(false);
    expect(list.embeds[0]!.description).toBe('**Favorites** · 30 wallpapers\n**Calm & quiet** · 5 wallpapers');
    expect(fake.requests.map((request) => request.url)).toEqual(['/api/v1/collections/alpha']);
    expect(fake.requests[0]!.headers['x-api-key']).toBe(CANARY_WALLHAVEN_KEY);
    const menu = selectMenuOf(list);
    expect(menu.options.map((option) => [option.label, option.value])).toEqual([
      ['Favorites', '101'],
      ['Calm & quiet', '102'],
    ]);

    // A normal channel: only SFW is asked for, and the 9 sketchy or NSFW of the 30 are said to be skipped.
    const favourites = fake.collections.alpha![0]!.items.map((id) => fake.catalogue.find((w) => w.id === id)!);
    const sfw = favourites.filter((w) => w.purity === 'sfw');
    const opened = await newMessageFrom(await bot.discord.select({ customId: menu.custom_id, values: ['101'], message: list, user: SOMEONE_ELSE }));
    expect(opened.embeds[0]!.description).toBe(`Collection “Favorites” of alpha · ${30 - sfw.length} sketchy or NSFW not shown in this channel`);
    expect(fake.requests.at(-1)!.url).toBe('/api/v1/collections/alpha/101?purity=100&page=1');
    expect(fake.requests.every((request) => !request.url.includes('purity=') || request.query.get('purity') === '100')).toBe(true);
    expect(shownId(opened)).toBe(sfw[0]!.id);
    const second = await press(bot, opened, '▶', 'normal', SOMEONE_ELSE);
    expect(shownId(second)).toBe(sfw[1]!.id);
    expect(second.embeds[0]!.description).toBe(opened.embeds[0]!.description);
    expect(shownId(await press(bot, second, '◀', 'normal', SOMEONE_ELSE))).toBe(sfw[0]!.id);

    // An age-restricted channel, with a key: every purity, nothing skipped.
    const restricted = await (await wallpaperCommand(bot, 'collections', { user: 'alpha' }, 'ageRestricted')).final();
    const all = await newMessageFrom(await bot.discord.select({ customId: menu.custom_id, values: ['101'], message: restricted, channel: 'ageRestricted' }));
    expect(all.embeds[0]!.description).toBe('Collection “Favorites” of alpha · SFW + Sketchy + NSFW');
    expect(fake.requests.at(-1)!.url).toBe('/api/v1/collections/alpha/101?purity=111&page=1');
    expect(all.embeds[0]!.footer?.text).toBe('1 / 30');
  });

  it('pages a list of more than 25 collections, and answers an unknown user or one without public collections in one sentence', async () => {
    const first = await (await wallpaperCommand(bot, 'collections', { user: 'pixelsmith' })).final();
    expect(selectMenuOf(first).options).toHaveLength(25);
    expect(first.embeds[0]!.footer?.text).toBe('1 / 2');
    const second = await press(bot, first, '▶');
    expect(selectMenuOf(second).options.map((option) => option.label)).toEqual(['Set 26', 'Set 27']);
    expect(second.embeds[0]!.footer?.text).toBe('2 / 2');
    // The second page came from the cache.
    expect(fake.requests).toHaveLength(1);

    // The name is quoted as typed, its markdown escaped.
    for (const [user, quoted] of [
      ['night_owl', 'night\\_owl'],
      ['nobody-here', 'nobody-here'],
    ]) {
      const none = await (await wallpaperCommand(bot, 'collections', { user: user! })).final();
      expect(none).toMatchObject({ ephemeral: true, content: `Wallhaven has no public collections for “${quoted}”.` });
    }
  });

  it('answers a name that is no Wallhaven username with the sentence saying so, asking Wallhaven nothing', async () => {
    // `@@x`: one `@` is taken off, as people write a handle, and what is left is no username either.
    for (const user of ['../search', '@@x', ' @@alpha ']) {
      const refused = await (await wallpaperCommand(bot, 'collections', { user })).final();
      expect(refused, user).toMatchObject({ ephemeral: true, content: en.wallpaper.notAUsername });
    }
    expect(fake.requests).toEqual([]);
  });

  it('says so when Cloudflare challenges a like: search, and asks again only a minute later', async () => {
    const shown = await (await wallpaperCommand(bot, 'show', { id: fake.byPurity('sfw')[1]!.id })).final();
    fake.nextResponses.push(htmlPage(403, 'Just a moment...', { 'cf-mitigated': 'challenge' }));
    const challenged = await moreLike(bot, shown);
    expect(challenged).toMatchObject({ ephemeral: true, content: en.wallpaper.similarChallenged });
    const requests = fake.requests.length;
    // Pressing again (or on another wallpaper) sends nothing while the challenge is fresh: no retry storm.
    for (let again = 0; again < 3; again++) expect((await moreLike(bot, shown)).content).toBe(en.wallpaper.similarChallenged);
    expect(fake.requests).toHaveLength(requests);
    // The message pressed on is left as it was.
    expect(shown.embeds[0]!.title).toBe(`Wallpaper ${fake.byPurity('sfw')[1]!.id}`);
  });
});
