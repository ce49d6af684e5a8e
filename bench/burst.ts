/**
 * The production YGOPRODeck limiter at real speed: many users ask `/card random` at once, each
 * answer needing card art not yet stored, so every one is an image download through the limiter.
 * YGOPRODeck's 20-requests-per-second window is the one limit short enough to check without
 * compressing time (the replay in economy.ts checks every limit compressed ×10). The upstream's
 * window must never fill: the fake, like the real one, would block us for good.
 */
import { YGOPRODECK_UPSTREAM_LIMIT } from '../src/services/ygoprodeck/ygoprodeck-limits.js';
import type { TestBot } from '../test/helpers/bot.js';
import { maxInWindow } from './economy.js';
import type { BenchFixtures } from './fixtures.js';
import type { BenchUpstreams } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed } from './stats.js';

/** A command may wait in the limiter's queue; anything longer is a failure. */
const ANSWER_TIMEOUT_MS = 60_000;
/** `/card random` commands sent at once, at each size. */
const COMMANDS: Readonly<Record<BenchSize, number>> = { full: 40, tiny: 3 };

export interface RealLimitBurst {
  commands: number;
  answered: number;
  imageRequests: number;
  maxPerSecond: number;
  limitPerSecond: number;
  blocked: boolean;
}

/** Sends `commands` `/card random` at once, from as many users, and counts what reached YGOPRODeck. */
export async function benchRealLimitBurst(bot: TestBot, upstreams: BenchUpstreams, commands = COMMANDS.full): Promise<RealLimitBurst> {
  const start = upstreams.ygoprodeck.server.requests.length;
  const exchanges = await Promise.all(
    Array.from({ length: commands }, (_, index) =>
      bot.discord.chatInput({ name: 'card', subcommand: 'random', user: { id: String(1_358_000_000_000_000_000n + BigInt(index)), username: `burst${index}` } }),
    ),
  );
  const finals = await Promise.allSettled(exchanges.map((exchange) => exchange.final(ANSWER_TIMEOUT_MS)));
  const requests = upstreams.ygoprodeck.server.requests.slice(start);
  return {
    commands,
    answered: finals.filter((result) => result.status === 'fulfilled' && result.value.embeds.length === 1).length,
    imageRequests: requests.filter((request) => request.path.startsWith('/images/')).length,
    maxPerSecond: maxInWindow(requests, YGOPRODECK_UPSTREAM_LIMIT.windowMs),
    limitPerSecond: YGOPRODECK_UPSTREAM_LIMIT.maxRequests,
    blocked: upstreams.ygoprodeck.blocked,
  };
}

export function burstRows(burst: RealLimitBurst): Row[] {
  return [
    {
      area: 'Economy',
      measure: `YGOPRODeck at real speed: ${burst.commands} /card random at once (production limiter)`,
      target: `≤ ${burst.limitPerSecond} in any 1 s`,
      measured: `${burst.maxPerSecond} in 1 s; ${burst.answered}/${burst.commands} answered`,
      comparison: `${fixed(burst.maxPerSecond / burst.limitPerSecond, 2)}× the limit; ${burst.imageRequests} image downloads`,
      pass: burst.maxPerSecond <= burst.limitPerSecond && !burst.blocked && burst.answered === burst.commands,
      assertion: true,
    },
  ];
}

export const burstSection: BenchSection = {
  name: 'burst',
  title: 'YGOPRODeck burst under the production limiter settings (in-process bot, real speed)',
  assertions: true,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const burst = await fixtures.withInProcessBot((bot, upstreams) => benchRealLimitBurst(bot, upstreams, COMMANDS[size]));
    return sectionResult(burstRows(burst), { realLimitBurst: burst });
  },
};
