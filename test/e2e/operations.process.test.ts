import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { runEntryPoint, startEntryPoint } from '../helpers/run-script.js';

describe('operations: the real entry points', () => {
  let discord: FakeDiscord | undefined;

  afterEach(async () => {
    await discord?.close();
    discord = undefined;
  });

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
});
