import { ComponentType, MessageFlags, type APIButtonComponent, type APIComponentInContainer, type APIContainerComponent, type APIMediaGalleryComponent, type APIStringSelectComponent } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { decodePagerId } from '../../src/wallpaper/pager-state.js';
import type { FakeChannelName, FinalMessage, OptionValue } from '../fakes/discord.js';
import { APPLICATION_ID } from '../fakes/discord-guilds.js';
import { type FakeWallhaven, type FakeWallpaper } from '../fakes/wallhaven.js';
import type { TestBot } from '../helpers/bot.js';
import { startListingsBot } from '../helpers/wallhaven-bot.js';
import { buttonCustomId, newMessageFrom } from '../helpers/components.js';

/**
 * A listing's grid, end to end through the fake Discord (which refuses any component payload
 * Discord would) and the fake Wallhaven (24 results a page): ten thumbnails from a page of 24, the
 * menu opening the 7th, ◀ ▶ across Wallhaven's pages, its owner alone paging, and sketchy never in
 * a grid outside an age-restricted channel.
 */

const OWNER = { id: '1356000000000000200', username: 'tester' };
const SOMEONE_ELSE = { id: '1356000000000000777', username: 'someone-else' };

function search(bot: TestBot, options: Record<string, OptionValue> = {}, channel: FakeChannelName = 'normal') {
  return bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options, channel, user: OWNER });
}

function insideOf(message: FinalMessage): APIComponentInContainer[] {
  const [container] = message.components ?? [];
  expect(container?.type).toBe(ComponentType.Container);
  return (container as APIContainerComponent).components;
}

function galleryIds(message: FinalMessage): string[] {
  const gallery = insideOf(message).find((component): component is APIMediaGalleryComponent => component.type === ComponentType.MediaGallery);
  return (gallery?.items ?? []).map((item) => item.description!.replace(/^\d+\. /, ''));
}

function rowComponents(message: FinalMessage) {
  return insideOf(message).flatMap((component) => (component.type === ComponentType.ActionRow ? component.components : []));
}

function gridButton(message: FinalMessage, label: string): APIButtonComponent & { custom_id: string } {
  const button = rowComponents(message).find((component) => component.type === ComponentType.Button && 'label' in component && component.label === label);
  if (!button) throw new Error(`no ${label} button on the grid`);
  return button as APIButtonComponent & { custom_id: string };
}

function pickMenu(message: FinalMessage): APIStringSelectComponent {
  const menu = rowComponents(message).find((component): component is APIStringSelectComponent => component.type === ComponentType.StringSelect);
  if (!menu) throw new Error('no menu on the grid');
  return menu;
}

async function openGrid(bot: TestBot, listing: FinalMessage, user = OWNER, channel: FakeChannelName = 'normal'): Promise<FinalMessage> {
  return newMessageFrom(await bot.discord.button({ customId: buttonCustomId(listing, 'Grid'), message: listing, user, channel }));
}

async function pressOnGrid(bot: TestBot, grid: FinalMessage, label: '◀' | '▶', user = OWNER, channel: FakeChannelName = 'normal'): Promise<FinalMessage> {
  return (await bot.discord.button({ customId: gridButton(grid, label).custom_id, message: grid, user, channel })).final();
}

const newestFirst = (wallpapers: FakeWallpaper[]) => [...wallpapers].sort((a, b) => b.created_at.localeCompare(a.created_at)).map((w) => w.id);
const searchPages = (fake: FakeWallhaven) => fake.requestsTo('/api/v1/search').map((request) => request.query.get('page'));

describe('/wallpaper grid', () => {
  let bot: TestBot;
  let fake: FakeWallhaven;
  let sfwNewest: string[];

  beforeAll(async () => {
    ({ bot, fake } = await startListingsBot());
    sfwNewest = newestFirst(fake.byPurity('sfw'));
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  it('opens ten of a 24-result page as a Components V2 gallery owned by who pressed, and its menu opens the 7th', async () => {
    const listing = await (await search(bot)).final();
    expect(listing.embeds[0]!.footer?.text).toBe(`1 / ${sfwNewest.length}`);
    const grid = await openGrid(bot, listing, SOMEONE_ELSE);
    expect(grid.flags! & MessageFlags.IsComponentsV2).toBe(MessageFlags.IsComponentsV2);
    expect(grid.content).toBe('');
    expect(grid.embeds).toEqual([]);
    expect(grid.ephemeral).toBe(false);
    expect(galleryIds(grid)).toEqual(sfwNewest.slice(0, 10));
    const heading = insideOf(grid)[0];
    expect(heading).toMatchObject({ type: ComponentType.TextDisplay, content: `All wallpapers · sorted by newest\n1–10 of ${sfwNewest.length}` });
    expect(insideOf(grid)[2]).toMatchObject({ type: ComponentType.TextDisplay, content: expect.stringMatching(/^\*\*1\*\* \[\w+\]\(https:\/\/wallhaven\.cc\/w\/\w+\) · \*\*2\*\* /) });
    // The grid came from the page the listing had already read: no new request.
    expect(searchPages(fake)).toEqual(['1']);
    expect(gridButton(grid, '◀').disabled).toBe(true);

    const menu = pickMenu(grid);
    expect(menu.options.map((option) => option.label)).toEqual(sfwNewest.slice(0, 10).map((id, at) => `${at + 1}. ${id}`));
    expect(menu.custom_id.length).toBeLessThanOrEqual(100);
    const picked = await newMessageFrom(await bot.discord.select({ customId: menu.custom_id, values: [menu.options[6]!.value], message: grid, user: OWNER }));
    expect(picked.embeds[0]!.title).toBe(`Wallpaper ${sfwNewest[6]}`);
    expect(picked.embeds[0]!.footer?.text).toBe(`7 / ${sfwNewest.length}`);
    // The single view is the picker's own: they page it on from the 7th.
    const eighth = await (await bot.discord.button({ customId: buttonCustomId(picked, '▶'), message: picked, user: OWNER })).final();
    expect(eighth.embeds[0]!.title).toBe(`Wallpaper ${sfwNewest[7]}`);
    expect(searchPages(fake)).toEqual(['1']);
  });

  it('pages ◀ ▶ by ten across Wallhaven’s pages of 24, its owner alone; anyone else is told privately', async () => {
    // A filter no other test uses: the bot's cache of the pages starts empty.
    const grid = await openGrid(bot, await (await search(bot, { resolution: '1x1' })).final());
    expect(searchPages(fake)).toEqual(['1']);
    const second = await pressOnGrid(bot, grid, '▶');
    expect(galleryIds(second)).toEqual(sfwNewest.slice(10, 20));
    const third = await pressOnGrid(bot, second, '▶');
    // 21–30: the last four of page 1 and the first six of page 2.
    expect(galleryIds(third)).toEqual(sfwNewest.slice(20, 30));
    expect(searchPages(fake)).toEqual(['1', '2']);
    expect(insideOf(third)[0]).toMatchObject({ content: expect.stringContaining(`21–30 of ${sfwNewest.length}`) });
    expect(decodePagerId(gridButton(third, '▶').custom_id)).toMatchObject({ action: 'grid-next', index: 20 });

    const refused = await pressOnGrid(bot, third, '◀', SOMEONE_ELSE);
    expect(refused).toMatchObject({ ephemeral: true, content: en.wallpaperGrid.notYourGrid });

    const back = await pressOnGrid(bot, third, '◀');
    expect(galleryIds(back)).toEqual(sfwNewest.slice(10, 20));
    // Both pages were cached: paging back cost nothing.
    expect(searchPages(fake)).toEqual(['1', '2']);

    // To the end: 84 results, the last grid holds 81–84 and ▶ is off.
    let last = back;
    while (!gridButton(last, '▶').disabled) last = await pressOnGrid(bot, last, '▶');
    expect(galleryIds(last)).toEqual(sfwNewest.slice(80));
    expect(searchPages(fake)).toEqual(['1', '2', '3', '4']);
  });

  it('never shows sketchy in a grid outside an age-restricted channel', async () => {
    // In an age-restricted channel a sketchy search's grid shows sketchy wallpapers…
    const sketchyListing = await (await search(bot, { purity: 'sketchy' }, 'ageRestricted')).final();
    const sketchyGrid = await openGrid(bot, sketchyListing, OWNER, 'ageRestricted');
    expect(galleryIds(sketchyGrid)).toEqual(newestFirst(fake.byPurity('sketchy')).slice(0, 10));
    const requests = fake.requests.length;
    // …but the same buttons pressed in a channel that is not (or no longer) age-restricted are refused privately, before any request.
    for (const [label, message] of [
      ['Grid', sketchyListing],
      ['▶', sketchyGrid],
    ] as const) {
      const customId = label === 'Grid' ? buttonCustomId(message, label) : gridButton(message, label).custom_id;
      const refused = await (await bot.discord.button({ customId, message, user: OWNER, channel: 'normal' })).final();
      expect(refused).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedInChannel });
    }
    const menu = pickMenu(sketchyGrid);
    const picked = await (await bot.discord.select({ customId: menu.custom_id, values: [menu.options[0]!.value], message: sketchyGrid, user: OWNER, channel: 'dm' })).final();
    expect(picked).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedInDm });
    expect(fake.requests.length).toBe(requests);

    // More like this in an ordinary channel asks for SFW only, and its grid shows only SFW.
    const before = fake.requestsTo('/api/v1/search').length;
    const detail = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: sfwNewest[0]! }, user: OWNER })).final();
    const similar = await newMessageFrom(await bot.discord.button({ customId: buttonCustomId(detail, 'More like this'), message: detail, user: OWNER }));
    const similarGrid = await openGrid(bot, similar);
    const similarRequests = fake.requestsTo('/api/v1/search').slice(before);
    expect(similarRequests.map((request) => request.query.get('purity'))).toEqual(['100']);
    const purities = galleryIds(similarGrid).map((id) => fake.catalogue.find((w) => w.id === id)!.purity);
    expect(purities.length).toBeGreaterThan(0);
    expect(new Set(purities)).toEqual(new Set(['sfw']));
  });

  it('the fake Discord refuses a grid Discord would refuse: the same payload with an 11th thumbnail, or with content', async () => {
    const listing = await (await search(bot)).final();
    const exchange = await bot.discord.button({ customId: buttonCustomId(listing, 'Grid'), message: listing, user: OWNER });
    const grid = await newMessageFrom(exchange);
    const post = (body: object) =>
      fetch(`${bot.discord.apiUrl}/v10/webhooks/${APPLICATION_ID}/${exchange.token}?wait=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const good = { flags: MessageFlags.IsComponentsV2, components: grid.components };
    expect((await post(good)).status).toBe(200);
    const [container] = grid.components as [APIContainerComponent];
    const eleven = structuredClone(container);
    const gallery = eleven.components.find((component): component is APIMediaGalleryComponent => component.type === ComponentType.MediaGallery)!;
    gallery.items.push(gallery.items[0]!);
    const tooMany = await post({ flags: MessageFlags.IsComponentsV2, components: [eleven] });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toMatch(/1–10 items/);
    expect((await post({ ...good, content: 'hello' })).status).toBe(400);
    const longId = structuredClone(container);
    (longId.components.find((component) => component.type === ComponentType.ActionRow)!.components[0] as { custom_id: string }).custom_id = 'x'.repeat(101);
    expect((await post({ flags: MessageFlags.IsComponentsV2, components: [longId] })).status).toBe(400);
    // Without the flag, a container is no legacy message's component.
    expect((await post({ components: grid.components })).status).toBe(400);
  });
});
