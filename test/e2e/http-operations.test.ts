import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { commands } from '../../commands/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeSigningKeys, signatureHeadersFor } from '../fakes/discord-http.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import { slowCommand } from '../helpers/probe-command.js';
import { runEntryPoint, startEntryPoint } from '../helpers/run-script.js';

describe('HTTP mode operations', () => {
  let bot: TestHttpBot | undefined;
  let discord: FakeDiscord | undefined;
  let ygoprodeck: FakeYgoprodeck | undefined;

  afterEach(async () => {
    await bot?.stop();
    await discord?.close();
    await ygoprodeck?.close();
    bot = discord = ygoprodeck = undefined;
  });

  it('is ready on /readyz only once the card database is loaded; /healthz and /metrics as in gateway mode', async () => {
    bot = await startTestHttpBot({ env: { METRICS_PORT: '0' } });
    const base = `http://127.0.0.1:${bot.app.opsServer!.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // No card database (YGOPRODeck unreachable, no snapshot): serving, but not ready.
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    await fetch(bot.url, { method: 'POST', body: '{}' });
    await (await bot.discord.chatInput({ name: 'status' })).callback();
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('almanac_interaction_requests_total{status="401"} 1');
    expect(metrics).toMatch(/almanac_interactions_total\{command="status",kind="chat",outcome="ok"\} 1/);
    await bot.stop();

    ygoprodeck = await startFakeYgoprodeck();
    bot = await startTestHttpBot({
      // MESSAGE_SEARCH asks for what HTTP mode cannot have: it says so and serves interactions as ever.
      env: { METRICS_PORT: '0', YGOPRODECK_URL: ygoprodeck.url, MESSAGE_SEARCH: 'true' },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    expect(await (await fetch(`http://127.0.0.1:${bot.app.opsServer!.port}/readyz`)).text()).toBe('ready\n');
    expect(bot.logs.text).toContain('MESSAGE_SEARCH has no effect in HTTP mode');
  });

  it('on stop, answers the interactions in flight and refuses new ones with a plain sentence', async () => {
    bot = await startTestHttpBot({ commands: [...commands, slowCommand] });
    const inFlight = await bot.discord.chatInput({ name: 'slow' });
    await inFlight.callback();
    const stopping = bot.app.stop();
    expect(bot.app.isReady()).toBe(false);
    const late = await bot.discord.chatInput({ name: 'status' });
    expect((await late.final()).content).toBe(en.errors.shuttingDown);
    expect((await inFlight.waitForEdit()).message.content).toBe('done after all');
    await stopping;
  });

  it('npm run start:http: needs DISCORD_PUBLIC_KEY (not DISCORD_TOKEN), answers PING, and exits 0 on SIGTERM', async () => {
    const missing = await runEntryPoint('src/start-http.ts', [], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('DISCORD_PUBLIC_KEY: is required');
    expect(missing.stderr).not.toContain('DISCORD_TOKEN');

    discord = await startFakeDiscord();
    const keys = nodeSigningKeys();
    const server = startEntryPoint('src/start-http.ts', [], { DISCORD_PUBLIC_KEY: keys.publicKeyHex, INTERACTIONS_PORT: '0', DISCORD_API_URL: discord.apiUrl, NODE_ENV: 'production' });
    await expect.poll(() => server.output(), { timeout: 20_000 }).toContain('serving HTTP interactions');
    const port = Number(/"port":(\d+)/.exec(server.output())![1]);
    const ping = JSON.stringify({ id: '1', application_id: discord.applicationId, token: 't', type: 1, version: 1 });
    const pong = await fetch(`http://127.0.0.1:${port}/interactions`, { method: 'POST', headers: signatureHeadersFor(keys, ping), body: ping });
    expect(await pong.json()).toEqual({ type: 1 });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(discord.identifyCount).toBe(0);
  });

  it('npm run register -- --endpoint <url> registers the commands and sets the Interactions Endpoint URL', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const env = { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: discord.apiUrl };
    const registered = await runEntryPoint('src/register.ts', ['--endpoint', 'https://almanac.example.com/interactions'], env);
    expect(registered.code).toBe(0);
    expect(registered.stdout).toContain('Interactions endpoint set to https://almanac.example.com/interactions');
    expect(discord.calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
    expect(discord.applicationEdits).toEqual([{ interactions_endpoint_url: 'https://almanac.example.com/interactions' }]);
    const patch = discord.calls.find((call) => call.method === 'PATCH')!;
    expect(patch.path).toBe('/applications/@me');
    expect(patch.headers.authorization).toBe(`Bot ${CANARY_TOKEN}`);

    const refused = await runEntryPoint('src/register.ts', ['--endpoint', 'not a url'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--endpoint must be the public https URL');
    expect(discord.applicationEdits).toHaveLength(1);
    expect(registered.stdout + registered.stderr + refused.stderr).not.toContain(CANARY_TOKEN);
  });
});
