import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per app instance (not prom-client's global one), so tests and the CLI can
 * build several apps in one process without "metric already registered" errors.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    interactions: new Counter({
      name: 'almanac_interactions_total',
      help: 'Interactions handled, by command and outcome',
      labelNames: ['command', 'kind', 'outcome'] as const,
      registers: [registry],
    }),
    interactionLatency: new Histogram({
      name: 'almanac_interaction_duration_seconds',
      help: 'Time from receiving an interaction to its final answer',
      labelNames: ['command', 'kind'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
      registers: [registry],
    }),
    interactionAcknowledgement: new Histogram({
      name: 'almanac_interaction_acknowledgement_seconds',
      help: 'Time from receiving an interaction to its acknowledgement (a reply, a deferral, an update or autocomplete choices): Discord drops an interaction not acknowledged within 3 s',
      labelNames: ['command', 'kind'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 3, 5, 10],
      registers: [registry],
    }),
    discordResponses: new Counter({
      name: 'almanac_discord_responses_total',
      help: "Answers of Discord's REST API to Almanac's requests, by status: 401, 403 and 429 count toward Discord's ban of 10,000 invalid requests in 10 minutes",
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    interactionRequests: new Counter({
      name: 'almanac_interaction_requests_total',
      help: 'HTTP mode: requests to POST /interactions, by response status (401: unsigned or badly signed)',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    interactionRequestsDropped: new Counter({
      name: 'almanac_interaction_requests_dropped_total',
      help: 'HTTP mode: requests to POST /interactions that ran nothing, by reason (incomplete: aborted or sent too slowly; replayed: an interaction already received)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    upstreamRequests: new Counter({
      name: 'almanac_upstream_requests_total',
      help: 'Requests sent to upstream APIs, by upstream and result',
      labelNames: ['upstream', 'result'] as const,
      registers: [registry],
    }),
    upstreamLatency: new Histogram({
      name: 'almanac_upstream_request_duration_seconds',
      help: 'Upstream request latency',
      labelNames: ['upstream'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'almanac_cache_lookups_total',
      help: 'Cache lookups by cache and status (hit, miss, stale)',
      labelNames: ['cache', 'status'] as const,
      registers: [registry],
    }),
    upstreamLimit: new Gauge({
      name: 'almanac_upstream_limit_requests_per_second',
      help: 'The most requests per second Almanac lets itself send to an upstream (the whole fleet together), under the upstream\'s own limit',
      labelNames: ['upstream'] as const,
      registers: [registry],
    }),
    limiterQueued: new Gauge({
      name: 'almanac_limiter_queued',
      help: 'Jobs waiting in an upstream limiter queue',
      labelNames: ['upstream'] as const,
      registers: [registry],
    }),
    memberShareRefusals: new Counter({
      name: 'almanac_member_share_refusals_total',
      help: "Requests refused because the member had spent their share of an upstream's budget, by upstream",
      labelNames: ['upstream'] as const,
      registers: [registry],
    }),
    limiterRejected: new Counter({
      name: 'almanac_limiter_rejected_total',
      help: 'Requests refused by an upstream limiter (queue full, paused or circuit open)',
      labelNames: ['upstream', 'reason'] as const,
      registers: [registry],
    }),
    scheduledPosts: new Counter({
      name: 'almanac_scheduled_posts_total',
      help: 'Occurrences of subscriptions handled, by result: posted; refused (Discord refused the channel); failed (anything else); missed (over an hour late after a stop), expired (a crashed claim past the nonce window), empty (nothing to post)',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    scheduledPostLag: new Histogram({
      name: 'almanac_scheduled_post_lag_seconds',
      help: 'How long after its time a scheduled post was made',
      buckets: [0.5, 1, 2.5, 5, 10, 15, 30, 60, 120, 300, 900, 3600],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** 1 while Redis is configured but unreachable: each process then spends only its local share of each budget. */
export function registerSharedStateGauge(metrics: Metrics, degraded: () => boolean): void {
  new Gauge({
    name: 'almanac_shared_state_degraded',
    help: '1 while the shared state (Redis) is unreachable and each budget is divided locally; 0 otherwise',
    registers: [metrics.registry],
    collect() {
      this.set(degraded() ? 1 : 0);
    },
  });
}

/** The fleet as its registry last saw it: live processes and the gateway shards they run together. */
export function registerFleetGauges(metrics: Metrics, members: () => Promise<readonly { shards: readonly number[] }[]>): void {
  const registers = [metrics.registry];
  // Both are read on the same scrape: one call to the registry serves the two gauges.
  let reading: Promise<void> | undefined;
  const read = () =>
    (reading ??= members()
      .then((live) => {
        processes.set(live.length);
        shards.set(new Set(live.flatMap((member) => member.shards)).size);
      })
      .finally(() => {
        reading = undefined;
      }));
  const processes = new Gauge({
    name: 'almanac_fleet_processes',
    help: 'Processes of the fleet that sent a heartbeat lately (this one included; 1 without Redis)',
    registers,
    collect: read,
  });
  const shards = new Gauge({
    name: 'almanac_fleet_shards',
    help: 'Gateway shards run by the live processes of the fleet',
    registers,
    collect: read,
  });
}
