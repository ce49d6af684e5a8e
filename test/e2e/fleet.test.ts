import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { htmlPage } from '../fakes/fake-server.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, WALLHAVEN_CATALOGUE, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { buttonCustomId, newMessageFrom } from '../helpers/components.js';
import { describeWithFleetStores, startFleetStores, type FleetStores } from '../helpers/fleet-stores.js';
import { answerOf } from '../helpers/reliability.js';

/**
 * Two complete bots (each its own discord.js client, fake Discord and DATA_DIR, as two hosts would
 * have) sharing one real Redis through REDIS_URL (and one PostgreSQL database through DATABASE_URL),
 * against one set of fake upstreams.
 */

const OWNER = { id: '1356000000000000200', username: 'tester' };


describeWithFleetStores('two bots sharing one Redis', () => {
  let stores: FleetStores;
  let wallhaven: FakeWallhaven;
  let geojs: FakeGeoJs;
  let bots: TestBot[] = [];

  beforeAll(async () => {
    stores = await startFleetStores();
    wallhaven = await startFakeWallhaven();
    geojs = await startFakeGeoJs();
    const env = { ...stores.env, WALLHAVEN_URL: wallhaven.url, GEOJS_URL: geojs.url };
    bots = [await startTestBot({ env }), await startTestBot({ env })];
  });

  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await wallhaven?.close();
    await geojs?.close();
    await stores?.stop();
  });

  beforeEach(() => {
    wallhaven.reset();
    geojs.reset();
  });

  it('costs one upstream request for the same wallpaper or address asked on both', async () => {
    const id = WALLHAVEN_CATALOGUE[3]!.id;
    for (const bot of bots) {
      const shown = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id } })).final();
        expect(shown.embeds[0]?.title).toBe(`Wallpaper ${id}`);
    }
    expect(wallhaven.requests).toHaveLength(1);

    for (const bot of bots) {
      const located = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '1.1.1.1' } })).final();
      expect(JSON.stringify(located.embeds)).toContain('Cloudflare');
    }
    expect(geojs.requests).toHaveLength(1);
  });

  it('pages on one bot through a long query stored by the other', async () => {
    const query = 'nature '.repeat(20).trim();
    const first = await (await bots[0]!.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query } })).final();
    const paged = await (await bots[1]!.discord.button({ customId: buttonCustomId(first, '▶'), message: first, user: OWNER })).final();
    expect(paged.content).not.toBe(en.wallpaper.forgottenQuery);
    expect(paged.content).toBe("");
    expect(paged.embeds[0]?.footer?.text).toMatch(/^2 \//);
  });

  it('pages a collection opened on one bot from the other', async () => {
    const list = await (await bots[0]!.discord.chatInput({ name: 'wallpaper', subcommand: 'collections', options: { user: 'alpha' }, user: OWNER })).final();
    const collection = await newMessageFrom(await bots[0]!.discord.select({ customId: 'wp:oalpha', values: ['101'], message: list, user: OWNER }));
    // The page and the collection's title both come from what the first bot fetched: no request.
    const requests = wallhaven.requests.length;
    const paged = await (await bots[1]!.discord.button({ customId: buttonCustomId(collection, '▶'), message: collection, user: OWNER })).final();
    expect(paged.embeds[0]?.footer?.text).toMatch(/^2 \//);
    expect(paged.embeds[0]?.description).toBe(collection.embeds[0]?.description);
    expect(wallhaven.requests).toHaveLength(requests);
  });

  it('stops the other bot from sending to Wallhaven after a 429 seen by one, and shows the fleet in /status', async () => {
    wallhaven.nextResponses.push(htmlPage(429, 'Too many requests - wallhaven.cc', { 'retry-after': '30' }));
    const refused = await answerOf(await bots[0]!.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: WALLHAVEN_CATALOGUE[5]!.id } }));
    expect(refused.embeds).toHaveLength(0);
    expect(refused.ephemeral).toBe(true);
    expect(wallhaven.requests).toHaveLength(1);

    const other = await answerOf(await bots[1]!.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: WALLHAVEN_CATALOGUE[6]!.id } }));
    expect(other.embeds).toHaveLength(0);
    expect(other.content).toMatch(/Wallhaven/);
    expect(wallhaven.requests).toHaveLength(1);

    const status = await (await bots[1]!.discord.chatInput({ name: 'status' })).final();
    const fleet = status.embeds[0]?.fields?.find((field) => field.name.endsWith('Fleet'));
    expect(fleet?.value).toContain('Shared state: Redis');
    expect(fleet?.value).toMatch(/Processes: 2 · shards: 0 · guilds: \d+/);
    expect(fleet?.value).toMatch(/Wallhaven: \d+ requests in the last minute, 0 waiting · ⏸️ until/);
  });
});
