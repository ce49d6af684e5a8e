/**
 * What a guild costs: the bot's resident memory with one guild of a real community's size (40 text
 * channels with two role overwrites each, 25 roles: `communityGuildCreate`) and with a full shard of
 * them, with and without `MESSAGE_SEARCH` (which keeps the permission data inline cards read). Each
 * figure is a fresh child process running the compiled bot on the card database snapshots, logged
 * in to a fake Discord whose gateway sends that many guilds, read once it has settled; the four
 * processes run side by side.
 */
import { loadavg } from 'node:os';
import { startBenchDiscord, withBotChild } from './bot-child.js';
import type { BenchFixtures } from './fixtures.js';
import { sleep } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed } from './stats.js';
import { COMMUNITY_ROLES, COMMUNITY_TEXT_CHANNELS } from '../test/fakes/discord-community-guild.js';

/** What the many guilds may add over one, in decimal megabytes as stated. */
const ADDED_RSS_TARGET_BYTES = 40e6;

interface GuildsSize {
  /** Guilds of the full measurement: a shard holds up to 2,500. */
  guilds: number;
  /**
   * Idle time before reading, so that V8 gives back what start-up grew (its memory reducer): the
   * readings at 5, 10 and 15 s after ready were within 1 MB of each other.
   */
  settleMs: number;
}

const SIZES: Readonly<Record<BenchSize, GuildsSize>> = {
  full: { guilds: 2_500, settleMs: 10_000 },
  tiny: { guilds: 3, settleMs: 0 },
};

export interface GuildsReading {
  guilds: number;
  messageSearch: boolean;
  /** The bot's RSS after a full GC in it (`measureMemory`). */
  rssBytes: number;
  heapUsedBytes: number;
  /** 1-minute load average when it was read. */
  load: number;
}

async function readOnce(fixtures: BenchFixtures, guilds: number, messageSearch: boolean, settleMs: number): Promise<GuildsReading> {
  const snapshotDir = await fixtures.snapshotDir();
  const compiledScript = await fixtures.compiledScript();
  const discord = await startBenchDiscord({ guilds, guildShape: 'community' });
  try {
    return await fixtures.withUpstreams((upstreams) =>
      withBotChild(snapshotDir, { compiledScript, discord, upstreamEnv: upstreams.env, env: { MESSAGE_SEARCH: String(messageSearch) } }, async (bot) => {
        await sleep(settleMs);
        const memory = await bot.measureMemory();
        return { guilds, messageSearch, rssBytes: memory.rssBytes, heapUsedBytes: memory.heapUsedBytes, load: loadavg()[0]! };
      }),
    );
  } finally {
    await discord.close();
  }
}

export interface GuildsResult {
  readings: GuildsReading[];
}

export async function benchGuilds(size: BenchSize, fixtures: BenchFixtures): Promise<GuildsResult> {
  const { guilds, settleMs } = SIZES[size];
  // The four processes side by side, each read after it has idled `settleMs`: starting together
  // changes when they settle, not what they settle at (read one after the other, the pairs differed
  // by as much as side by side: a few MB).
  fixtures.progress(`guilds: 1 and ${guilds} of ${COMMUNITY_TEXT_CHANNELS} channels and ${COMMUNITY_ROLES} roles, without and with MESSAGE_SEARCH, side by side`);
  const settings = [false, true].flatMap((messageSearch) => [1, guilds].map((count) => ({ messageSearch, count })));
  const readings = await Promise.all(settings.map(({ messageSearch, count }) => readOnce(fixtures, count, messageSearch, settleMs)));
  return { readings };
}

export function guildsRows({ readings }: GuildsResult): Row[] {
  const mb = (bytes: number) => `${fixed(bytes / 1e6, 0)} MB`;
  return [false, true].map((messageSearch) => {
    const [one, many] = readings.filter((reading) => reading.messageSearch === messageSearch);
    const added = many!.rssBytes - one!.rssBytes;
    return {
      area: 'Memory',
      measure: `RSS added by ${many!.guilds} guilds of ${COMMUNITY_TEXT_CHANNELS} channels (2 role overwrites each) and ${COMMUNITY_ROLES} roles over 1, MESSAGE_SEARCH=${messageSearch} (settled)`,
      target: `≤ ${mb(ADDED_RSS_TARGET_BYTES)}`,
      measured: mb(added),
      comparison: `${mb(one!.rssBytes)} → ${mb(many!.rssBytes)} (${fixed(added / (many!.guilds - 1) / 1e3, 1)} KB a guild; heap ${mb(one!.heapUsedBytes)} → ${mb(many!.heapUsedBytes)}); load ${fixed(one!.load, 1)} / ${fixed(many!.load, 1)}`,
      pass: added <= ADDED_RSS_TARGET_BYTES,
    };
  });
}

export const guildsSection: BenchSection = {
  name: 'guilds',
  title: 'what a guild costs: RSS with 1 and a shard of community-sized guilds, with and without MESSAGE_SEARCH (fresh child processes)',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const result = await benchGuilds(size, fixtures);
    return sectionResult(guildsRows(result), { guilds: result });
  },
};
