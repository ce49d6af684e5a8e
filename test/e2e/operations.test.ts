import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { CANARY_TOKEN, startTestBot, type TestBot } from '../helpers/bot.js';
import { slowCommand } from '../helpers/probe-command.js';

describe('operations', () => {
  let bot: TestBot | undefined;

  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
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
});
