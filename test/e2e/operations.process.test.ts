import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeSigningKeys, signatureHeadersFor } from '../fakes/discord-http.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { runEntryPoint, startEntryPoint } from '../helpers/run-script.js';

/** The real entry points an operator runs, against the fake Discord: `npm start`, `npm run start:http`, `npm run register`. */

interface RegisteredCommand {
  name: string;
  type?: number;
  required?: boolean;
  integration_types?: number[];
  contexts?: number[];
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: RegisteredCommand[];
  choices?: { value: string; name_localizations?: Record<string, string> }[];
}

let discord: FakeDiscord | undefined;

afterEach(async () => {
  await discord?.close();
  discord = undefined;
});

describe('npm start and npm run start:http', () => {
  it('npm start: SIGTERM makes the real entry point exit 0 promptly', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const bot = startEntryPoint('src/index.ts', [], { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: discord.apiUrl, NODE_ENV: 'production' });
    await discord.ready();
    await (await discord.chatInput({ name: 'status' })).callback();
    const signalledAt = Date.now();
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(8_000);
    expect(bot.output()).toContain('"msg":"stopped"');
    expect(bot.output()).not.toContain(CANARY_TOKEN);
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
});

describe('npm run register', () => {
  it('publishes integration types, contexts and fr/de/it/pt-BR localizations in one PUT', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const result = await runEntryPoint('src/register.ts', [], { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: discord.apiUrl });
    expect(result.code).toBe(0);
    const puts = discord.calls.filter((call) => call.method === 'PUT');
    expect(puts).toHaveLength(1);
    const body = puts[0]!.json as RegisteredCommand[];
    const byName = new Map(body.map((command) => [command.name, command]));

    for (const name of ['card', 'ip', 'wallpaper', 'Locate IP addresses', 'deck', 'Read deck']) {
      expect(byName.get(name)?.integration_types, name).toEqual([0, 1]);
      expect(byName.get(name)?.contexts, name).toEqual([0, 1, 2]);
    }
    expect(byName.get('status')?.integration_types).toEqual([0]);
    expect(byName.get('status')?.contexts).toEqual([0]);

    const card = byName.get('card')!;
    expect(card.name_localizations).toEqual({ fr: 'carte', de: 'karte', it: 'carta', 'pt-BR': 'carta' });
    expect(card.description_localizations?.fr).toBe('Recherche de cartes Yu-Gi-Oh!');
    const show = card.options!.find((option) => option.name === 'show')!;
    expect(show.name_localizations?.de).toBe('zeigen');
    const language = show.options!.find((option) => option.name === 'language')!;
    expect(language.choices!.find((choice) => choice.value === 'fr')?.name_localizations?.['pt-BR']).toBe('Francês');
    expect(byName.get('Locate IP addresses')?.name_localizations?.it).toBe('Localizza indirizzi IP');
    expect(byName.get('Read deck')?.name_localizations?.fr).toBe('Lire le deck');
    const deckShow = byName.get('deck')!.options!.find((option) => option.name === 'show')!;
    expect(deckShow.options!.map((option) => [option.name, option.type, option.required ?? false])).toEqual([
      ['url', 3, false],
      ['file', 11, false],
      ['public', 5, false],
      ['points-cap', 4, false],
    ]);
  });

  it('npm run register bulk-overwrites the guild commands when DEV_GUILD_ID is set, else global', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const env = { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: discord.apiUrl };
    const guild = await runEntryPoint('src/register.ts', [], { ...env, DEV_GUILD_ID: discord.guildId });
    expect(guild.code).toBe(0);
    expect(guild.stdout).toContain(`to guild ${discord.guildId}`);
    const global = await runEntryPoint('src/register.ts', [], env);
    expect(global.code).toBe(0);
    const puts = discord.calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => call.path)).toEqual([
      `/applications/${discord.applicationId}/guilds/${discord.guildId}/commands`,
      `/applications/${discord.applicationId}/commands`,
    ]);
    const names = (puts[0]!.json as { name: string }[]).map((command) => command.name);
    expect(names).toEqual(commands.map((command) => command.data.name));
    expect(guild.stdout + guild.stderr + global.stdout + global.stderr).not.toContain(CANARY_TOKEN);
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
