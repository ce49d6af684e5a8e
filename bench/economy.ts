/**
 * Upstream economy: a 10,000-command workload (see `workload.ts`) replayed against the bot in its
 * own process, counting what reaches each fake upstream: requests per 1,000 commands, card art
 * fetched more than once, `cardinfo.php` lookups once the database is loaded, and the most requests
 * seen in any window of each upstream's limit.
 *
 * The replay is time-compressed (see `scaledLimiterFactory`): limiter spacings, the per-user
 * Wallhaven budget and the fakes' windows are all divided by the same scale, so requests per window
 * are what the real settings give, and a workload that real limits would spread over many minutes
 * runs in about one. bench/burst.ts checks the one window short enough to test at real speed.
 *
 * Run by the one-process section (bench/one-process.ts), on the bot that the memory, throughput
 * and soak figures are then measured on; the fleet section replays the same workload.
 */
import { InteractionResponseType } from 'discord.js';
import { GEOJS_LIMITS } from '../src/services/geojs/geojs.js';
import { maxStartsInWindow, WALLHAVEN_LIMITS } from '../src/services/wallhaven/wallhaven.js';
import { WALLHAVEN_RATE_LIMIT } from '../src/wallpaper/wallhaven-site.js';
import { YGOPRODECK_LIMITS, YGOPRODECK_UPSTREAM_LIMIT } from '../src/services/ygoprodeck/ygoprodeck-limits.js';
import type { FakeDiscord, FinalMessage } from '../test/fakes/discord.js';
import type { RecordedRequest } from '../test/fakes/fake-server.js';
import type { BotChild } from './bot-child.js';
import type { MemorySample } from './bot-shared.js';
import type { BenchUpstreams } from './harness.js';
import type { Row } from './row.js';
import { fixed } from './stats.js';
import type { Workload, WorkloadAction } from './workload.js';

/** Users acting at once: each sends their next command when the last one was answered. */
export const REPLAY_CONCURRENCY = 12;
/** A command may wait in a (compressed) limiter queue; anything longer is a failure. */
const ANSWER_TIMEOUT_MS = 60_000;
const PAGER_NEXT_LABEL = '▶';

export interface UpstreamEconomy {
  upstream: string;
  requests: number;
  perThousandCommands: number;
  /** Most requests in any sliding window of the limit's length (in the compressed time), and the limit. */
  maxInWindow: number;
  windowLabel: string;
  limit: number | null;
  /** The most request starts the production limiter's spacing allows in such a window. */
  spacingAllows: number;
}

export interface EconomyResult {
  timeScale: number;
  commands: number;
  /** Commands of each kind in the workload (a ▶ press counted under `wallpaper page`). */
  commandMix: Record<string, number>;
  autocompletes: number;
  replayMs: number;
  /** The replay's length at real speed (replay time × scale). */
  realTimeEquivalentMs: number;
  /** Router outcomes of every interaction in the replay (autocomplete included). */
  outcomes: Record<string, number>;
  /** Commands that got no final answer within the timeout. */
  unanswered: number;
  upstreams: UpstreamEconomy[];
  /** `cardinfo.php` requests during the replay, split: lookups (should be 0) and translations. */
  cardinfoLookups: number;
  cardinfoTranslations: number;
  /** Distinct (card, language) translations asked; equal to `cardinfoTranslations` when each is fetched once. */
  distinctTranslations: number;
  imageRequests: number;
  distinctImages: number;
  ygoprodeckBlocked: boolean;
  memoryAfter: MemorySample;
}

export async function benchEconomy(bot: BotChild, upstreams: BenchUpstreams, workload: Workload, timeScale: number): Promise<EconomyResult> {
  const start = upstreamMarks(upstreams);
  const outcomesBefore = await bot.interactionCounts();
  const started = performance.now();
  const unanswered = await replay(bot.discord, workload.actions, REPLAY_CONCURRENCY);
  const replayMs = performance.now() - started;
  const outcomesAfter = await bot.interactionCounts();
  return {
    timeScale,
    commands: workload.commands,
    commandMix: commandMix(workload.actions),
    autocompletes: workload.autocompletes,
    replayMs,
    realTimeEquivalentMs: replayMs * timeScale,
    outcomes: Object.fromEntries(Object.entries(outcomesAfter).map(([outcome, count]) => [outcome, count - (outcomesBefore[outcome] ?? 0)])),
    unanswered,
    ...upstreamTraffic(upstreams, start, workload.commands, timeScale),
    memoryAfter: await bot.measureMemory(),
  };
}

/** Where each fake upstream's request log stands, so a later count takes only what came after. */
export interface UpstreamMarks {
  geojs: number;
  wallhaven: number;
  ygoprodeck: number;
}

export function upstreamMarks(upstreams: BenchUpstreams): UpstreamMarks {
  return {
    geojs: upstreams.geojs.requests.length,
    wallhaven: upstreams.wallhaven.requests.length,
    ygoprodeck: upstreams.ygoprodeck.server.requests.length,
  };
}

export type UpstreamTraffic = Pick<
  EconomyResult,
  'upstreams' | 'cardinfoLookups' | 'cardinfoTranslations' | 'distinctTranslations' | 'imageRequests' | 'distinctImages' | 'ygoprodeckBlocked'
>;

/** What reached each fake upstream since `start`, per 1,000 of `commands`, and its busiest window. */
export function upstreamTraffic(upstreams: BenchUpstreams, start: UpstreamMarks, commands: number, timeScale: number): UpstreamTraffic {
  const geojs = upstreams.geojs.requests.slice(start.geojs);
  const wallhaven = upstreams.wallhaven.requests.slice(start.wallhaven);
  const ygoprodeck = upstreams.ygoprodeck.server.requests.slice(start.ygoprodeck);
  const images = ygoprodeck.filter((request) => request.path.startsWith('/images/'));
  const api = ygoprodeck.filter((request) => request.path.startsWith('/api/'));
  const cardinfo = api.filter((request) => request.path === '/api/v7/cardinfo.php');
  const translations = cardinfo.filter((request) => request.query.has('language'));
  const row = (
    upstream: string,
    requests: readonly RecordedRequest[],
    windowMs: number,
    windowLabel: string,
    limit: number | null,
    minTimeMs: number,
  ): UpstreamEconomy => ({
    upstream,
    requests: requests.length,
    perThousandCommands: (1000 * requests.length) / commands,
    maxInWindow: maxInWindow(requests, windowMs),
    windowLabel,
    limit,
    spacingAllows: maxStartsInWindow(minTimeMs / timeScale, windowMs),
  });
  return {
    upstreams: [
      // GeoJS states no limit; the bot keeps to its own spacing.
      row('GeoJS', geojs, 1_000 / timeScale, '1 s', null, GEOJS_LIMITS.minTimeMs),
      row('Wallhaven API', wallhaven, upstreams.windows.wallhavenMs, '60 s', WALLHAVEN_RATE_LIMIT.requests, WALLHAVEN_LIMITS.minTimeMs),
      row('YGOPRODeck API', api, upstreams.windows.ygoprodeckMs, '1 s', null, YGOPRODECK_LIMITS.minTimeMs),
      row('YGOPRODeck images', images, upstreams.windows.ygoprodeckMs, '1 s', null, YGOPRODECK_LIMITS.minTimeMs),
      // The API and the image host share one 20/s budget.
      row('YGOPRODeck (API + images)', ygoprodeck, upstreams.windows.ygoprodeckMs, '1 s', YGOPRODECK_UPSTREAM_LIMIT.maxRequests, YGOPRODECK_LIMITS.minTimeMs),
    ],
    cardinfoLookups: cardinfo.length - translations.length,
    cardinfoTranslations: translations.length,
    distinctTranslations: new Set(translations.map((request) => `${request.query.get('id')}/${request.query.get('language')}`)).size,
    imageRequests: images.length,
    distinctImages: new Set(images.map((request) => request.path)).size,
    ygoprodeckBlocked: upstreams.ygoprodeck.blocked,
  };
}

export function commandMix(actions: readonly WorkloadAction[]): Record<string, number> {
  const mix: Record<string, number> = {};
  const add = (command: string) => (mix[command] = (mix[command] ?? 0) + 1);
  for (const action of actions) {
    add(action.command);
    if (action.kind === 'chat' && action.pressNext) add('wallpaper page');
  }
  return mix;
}

/** Replays the actions with `concurrency` users at a time; returns how many got no final answer. */
export async function replay(discord: FakeDiscord, actions: readonly WorkloadAction[], concurrency: number): Promise<number> {
  let next = 0;
  let unanswered = 0;
  const worker = async () => {
    while (next < actions.length) {
      const action = actions[next++]!;
      try {
        await runAction(discord, action);
      } catch {
        unanswered++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return unanswered;
}

async function runAction(discord: FakeDiscord, action: WorkloadAction): Promise<void> {
  if (action.kind === 'message') {
    const exchange = await discord.messageContext({ name: 'Locate IP addresses', targetContent: action.targetContent, ...action.origin });
    await exchange.final(ANSWER_TIMEOUT_MS);
    return;
  }
  for (const typed of action.autocomplete ?? []) {
    const exchange = await discord.autocomplete({ ...action.input, options: { name: typed }, focused: 'name' });
    const callback = await exchange.callback(ANSWER_TIMEOUT_MS);
    if (callback.type !== InteractionResponseType.ApplicationCommandAutocompleteResult) throw new Error('autocomplete was not answered with choices');
  }
  const final = await (await discord.chatInput(action.input)).final(ANSWER_TIMEOUT_MS);
  if (action.pressNext) {
    const next = pagerButton(final);
    if (next === undefined) return;
    const { user, channel, guildId } = action.input;
    const press = await discord.button({ customId: next, message: final, ...(user ? { user } : {}), ...(channel ? { channel } : {}), ...(guildId ? { guildId } : {}) });
    await press.final(ANSWER_TIMEOUT_MS);
  }
}

/** The ▶ button's custom_id, when the result has a next page. */
function pagerButton(message: FinalMessage): string | undefined {
  for (const row of message.components ?? []) {
    if (!('components' in row)) continue;
    for (const component of row.components) {
      if ('custom_id' in component && 'label' in component && component.label === PAGER_NEXT_LABEL && component.disabled !== true) {
        return component.custom_id;
      }
    }
  }
  return undefined;
}

/** The largest number of requests that started within any `windowMs` span. */
export function maxInWindow(requests: readonly RecordedRequest[], windowMs: number): number {
  const times = requests.map((request) => request.at).sort((a, b) => a - b);
  let max = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= windowMs) first++;
    max = Math.max(max, last - first + 1);
  }
  return max;
}

/**
 * Whether an upstream's window is an assertion, not a target: YGOPRODeck's, where the limiter's
 * spacing allows 8 of the 20. Wallhaven's allows 43 of 45, a margin that an event-loop stall of
 * 300 ms in the bot eats at ×10 compression (3 s at real speed): on a busy machine that is load,
 * not a broken limiter, so it stays a target.
 */
export function holdsUnderLoad(upstream: UpstreamEconomy): boolean {
  return upstream.limit !== null && upstream.upstream.startsWith('YGOPRODeck');
}

/** The replay's rows: requests per 1,000 commands, no card lookups, art fetched once, each upstream's busiest window. */
export function economyRows(economy: EconomyResult): Row[] {
  const area = 'Economy';
  const perThousand = economy.upstreams.map((upstream) => `${upstream.upstream} ${fixed(upstream.perThousandCommands, 1)}`).join('; ');
  const rows: Row[] = [
    {
      area,
      measure: `upstream requests per 1,000 commands (${economy.commands} commands, ${economy.autocompletes} autocompletes)`,
      target: '–',
      measured: perThousand,
      comparison: `outcomes: ${Object.entries(economy.outcomes)
        .map(([outcome, count]) => `${outcome} ${count}`)
        .join(', ')}; unanswered ${economy.unanswered}`,
      pass: null,
    },
    {
      area,
      measure: '`cardinfo.php` requests for card commands once the databases are loaded (lookups, translations)',
      target: '0',
      measured: String(economy.cardinfoLookups + economy.cardinfoTranslations),
      comparison: `lookups ${economy.cardinfoLookups}; translations (language=…) ${economy.cardinfoTranslations}, ${economy.distinctTranslations} distinct`,
      pass: economy.cardinfoLookups === 0 && economy.cardinfoTranslations === 0,
      assertion: true,
    },
    {
      area,
      measure: 'card art downloads',
      target: 'each image once',
      measured: `${economy.imageRequests} requests, ${economy.distinctImages} distinct images`,
      comparison: `${fixed(economy.imageRequests / Math.max(1, economy.distinctImages), 2)} requests per image`,
      pass: economy.imageRequests === economy.distinctImages,
      assertion: true,
    },
  ];
  for (const upstream of economy.upstreams.filter((candidate) => candidate.limit !== null || candidate.upstream === 'GeoJS')) {
    const limit = upstream.limit;
    rows.push({
      area,
      measure: `${upstream.upstream}: most requests in any ${upstream.windowLabel} (×${economy.timeScale} compressed)`,
      target: limit === null ? 'none stated' : `≤ ${limit}`,
      measured: String(upstream.maxInWindow),
      comparison: `${limit === null ? '' : `${fixed(upstream.maxInWindow / limit, 2)}× the limit; `}the limiter's spacing allows ${upstream.spacingAllows}`,
      pass: limit === null ? null : upstream.maxInWindow <= limit && !(upstream.upstream.startsWith('YGOPRODeck') && economy.ygoprodeckBlocked),
      ...(holdsUnderLoad(upstream) ? { assertion: true as const } : {}),
    });
  }
  return rows;
}
