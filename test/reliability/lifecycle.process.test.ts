import { mkdtemp, rm } from 'node:fs/promises';
import { en } from '../../src/i18n/en.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InteractionResponseType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { answerOf, startFaultProxy, type FaultProxy } from '../helpers/reliability.js';
import { startEntryPoint } from '../helpers/run-script.js';

/**
 * The real entry point (`npm start`) stopped by SIGTERM while interactions are in flight: they are
 * finished, new ones are refused with a plain sentence, and the process exits 0 within 8 s.
 * (The card database snapshot's crash and corruption cases are in test/services/ygoprodeck/card-database.test.ts.)
 */

describe('SIGTERM during interactions in flight, real entry point', () => {
  let discord: FakeDiscord | undefined;
  let geo: FakeGeoJs | undefined;
  let proxy: FaultProxy | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    await discord?.close();
    await proxy?.close();
    await geo?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the lookups in flight, refuses new work, and exits 0 within 8 s', { timeout: 30_000 }, async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    geo = await startFakeGeoJs();
    proxy = await startFaultProxy(geo.url);
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-sigterm-'));
    const bot = startEntryPoint('src/index.ts', [], {
      DISCORD_TOKEN: CANARY_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      GEOJS_URL: proxy.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
    });
    await discord.ready();

    // GeoJS answers after 2 s: these lookups are deferred and still waiting when SIGTERM arrives.
    proxy.mode = 'slow';
    proxy.slowMs = 2_000;
    const addresses = ['8.8.8.8', '1.1.1.1', '81.2.69.142'];
    const inFlight = await Promise.all(addresses.map((address) => discord!.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address } })));
    for (const exchange of inFlight) expect((await exchange.callback()).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    await expect.poll(() => proxy!.requests.length).toBeGreaterThan(0);

    const signalledAt = Date.now();
    bot.child.kill('SIGTERM');
    await expect.poll(() => bot.output()).toContain('"msg":"shutting down"');
    const late = await answerOf(await discord.chatInput({ name: 'status' }));
    expect(late).toMatchObject({ content: en.errors.shuttingDown, ephemeral: true });

    const answers = await Promise.all(inFlight.map((exchange) => answerOf(exchange)));
    expect(answers.map((answer) => answer.embeds[0]?.title)).toEqual(addresses);
    expect(await bot.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(8_000);
    expect(bot.output()).toContain('"msg":"stopped"');
    expect(bot.output()).not.toContain('stopped with interactions still in flight');
    expect(bot.output()).not.toContain(CANARY_TOKEN);
  });
});
