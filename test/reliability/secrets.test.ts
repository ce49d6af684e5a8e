import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlPage } from '../fakes/fake-server.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { CANARY_TOKEN, CANARY_WALLHAVEN_KEY, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';
import { answerOf, expectNoSecretLeaks, expectPlainSentence, startFaultProxy, type FaultProxy } from '../helpers/reliability.js';

/**
 * The canary bot token and Wallhaven key against everything that could print them, in the
 * situations most likely to: Wallhaven refusing the key (401), upstream failures logged with their
 * errors, a Discord REST failure logged with its request, and the operator endpoints. Every other
 * reliability scenario ends with the same check (`expectNoSecretLeaks`) on its own bot.
 */

describe('secrets under failure', () => {
  let wallhaven: FakeWallhaven;
  let proxy: FaultProxy;
  let geo: FakeGeoJs;
  let bot: TestBot;
  let ops: string;

  beforeAll(async () => {
    // This Wallhaven knows another key: ours is refused everywhere (401).
    wallhaven = await startFakeWallhaven({ apiKey: 'the-key-wallhaven-expects-0000' });
    proxy = await startFaultProxy(wallhaven.url);
    geo = await startFakeGeoJs();
    bot = await startTestBot({
      env: { WALLHAVEN_URL: proxy.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY, GEOJS_URL: geo.url, METRICS_PORT: '0' },
      overrides: { memberShares: { wallhaven: { limit: 10_000 } } },
    });
    ops = `http://127.0.0.1:${bot.app.opsServer!.port}`;
  });

  afterAll(async () => {
    await bot?.stop();
    await proxy?.close();
    await Promise.all([wallhaven?.close(), geo?.close()]);
  });

  it('a refused key gives a plain sentence that names no key', async () => {
    const answer = await answerOf(
      await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: wallhaven.byPurity('sfw')[0]!.id }, channel: 'ageRestricted' }),
    );
    expectPlainSentence(answer, /API key/);
    expect(proxy.requests.at(-1)?.headers['x-api-key']).toBe(CANARY_WALLHAVEN_KEY);
  });

  it('upstream failures and a Discord delivery failure are logged without a secret', async () => {
    proxy.mode = 'reset';
    await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query: 'nature' } }));
    proxy.mode = 'normal';
    proxy.nextResponses.push(htmlPage(429, 'Too many requests - wallhaven.cc'));
    await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random' }));
    geo.mode = 'html500';
    await answerOf(await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '81.2.69.203' } }));
    geo.mode = 'normal';
    let discordFailing = true;
    bot.discord.respondWith(() => discordFailing, { status: 500, body: { message: 'Internal Server Error', code: 0 } }, 100);
    await bot.discord.chatInput({ name: 'status' });
    await expect.poll(() => bot.logs.entries().some((line) => line.msg === 'gave up delivering the answer to Discord'), { timeout: 15_000 }).toBe(true);
    discordFailing = false;
    expect(bot.logs.entries().filter((line) => line.level === 50 || line.level === 40).length).toBeGreaterThan(0);
  });

  it('/status, /metrics, /healthz and /readyz show no secret', async () => {
    const status = await answerOf(await bot.discord.chatInput({ name: 'status' }));
    expect(status.embeds.length).toBeGreaterThan(0);
    const pages = await Promise.all(['/metrics', '/healthz', '/readyz'].map(async (path) => (await fetch(`${ops}${path}`)).text()));
    expect(pages[0]).toContain('almanac_upstream_requests_total');
    for (const page of pages) {
      expect(page).not.toContain(CANARY_TOKEN);
      expect(page).not.toContain(CANARY_WALLHAVEN_KEY);
    }
    expect(everythingSentToDiscord(bot.discord)).not.toContain(CANARY_WALLHAVEN_KEY);
  });

  it('no secret in any log line, anything sent to Discord, /status data, /metrics or an upstream URL', async () => {
    expect(bot.logs.lines.length).toBeGreaterThan(5);
    await expectNoSecretLeaks(bot, [proxy, wallhaven, geo]);
  });
});
