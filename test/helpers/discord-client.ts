import { Events, Status, type Client } from 'discord.js';
import { waitForCondition } from './wait-for-condition.js';

/**
 * Destroys a discord.js client once its gateway connection has settled. @discordjs/ws reconnects
 * 500 ms after a resumable close; a `destroy()` that lands inside that window finds the shard idle,
 * the reconnect goes ahead anyway, and the test process never exits. Waiting until every shard is
 * ready again (after a resume or re-identify) closes that window.
 */
export async function destroyClientWhenSettled(client: Client, timeoutMs = 10_000): Promise<void> {
  // A client whose login never reached the gateway has no shards and nothing to race with.
  if (client.ws.shards.size > 0) {
    await waitForCondition({
      emitter: client,
      events: [Events.ClientReady, Events.ShardReady, Events.ShardResume],
      probe: () => (isSettled(client) ? true : undefined),
      timeoutMs,
      describeTimeout: () =>
        `discord.js client did not settle within ${timeoutMs} ms (shard statuses: ${client.ws.shards
          .map((shard) => Status[shard.status])
          .join(', ')})`,
    });
  }
  await client.destroy();
}

function isSettled(client: Client): boolean {
  return client.ws.status === Status.Ready && client.ws.shards.every((shard) => shard.status === Status.Ready);
}
