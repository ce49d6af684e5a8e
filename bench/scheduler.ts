/**
 * The scheduler's lag under 1,000 subscriptions due at once: each occurrence claimed, posted
 * through REST to the fake Discord (with its nonce), finished and moved to the next day, on SQLite
 * and on PostgreSQL. Lag is from the due time to Discord accepting the post, for one process that
 * finds them all due at once (the tick interval, up to 10 s, comes on top in production). The
 * posts carry a fixed text: what a card or wallpaper costs to make is measured by their sections.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { RestChannelPoster } from '../src/scheduler/channel-poster.js';
import { Scheduler } from '../src/scheduler/scheduler.js';
import { openStorage, type Storage } from '../src/storage/storage.js';
import { SubscriptionsStore } from '../src/storage/subscriptions-store.js';
import { startFakeDiscord } from '../test/fakes/discord.js';
import { POSTGRES, startTestDatabase } from '../test/helpers/postgres-server.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, summarize, type LatencySummary } from './stats.js';

const SIZES: Readonly<Record<BenchSize, number>> = { full: 1_000, tiny: 10 };
/** The last of 1,000 due posts should be out within this long of their time. */
const TARGET_MAX_LAG_MS = 30_000;
const TOKEN = 'bench-bot-token';

async function measure(storage: Storage, count: number, apiUrl: string): Promise<LatencySummary> {
  await storage.migrate();
  const store = new SubscriptionsStore(storage.db);
  const dueAt = Date.now() - 1_000;
  // One server per 50 subscriptions (its limit), ten channels each.
  for (let index = 0; index < count; index++) {
    const guildId = `g${Math.floor(index / 50)}`;
    await store.add(
      { guildId, channelId: `${guildId}-c${index % 10}`, kind: 'card-of-the-day', options: '{}', timeOfDay: '09:00', timeZone: 'UTC', nextDueAt: dueAt, createdBy: '1' },
      { perChannel: 10, perGuild: 50 },
      dueAt,
    );
  }
  const lags: number[] = [];
  // Lag counts from when they are all found due, not from the inserts above.
  let start = 0;
  const rest = new RestChannelPoster({ apiUrl, token: TOKEN });
  const scheduler = new Scheduler({
    store,
    poster: {
      async post(channelId, message, nonce) {
        const outcome = await rest.post(channelId, message, nonce);
        lags.push(Date.now() - start);
        return outcome;
      },
    },
    content: async (subscription) => ({ message: { content: `post ${subscription.id}` }, item: { kind: 'card', id: String(subscription.id) } }),
    now: Date.now,
    processId: 'bench',
    logger: pino({ level: 'silent' }),
    deletePausedAfterRetention: false,
  });
  start = Date.now();
  const handled = await scheduler.tick();
  if (handled !== count) throw new Error(`the scheduler handled ${handled} of ${count} due posts`);
  return summarize(lags);
}

function row(dialect: string, count: number, lag: LatencySummary): Row {
  return {
    area: 'Scheduler',
    measure: `Lag of ${count.toLocaleString('en-US')} posts due at once, ${dialect} (p50 / p99 / last)`,
    target: `last < ${TARGET_MAX_LAG_MS / 1000} s`,
    measured: `${fixed(lag.p50Ms / 1000, 2)} / ${fixed(lag.p99Ms / 1000, 2)} / ${fixed(lag.maxMs / 1000, 2)} s`,
    comparison: `${fixed((count / lag.maxMs) * 1000, 0)} posts/s`,
    pass: lag.maxMs < TARGET_MAX_LAG_MS,
  };
}

export const schedulerSection: BenchSection = {
  name: 'scheduler',
  title: 'Scheduler: lag under 1,000 due subscriptions (SQLite, PostgreSQL)',
  assertions: false,
  async run(size) {
    const count = SIZES[size];
    const discord = await startFakeDiscord({ token: TOKEN });
    const rows: Row[] = [];
    const figures: Record<string, unknown> = {};
    try {
      const dir = await mkdtemp(join(tmpdir(), 'almanac-bench-scheduler-'));
      const sqlite = openStorage({ databaseUrl: undefined, dataDir: dir });
      try {
        const lag = await measure(sqlite, count, discord.apiUrl);
        rows.push(row('SQLite', count, lag));
        figures.sqlite = lag;
      } finally {
        await sqlite.close();
        await rm(dir, { recursive: true, force: true });
      }
      if (POSTGRES.installed) {
        const database = await startTestDatabase();
        const postgres = openStorage({ databaseUrl: database.url, dataDir: tmpdir() });
        try {
          const lag = await measure(postgres, count, discord.apiUrl);
          rows.push(row('PostgreSQL', count, lag));
          figures.postgres = lag;
        } finally {
          await postgres.close();
          await database.drop();
        }
      }
    } finally {
      await discord.close();
    }
    return sectionResult(rows, { subscriptions: count, ...figures });
  },
};
