/**
 * The cost of `/settings` on every interaction: the router's handling of one trivial interaction
 * (TRIVIAL_COMMAND, a constant reply, a responder that does nothing) with the settings read from
 * their cache, against the same interaction with no settings, in one run, interleaved round by
 * round. The settings live in a real SQLite file, warmed by one first interaction; the statements
 * the database runs while timed are counted, and must be none.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { settleWith } from '../src/app/settle.js';
import type { AppServices } from '../src/app/services.js';
import { SERVER_INSTALLATION, ALL_APP_PERMISSIONS } from '../src/interaction/context.js';
import { createRouter, type Router } from '../src/interaction/router.js';
import type { ChatInputInteraction, InteractionResponder } from '../src/interaction/routed-interaction.js';
import { createMetrics } from '../src/runtime/metrics.js';
import { SettingsService } from '../src/services/settings/settings-service.js';
import { createInProcessState } from '../src/state/in-process.js';
import { openStorage } from '../src/storage/storage.js';
import { countQueries } from '../test/helpers/storage-queries.js';
import { TRIVIAL_COMMAND } from './bot-shared.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, median } from './stats.js';

const SIZES: Readonly<Record<BenchSize, { rounds: number; perRound: number }>> = { full: { rounds: 30, perRound: 2_000 }, tiny: { rounds: 2, perRound: 20 } };

const GUILD = '111111111111111111';
const CHANNEL = '222222222222222222';

const responder: InteractionResponder = {
  deferred: false,
  replied: false,
  reply: () => Promise.resolve(),
  deferReply: () => Promise.resolve(),
  deferUpdate: () => Promise.resolve(),
  update: () => Promise.resolve(),
  respond: () => Promise.resolve(),
  editReply: () => Promise.resolve(),
  deleteReply: () => Promise.resolve(),
  followUp: () => Promise.resolve({ id: '1' }),
  editFollowUp: () => Promise.resolve(),
};

function interaction(id: number): ChatInputInteraction {
  return {
    kind: 'chat',
    id: String(id),
    user: { id: '333333333333333333', username: 'bench', locale: 'en-US' },
    channel: { id: CHANNEL, kind: 'guild', ageRestricted: false, guildId: GUILD },
    installation: SERVER_INSTALLATION,
    appPermissions: ALL_APP_PERMISSIONS,
    memberPermissions: { manageServer: false },
    responder,
    commandName: TRIVIAL_COMMAND.data.name,
    options: { subcommand: null, getString: () => null, getBoolean: () => null, getInteger: () => null, getAttachment: () => null, getChannel: () => null },
  };
}

/** Microseconds per interaction over `count` handled one after the other. */
async function timeRound(router: Router, count: number, firstId: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await router.handle(interaction(firstId + i));
  return ((performance.now() - start) * 1_000) / count;
}

export const settingsSection: BenchSection = {
  name: 'settings',
  title: 'settings lookup per interaction (cached) against none',
  assertions: true,
  async run(size) {
    const { rounds, perRound } = SIZES[size];
    const dataDir = await mkdtemp(join(tmpdir(), 'almanac-bench-settings-'));
    const logger = pino({ level: 'silent' });
    const storage = openStorage({ databaseUrl: undefined, dataDir, logger });
    try {
      await storage.migrate();
      const settings = new SettingsService({ storage, state: createInProcessState({ processId: 'bench' }), logger, now: Date.now });
      await settings.setGuild(GUILD, { language: 'fr', ipAnswers: 'private' });
      await settings.setChannel(GUILD, CHANNEL, { wallpaperPurity: 'sfw' });
      await settings.setUser('333333333333333333', { language: 'de' });
      const commands = [TRIVIAL_COMMAND];
      const bare = createRouter(commands, { logger, metrics: createMetrics() } as unknown as AppServices);
      const settled = createRouter(commands, { logger, metrics: createMetrics(), settleInteraction: settleWith(settings) } as unknown as AppServices);
      // Warm-up: the first interaction reads the server and the member into the cache.
      await timeRound(settled, 10, 0);
      await timeRound(bare, 10, 0);
      const queryCount = countQueries(storage);
      const without: number[] = [];
      const withSettings: number[] = [];
      for (let round = 0; round < rounds; round++) {
        without.push(await timeRound(bare, perRound, round * perRound));
        withSettings.push(await timeRound(settled, perRound, round * perRound));
      }
      const baseline = median(without);
      const cached = median(withSettings);
      const cost = cached - baseline;
      const interactions = rounds * perRound;
      const queries = queryCount();
      const rows: Row[] = [
        {
          area: 'settings',
          measure: 'router, one trivial interaction, no settings (baseline), µs (median of rounds)',
          target: '—',
          measured: fixed(baseline, 1),
          comparison: 'same run',
          pass: null,
        },
        {
          area: 'settings',
          measure: 'router, the same interaction with settings from the cache, µs (median of rounds)',
          target: '—',
          measured: fixed(cached, 1),
          comparison: `${cost >= 0 ? '+' : ''}${fixed(cost, 1)} µs against the baseline`,
          pass: null,
        },
        {
          area: 'settings',
          measure: `database statements while ${interactions} interactions were answered`,
          target: '0',
          measured: String(queries),
          comparison: 'no query per interaction on the hot path',
          pass: queries === 0,
          assertion: true,
        },
      ];
      return sectionResult(rows, { settings: { rounds, perRound, baselineMicroseconds: baseline, cachedMicroseconds: cached, costMicroseconds: cost, queries } });
    } finally {
      await storage.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
