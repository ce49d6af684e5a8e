import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { CANARY_TOKEN, startTestBot, type TestBot } from '../helpers/bot.js';
import { slowCommand } from '../helpers/probe-command.js';
import { runEntryPoint, startEntryPoint } from '../helpers/run-script.js';

describe('operations', () => {
  let bot: TestBot | undefined;
  let discord: FakeDiscord | undefined;

  afterEach(async () => {
    await bot?.stop();
    await discord?.close();
    bot = undefined;
    discord = undefined;
  });

  it('serves /healthz, /readyz and /metrics with interaction counts', async () => {
    bot = await startTestBot({ env: { METRICS_PORT: '0' } });
    const port = bot.app.opsServer!.port;
    await (await bot.discord.chatInput({ name: 'status' })).callback();
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).text()).toBe('ready\n');
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/almanac_interactions_total\{command="status",kind="chat",outcome="ok"\} 1/);
    expect(metrics).toContain('almanac_interaction_duration_seconds_bucket');
    expect(metrics).toContain('process_resident_memory_bytes');
    // The acknowledgement apart from the final answer, with a bucket at Discord's 3 s.
    expect(metrics).toMatch(/almanac_interaction_acknowledgement_seconds_bucket\{le="3",command="status",kind="chat"\} 1/);
    expect(metrics).toMatch(/almanac_interaction_acknowledgement_seconds_count\{command="status",kind="chat"\} 1/);
    // Each upstream's limit beside its rate: Wallhaven one request per 1.4 s, YGOPRODeck 8 a second.
    expect(metrics).toMatch(/almanac_upstream_limit_requests_per_second\{upstream="wallhaven"\} 0\.714/);
    expect(metrics).toMatch(/almanac_upstream_limit_requests_per_second\{upstream="ygoprodeck"\} 8\b/);
    expect(metrics).toMatch(/almanac_upstream_limit_requests_per_second\{upstream="geojs"\} 9\.09/);
    expect(metrics).toMatch(/almanac_fleet_processes 1\b/);
    expect(metrics).toMatch(/almanac_fleet_shards 1\b/);
    expect(metrics).toMatch(/almanac_gateway_shard_ready\{gateway_shard="0"\} 1\b/);
    // Discord's REST answers by status (the reply to /status and the start-up's requests).
    expect(metrics).toMatch(/almanac_discord_responses_total\{status="20\d"\} [1-9]/);
    expect(metrics).not.toMatch(/almanac_discord_responses_total\{status="(401|403|429)"\}/);
    expect(metrics).toMatch(/almanac_upstream_paused\{upstream="geojs"\} 0/);
    expect(metrics).toMatch(/almanac_upstream_paused\{upstream="ygoprodeck"\} 0/);
    expect(metrics).toMatch(/almanac_service_fact\{upstream="ygoprodeck",fact="cardDatabaseSize"\} 0/);
    expect(metrics).not.toContain(CANARY_TOKEN);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it('on stop, finishes interactions in flight and refuses new ones with a plain sentence', async () => {
    bot = await startTestBot({ commands: [...commands, slowCommand] });
    const inFlight = await bot.discord.chatInput({ name: 'slow' });
    await inFlight.callback();
    const stopping = bot.app.stop();
    const late = await bot.discord.chatInput({ name: 'status' });
    expect((await late.final()).content).toBe('Almanac is restarting; please try again in a few seconds.');
    expect((await inFlight.waitForEdit()).message.content).toBe('done after all');
    await stopping;
    expect(bot.app.isReady()).toBe(false);
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
