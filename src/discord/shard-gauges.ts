import { Status, type Client } from 'discord.js';
import { Gauge } from 'prom-client';
import type { Metrics } from '../runtime/metrics.js';

/**
 * Each gateway shard this process runs: whether it is connected and ready (a shard that is not
 * answers none of its guilds' interactions) and its heartbeat round trip. Read from discord.js at
 * scrape time. The label is `gateway_shard`: `shard` is already every series' label in a sharded process.
 */
export function registerShardGauges(metrics: Metrics, client: Client): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'almanac_gateway_shard_ready',
    help: '1 while a gateway shard is connected and ready, 0 while it is connecting, resuming or disconnected',
    labelNames: ['gateway_shard'] as const,
    registers,
    collect() {
      this.reset();
      for (const shard of client.ws.shards.values()) this.labels(String(shard.id)).set(shard.status === Status.Ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'almanac_gateway_shard_ping_seconds',
    help: "A gateway shard's last heartbeat round trip",
    labelNames: ['gateway_shard'] as const,
    registers,
    collect() {
      this.reset();
      for (const shard of client.ws.shards.values()) if (shard.ping >= 0) this.labels(String(shard.id)).set(shard.ping / 1000);
    },
  });
}
