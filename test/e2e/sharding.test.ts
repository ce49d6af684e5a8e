import { InteractionResponseType } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shardOf, startFakeDiscord, type FakeDiscord, type InteractionOrigin } from '../fakes/discord.js';
import { CANARY_TOKEN, startTestBot, type TestBot } from '../helpers/bot.js';

const SHARD_COUNT = 2;

/** The guild ids of `shard`, in the fake's order. */
function guildsOfShard(discord: FakeDiscord, shard: number): string[] {
  return discord.guilds.filter((guild) => shardOf(guild.id, SHARD_COUNT) === shard).map((guild) => guild.id);
}

/** Sends /status from `origin` and returns the interaction id once the bot acknowledged it. */
async function askStatus(discord: FakeDiscord, origin: InteractionOrigin): Promise<string> {
  const exchange = await discord.chatInput({ name: 'status', ...origin });
  expect((await exchange.callback()).type).toBe(InteractionResponseType.ChannelMessageWithSource);
  return exchange.id;
}

/** The shard each interaction answered by `bot` came on, by interaction id. */
function answeredShards(bot: TestBot): Map<string, unknown> {
  const answered = bot.logs.entries().filter((entry) => entry.msg === 'interaction answered');
  return new Map(answered.map((entry) => [String(entry.interactionId), entry.shardId]));
}

describe('gateway sharding', () => {
  let discord: FakeDiscord | undefined;
  const bots: TestBot[] = [];

  afterEach(async () => {
    for (const bot of bots.splice(0)) await bot.stop();
    await discord?.close();
    discord = undefined;
  });

  it('one process running shards 0 and 1 of 2 gets each guild on its shard and answers from both', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN, guilds: 4, shardCount: SHARD_COUNT, maxConcurrency: SHARD_COUNT });
    const bot = await startTestBot({ joinDiscord: discord, env: { SHARD_COUNT: String(SHARD_COUNT), METRICS_PORT: '0' } });
    bots.push(bot);

    const sessions = discord.gatewaySessions().sort((a, b) => a.shard[0] - b.shard[0]);
    expect(sessions.map((session) => session.shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    for (const [shard, session] of sessions.entries()) {
      // The fixture puts consecutive guilds on consecutive shards: two guilds each.
      expect(session.guildIds).toHaveLength(2);
      expect(session.guildIds).toEqual(guildsOfShard(discord, shard));
    }
    const seen = bot.app.client.guilds.cache.map((guild) => [guild.id, guild.shardId]);
    expect(seen.sort()).toEqual(discord.guilds.map((guild) => [guild.id, shardOf(guild.id, SHARD_COUNT)]).sort());

    const asked = new Map<string, number>();
    for (const guild of discord.guilds) asked.set(await askStatus(discord, { guildId: guild.id }), shardOf(guild.id, SHARD_COUNT));
    // The line is written just after the answer goes out.
    await vi.waitFor(() => expect(answeredShards(bot)).toEqual(asked));

    const logged = bot.logs.entries().find((entry) => entry.msg === 'interaction answered');
    expect(logged).toMatchObject({ shards: [0, 1], shardCount: 2 });
    const metrics = await (await fetch(`http://127.0.0.1:${bot.app.opsServer!.port}/metrics`)).text();
    expect(metrics).toMatch(/almanac_interactions_total\{command="status",kind="chat",outcome="ok",shard="0,1"\} 4/);
    expect(metrics).toMatch(/process_resident_memory_bytes\{shard="0,1"\}/);
  });

  it('two processes with SHARD_IDS 0 and 1 of 2 each get and answer only their own guilds (DMs on shard 0)', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN, guilds: 4, shardCount: SHARD_COUNT });
    for (const shard of [0, 1]) {
      const env = { SHARD_COUNT: String(SHARD_COUNT), SHARD_IDS: String(shard) };
      bots.push(await startTestBot({ joinDiscord: discord, env }));
    }
    const [first, second] = bots as [TestBot, TestBot];
    expect([...first.app.client.guilds.cache.keys()].sort()).toEqual(guildsOfShard(discord, 0).sort());
    expect([...second.app.client.guilds.cache.keys()].sort()).toEqual(guildsOfShard(discord, 1).sort());

    const [shard1Guild] = guildsOfShard(discord, 1);
    const fromShard1 = await askStatus(discord, { guildId: shard1Guild });
    const fromDm = await askStatus(discord, { channel: 'dm' });
    await vi.waitFor(() => {
      expect(answeredShards(second)).toEqual(new Map([[fromShard1, 1]]));
      expect(answeredShards(first)).toEqual(new Map([[fromDm, 0]]));
    });
  });
});
