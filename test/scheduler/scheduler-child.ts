/**
 * One process of a fleet, for test/scheduler/fleet.process.test.ts: its scheduler on the shared
 * PostgreSQL, posting to the fake Discord through REST, until nothing is due. With
 * `KILL_AFTER_POSTING` it dies by SIGKILL right after Discord accepted a post to that channel,
 * before marking it: the claim is left held, and another process must not post it twice.
 */
import pino from 'pino';
import { RestChannelPoster } from '../../src/scheduler/channel-poster.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { openStorage } from '../../src/storage/storage.js';
import { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';

const env = (name: string): string => process.env[name] ?? (process.exit(2) as never);
const storage = openStorage({ databaseUrl: env('DATABASE_URL'), dataDir: '.' });
const store = new SubscriptionsStore(storage.db);
const rest = new RestChannelPoster({ apiUrl: env('DISCORD_API_URL'), token: env('DISCORD_TOKEN') });
const killAfter = process.env.KILL_AFTER_POSTING;
const scheduler = new Scheduler({
  store,
  poster: {
    async post(channelId, message, nonce) {
      const outcome = await rest.post(channelId, message, nonce);
      if (outcome.ok && channelId === killAfter) process.kill(process.pid, 'SIGKILL');
      return outcome;
    },
  },
  content: async (subscription) => ({ message: { content: `post of ${subscription.id}` }, item: { kind: 'card', id: String(subscription.id) } }),
  now: Date.now,
  processId: env('PROCESS_ID'),
  logger: pino({ level: 'silent' }),
  deletePausedAfterRetention: false,
  leaseMs: Number(env('LEASE_MS')),
  concurrency: 4,
  batchSize: 10,
});
let handled = 0;
// Ticks until a tick finds nothing it can take, then once more after the lease (a crashed claim);
// a second idle tick in a row ends it at once: nothing is left to wait for.
for (let idle = 0; ; ) {
  const count = await scheduler.tick();
  handled += count;
  if (count > 0) idle = 0;
  else if (++idle === 2) break;
  else await new Promise((resolve) => setTimeout(resolve, Number(env('LEASE_MS')) + 200));
}
await storage.close();
process.stdout.write(JSON.stringify({ handled }));
