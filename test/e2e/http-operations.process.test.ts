import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeSigningKeys, signatureHeadersFor } from '../fakes/discord-http.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { runEntryPoint, startEntryPoint } from '../helpers/run-script.js';

describe('HTTP mode operations: the real entry points', () => {
  let discord: FakeDiscord | undefined;

  afterEach(async () => {
    await discord?.close();
    discord = undefined;
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
