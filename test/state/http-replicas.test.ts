import { afterAll, beforeAll, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { decodePagerId } from '../../src/wallpaper/pager-state.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeSigningKeys, signatureHeadersFor } from '../fakes/discord-http.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import { buttonCustomId } from '../helpers/components.js';
import { describeWithFleetStores, startFleetStores, type FleetStores } from '../helpers/fleet-stores.js';

describeWithFleetStores('HTTP mode: stateless replicas sharing Redis behind one endpoint', () => {
  let stores: FleetStores;
  let discord: FakeDiscord;
  let wallhaven: FakeWallhaven;
  const replicas: TestHttpBot[] = [];

  beforeAll(async () => {
    [stores, discord, wallhaven] = await Promise.all([startFleetStores(), startFakeDiscord(), startFakeWallhaven()]);
    const keys = nodeSigningKeys();
    for (let index = 0; index < 2; index++) {
      replicas.push(
        await startTestHttpBot({
          discord,
          keys,
          env: { ...stores.env, WALLHAVEN_URL: wallhaven.url },
          overrides: { startCardDatabase: false },
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await discord?.close();
    await wallhaven?.close();
    await stores?.stop();
  });

  it('pages a search on one replica from a button pressed on the other (the long query lives in Redis)', async () => {
    const [first, second] = replicas;
    // Too long for a custom_id: the pager keeps it in the shared state and the button carries a key.
    const query = 'nature '.repeat(20).trim();
    first!.receiveInteractions();
    const search = await (await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query } })).final();
    const customId = buttonCustomId(search, '▶');
    expect(decodePagerId(customId)?.search.query.kind).toBe('stored');

    second!.receiveInteractions();
    const press = await discord.button({ customId, message: search });
    const paged = await press.final();
    expect(paged.content).not.toBe(en.wallpaper.forgottenQuery);
    expect(paged.embeds[0]?.description).toContain(query);
    expect(paged.embeds[0]?.footer?.text).toMatch(/^2 \/ \d+$/);
    // The press really went to the other process.
    expect(second!.logs.entries().some((line) => line.interactionId === press.id && line.msg === 'interaction answered')).toBe(true);
    expect(first!.logs.entries().some((line) => line.interactionId === press.id)).toBe(false);
  });

  it('runs a signed interaction once, whichever replicas its repeats reach, even at the same moment', async () => {
    const [first, second] = replicas;
    first!.receiveInteractions();
    const exchange = await discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '10.0.0.1' } });
    expect((await exchange.final()).embeds.map((embed) => embed.title)).toEqual(['10.0.0.1']);
    const post = (replica: TestHttpBot, payload: object) => {
      const body = JSON.stringify(payload);
      return fetch(replica.url, { method: 'POST', headers: signatureHeadersFor(replica.keys, body), body });
    };
    for (const replica of [second!, first!, second!]) {
      const repeat = await post(replica, exchange.payload);
      expect(repeat.status).toBe(200);
      expect(await repeat.text()).toBe('');
    }
    // Another interaction sent to both replicas at once: one of them runs it.
    const twin = { ...exchange.payload, id: String(BigInt(exchange.id) + 1n) };
    const bodies = await Promise.all(replicas.map(async (replica) => (await post(replica, twin)).text()));
    expect(bodies.filter((body) => body === '')).toHaveLength(1);
    expect(JSON.parse(bodies.find((body) => body !== '')!)).toMatchObject({ type: 4 });

    const answered = replicas.flatMap((replica) => replica.logs.entries()).filter((line) => line.msg === 'interaction answered');
    expect(answered.filter((line) => line.interactionId === exchange.id)).toHaveLength(1);
    expect(answered.filter((line) => line.interactionId === twin.id)).toHaveLength(1);
  });
});
