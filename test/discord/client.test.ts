import type { User } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordClient } from '../../src/discord/client.js';

describe('createDiscordClient', () => {
  const client = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api' });

  afterEach(async () => {
    await client.destroy();
  });

  it('bounds the user cache, so a busy bot does not keep every user it ever saw', () => {
    for (let index = 0; index < 1_500; index++) {
      const id = String(1_000_000_000_000_000n + BigInt(index));
      client.users.cache.set(id, { id, client } as unknown as User);
    }
    expect(client.users.cache.size).toBe(1_000);
  });

  it('asks for the Guilds intent only and turns mentions off', () => {
    expect(client.options.intents.toArray()).toEqual(['Guilds']);
    expect(client.options.allowedMentions).toEqual({ parse: [], repliedUser: false });
  });

  it('adds the message intents, Message Content included, only when messages are asked for', async () => {
    const reading = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api', messages: true });
    try {
      expect(reading.options.intents.toArray()).toEqual(['Guilds', 'GuildMessages', 'DirectMessages', 'MessageContent']);
    } finally {
      await reading.destroy();
    }
    expect(createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api', messages: false }).options.intents.toArray()).toEqual(['Guilds']);
  });

  it('runs the shards it is given, and the single shard of discord.js by default', async () => {
    const sharded = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api', shards: { ids: [1, 3], count: 4 } });
    try {
      expect(sharded.options.shards).toEqual([1, 3]);
      expect(sharded.options.shardCount).toBe(4);
    } finally {
      await sharded.destroy();
    }
    expect(client.options.shards).toEqual([0]);
    expect(client.options.shardCount).toBe(1);
  });
});
