import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeDiscord } from '../fakes/discord.js';
import type { FakeGeoJs } from '../fakes/geojs.js';
import type { FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestFleet, type TestFleet } from '../helpers/fleet.js';
import { describeWithFleetStores } from '../helpers/fleet-stores.js';
import { answerOf, expectPlainSentence, type FaultProxy } from '../helpers/reliability.js';

/**
 * A fleet (test/helpers/fleet.ts: three shard processes on one Redis): what one instance fetched the
 * others reuse, and a pause one instance meets stops the others. The floods over the fleet, ten
 * times an upstream's limit, are `npm run bench -- --only floods` (bench/floods/fleet.test.ts).
 */

const member = (n: number) => ({ id: `1358${String(n).padStart(15, '0')}`, username: `fleet${n}` });

describeWithFleetStores('a fleet of three shard processes on one Redis', () => {
  let fleet: TestFleet;
  let discord: FakeDiscord;
  let wallhaven: FakeWallhaven;
  let wallhavenProxy: FaultProxy;
  let geo: FakeGeoJs;
  const guildOn = (shard: number, index = 0) => fleet.guildOn(shard, index);

  beforeAll(async () => {
    fleet = await startTestFleet();
    ({ discord, wallhaven, wallhavenProxy, geo } = fleet);
  });

  afterAll(() => fleet?.stop());

  it('the same wallpaper search and the same address asked on two instances cost one upstream request each', async () => {
    const address = '81.2.200.17';
    const resolution = '1234x567';
    const wallhavenBefore = wallhaven.requests.filter((request) => request.query.get('atleast') === resolution).length;
    const geoBefore = geo.requestsTo('/v1/ip/geo').length;
    for (const shard of [0, 1]) {
      const origin = { user: member(5_000 + shard), guildId: guildOn(shard) };
      const found = await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution }, ...origin }));
      expect(found.embeds).toHaveLength(1);
      expect((await answerOf(await discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, ...origin }))).embeds).toHaveLength(1);
    }
    expect(wallhaven.requests.filter((request) => request.query.get('atleast') === resolution).length - wallhavenBefore).toBe(1);
    expect(geo.requestsTo('/v1/ip/geo').length - geoBefore).toBe(1);
  });

  it('a 429 seen through one instance stops the others from sending to Wallhaven until it ends', { timeout: 20_000 }, async () => {
    // Scaled 20×: a 40 s Retry-After pauses the fleet for 2 s.
    wallhavenProxy.reset();
    wallhavenProxy.nextResponses.push({ status: 429, headers: { 'retry-after': '40' }, body: 'Too Many Requests' });
    const first = await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: '400x1' }, user: member(6_000), guildId: guildOn(0) }));
    expectPlainSentence(first);
    const proxied = wallhavenProxy.requests.length;
    for (const shard of [1, 2]) {
      const other = await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `400x${shard + 1}` }, user: member(6_000 + shard), guildId: guildOn(shard) }));
      expectPlainSentence(other);
    }
    expect(wallhavenProxy.requests.length, 'another instance sent to Wallhaven during the pause').toBe(proxied);
    await expect
      .poll(async () => (await answerOf(await discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: '400x9' }, user: member(6_009), guildId: guildOn(2) }))).embeds.length, {
        timeout: 10_000,
        interval: 500,
      })
      .toBe(1);
  });
});
