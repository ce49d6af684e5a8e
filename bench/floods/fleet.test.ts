import { afterAll, beforeAll, expect, it } from 'vitest';
import { YGOPRODECK_UPSTREAM_LIMIT } from '../../src/services/ygoprodeck/ygoprodeck-limits.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import type { FakeDiscord, InteractionExchange } from '../../test/fakes/discord.js';
import type { FakeWallhaven } from '../../test/fakes/wallhaven.js';
import type { FakeYgoprodeck } from '../../test/fakes/ygoprodeck.js';
import type { TestBot } from '../../test/helpers/bot.js';
import { FLEET_PROCESSES, FLEET_WALLHAVEN_WINDOW_MS as WALLHAVEN_WINDOW_MS, startTestFleet, type TestFleet } from '../../test/helpers/fleet.js';
import { describeWithRedis } from '../../test/helpers/redis-server.js';
import { answerOf, crashLines, expectPlainSentence, type Answer } from '../../test/helpers/reliability.js';

/**
 * Floods over a fleet (test/helpers/fleet.ts: three shard processes on one Redis): ten times an
 * upstream's limit arrive spread over the instances within a second. The FLEET must stay within each
 * upstream's limit, every interaction must be acknowledged within Discord's 3 s (the fake refuses a
 * later callback) and answered, and what one instance fetched the others reuse. Wallhaven's limiters
 * run 20× faster against a fake whose window is 20× shorter; YGOPRODeck's run at production speed
 * against its real 20-a-second window.
 */

const member = (n: number) => ({ id: `1358${String(n).padStart(15, '0')}`, username: `fleet${n}` });
const BUSY = (label: string) => new RegExp(`^Almanac is busy with ${label} requests; try again in \\d+ seconds?\\.$`);

describeWithRedis('a fleet of three shard processes on one Redis', () => {
  let fleet: TestFleet;
  let discord: FakeDiscord;
  let wallhaven: FakeWallhaven;
  let ygoprodeck: FakeYgoprodeck;
  let bots: TestBot[];
  /** Guilds in turn over every shard: interaction `index` goes to process `index % FLEET_PROCESSES`. */
  const spreadGuild = (index: number) => fleet.guildOn(index % FLEET_PROCESSES, Math.floor(index / FLEET_PROCESSES) % 2);

  beforeAll(async () => {
    fleet = await startTestFleet();
    ({ discord, wallhaven, ygoprodeck, bots } = fleet);
  });

  afterAll(() => fleet?.stop());

  /** Sends `count` interactions at once; the flood must leave within a second. */
  async function flood(count: number, send: (index: number) => Promise<InteractionExchange>): Promise<Answer[]> {
    const logStart = bots.map((bot) => bot.logs.lines.length);
    const started = Date.now();
    const exchanges = await Promise.all(Array.from({ length: count }, (_, index) => send(index)));
    expect(Date.now() - started, 'the flood took longer than a second to send').toBeLessThan(1_000);
    const settled = await Promise.allSettled(exchanges.map((exchange) => answerOf(exchange)));
    const lost = settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(lost, `${lost.length} of ${count} interactions unanswered`).toEqual([]);
    const answers = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    // Nobody waits forever: every instance ends with nothing in flight.
    for (const bot of bots) await expect.poll(() => bot.app.router.inFlight).toBe(0);
    // Unexpected errors of this flood only (a bug, rather than a plain refusal).
    bots.forEach((bot, index) => expect(crashLines(bot, logStart[index])).toEqual([]));
    return answers;
  }

  it('Wallhaven: 450 calls over the three instances keep the fleet at or under 45 in any (scaled) minute', { timeout: 30_000 }, async () => {
    const ids = wallhaven.byPurity('sfw').map((wallpaper) => wallpaper.id);
    const answers = await flood(450, (index) => {
      const origin = { user: member(index), guildId: spreadGuild(index) };
      if (index % 3 === 0) return discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: ids[index % ids.length]! }, ...origin });
      if (index % 3 === 1) return discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { resolution: `100x${index}` }, ...origin });
      return discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { query: 'aeinst'[index % 6]! }, ...origin });
    });
    const served = answers.filter((answer) => answer.embeds.length === 1);
    const busy = answers.filter((answer) => BUSY('Wallhaven').test(answer.content));
    for (const answer of busy) expectPlainSentence(answer);
    expect(served.length + busy.length).toBe(450);
    expect(wallhaven.maxInWindow(WALLHAVEN_WINDOW_MS)).toBeLessThanOrEqual(WALLHAVEN_RATE_LIMIT.requests);
    for (const bot of bots) expect(bot.logs.text).not.toContain('answered 429');
  });

  it('YGOPRODeck: 200 /card show needing art over the three instances stay under 20 a second, unblocked', { timeout: 40_000 }, async () => {
    const cards = ygoprodeck.cards.slice(0, 200);
    const answers = await flood(200, (index) =>
      discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(cards[index]!.id) }, user: member(1_000 + index), guildId: spreadGuild(index) }),
    );
    expect(answers.filter((answer) => answer.embeds.length !== 1).map((answer) => answer.content)).toEqual([]);
    for (const bot of bots) {
      await expect.poll(() => bot.app.services.cards.health().limiter.queued + bot.app.services.cards.health().limiter.running, { timeout: 25_000 }).toBe(0);
    }
    expect(ygoprodeck.server.maxInWindow(YGOPRODECK_UPSTREAM_LIMIT.windowMs)).toBeLessThanOrEqual(YGOPRODECK_UPSTREAM_LIMIT.maxRequests);
    expect(ygoprodeck.blocked).toBe(false);
    // Each card's art is downloaded once for the fleet.
    const images = ygoprodeck.requestsTo('/images/cards/').map((request) => request.path);
    expect(images.length).toBe(new Set(images).size);
  });
});
