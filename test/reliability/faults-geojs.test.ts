import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GEOJS_CACHE_TTL_MS } from '../../src/services/geojs/geojs.js';
import type { InteractionExchange } from '../fakes/discord.js';
import { htmlPage, json } from '../fakes/fake-server.js';
import { FAKE_GEO_RECORDS, startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import {
  answerOf,
  applyFault,
  CacheClock,
  clockedCaches,
  crashLines,
  endFault,
  expectNoSecretLeaks,
  expectPlainSentence,
  scaledLimiters,
  startFaultProxy,
  UPSTREAM_FAULTS,
  type Answer,
  type FaultProxy,
  type UpstreamFault,
  TEST_REQUEST_TIMEOUT_MS,
} from '../helpers/reliability.js';


/**
 * Every GeoJS fault of the issue, through every command that uses GeoJS (/ip lookup, /ip time and
 * the "Locate IP addresses" menu), end to end: the real bot against the fake Discord, with a fault
 * proxy in front of the fake GeoJS. Pauses after a 429 are scaled down 40× so recovery is seen.
 */

const PAUSE_SCALE = 40;

interface GeoCommand {
  name: string;
  run(bot: TestBot, address: string): Promise<InteractionExchange>;
  /** The answer shows the address's data (from GeoJS or the cache). */
  expectData(answer: Answer, address: string): void;
}

const COMMANDS: GeoCommand[] = [
  {
    name: '/ip lookup',
    run: (bot, address) => bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address } }),
    expectData: (answer, address) => expect(answer.embeds.map((embed) => embed.title)).toEqual([address]),
  },
  {
    name: '/ip time',
    run: (bot, address) => bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address } }),
    expectData: (answer, address) => expect(answer.content.startsWith(`\`${address}\` · `)).toBe(true),
  },
  {
    name: 'Locate IP addresses',
    run: (bot, address) => bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: `sshd: failed login from ${address} port 22` }),
    expectData: (answer, address) => expect(answer.embeds.map((embed) => embed.title)).toEqual([address]),
  },
];

/** The sentence each fault must end in, when nothing cached can answer. */
const EXPECTED_SENTENCE: Record<UpstreamFault['kind'], RegExp> = {
  unavailable: /^GeoJS is unavailable right now, try again in a minute\.$/,
  bad_response: /^GeoJS sent an answer we could not read; try again later\.$/,
  rate_limited: /^GeoJS asked us to slow down; try again in \d+ seconds?\.$/,
};

/** A body GeoJS could send with status 200 that is JSON, but not a list of geo records. */
const UNEXPECTED_SHAPE = json(200, { ip: '8.8.8.8', asn: 15169, note: 'an object where a list belongs' });

describe('GeoJS faults through every command that uses it', () => {
  let geo: FakeGeoJs;
  let proxy: FaultProxy;
  let bot: TestBot;
  const cacheClock = new CacheClock();
  let nextHost = 1;
  /** A public address nothing has asked about yet, so only GeoJS can answer it. */
  const freshAddress = () => `81.2.${Math.floor(nextHost / 250)}.${(nextHost++ % 250) + 1}`;

  beforeAll(async () => {
    geo = await startFakeGeoJs();
    proxy = await startFaultProxy(geo.url);
    bot = await startTestBot({
      env: { GEOJS_URL: proxy.url },
      // One member runs every fault: their share of GeoJS is lifted (fair-share.test.ts tests it).
      overrides: {
        limiterFactory: scaledLimiters(PAUSE_SCALE),
        cacheFactory: clockedCaches(cacheClock),
        memberShares: { geojs: { limit: 10_000 } },
        requestTimeoutMs: TEST_REQUEST_TIMEOUT_MS,
      },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await proxy?.close();
    await geo?.close();
  });

  beforeEach(() => {
    proxy.reset();
    proxy.cannedAnswerDelayMs = 0;
  });

  /** Ends the fault (and waits out a scaled pause), then checks GeoJS is asked again and answers. */
  async function expectRecovery(): Promise<void> {
    await endFault(proxy, () => [bot.app.services.geo.health().limiter]);
    const before = proxy.requests.length;
    for (const command of COMMANDS) {
      const address = freshAddress();
      command.expectData(await answerOf(await command.run(bot, address)), address);
    }
    expect(proxy.requests.length).toBeGreaterThan(before);
  }

  it.each(UPSTREAM_FAULTS)('$name: each command acknowledges within 3 s and ends in a plain sentence within 20 s', { timeout: 60_000 }, async (fault) => {
    applyFault(proxy, fault, { unexpectedShape: UNEXPECTED_SHAPE, rateLimitPage: (headers) => htmlPage(429, 'Too Many Requests', headers) });
    // All at once: a slow GeoJS costs one request timeout (6 s), not one per command.
    const answers = await Promise.all(COMMANDS.map(async (command) => answerOf(await command.run(bot, freshAddress()))));
    for (const answer of answers) expectPlainSentence(answer, EXPECTED_SENTENCE[fault.kind]);
    if (fault.kind === 'rate_limited') {
      const seconds = Number(/in (\d+) second/.exec(answers[0]!.content)![1]);
      // GeoJS has no published limit; without Retry-After the client waits a whole minute.
      expect(seconds).toBe(fault.retryAfterSeconds ?? 60);
      // While paused, nothing more is sent: the next user is told to wait at once.
      const sent = proxy.requests.length;
      expectPlainSentence(await answerOf(await COMMANDS[0]!.run(bot, freshAddress())), EXPECTED_SENTENCE.rate_limited);
      expect(proxy.requests.length).toBe(sent);
    }
    await expectRecovery();
    expect(crashLines(bot)).toEqual([]);
  });

  it.each(UPSTREAM_FAULTS)('$name: an address cached before (now expired) is still answered from the cache', { timeout: 30_000 }, async (fault) => {
    const address = freshAddress();
    geo.setRecord(address, FAKE_GEO_RECORDS['81.2.69.142']!);
    for (const command of COMMANDS) command.expectData(await answerOf(await command.run(bot, address)), address);
    cacheClock.advance(GEOJS_CACHE_TTL_MS + 60_000);
    // lru-cache reads its clock at most once per millisecond tick.
    await new Promise((resolve) => setTimeout(resolve, 5));
    applyFault(proxy, fault, { unexpectedShape: UNEXPECTED_SHAPE, rateLimitPage: (headers) => htmlPage(429, 'Too Many Requests', headers) });
    // The background refresh meets the fault late, as on a busy machine: after the answers below.
    proxy.cannedAnswerDelayMs = 250;
    const sent = proxy.requests.length;
    for (const command of COMMANDS) {
      const answer = await answerOf(await command.run(bot, address));
      command.expectData(answer, address);
      expect(JSON.stringify(answer.message)).toContain('London');
    }
    // The expired entry was refreshed in the background (and the refresh failed).
    await expect.poll(() => proxy.requests.length, { timeout: 10_000 }).toBeGreaterThan(sent);
    await expectRecovery();
  });

  it('keeps every secret out of logs, replies, /status, /metrics and GeoJS URLs through all of it', async () => {
    await expectNoSecretLeaks(bot, [proxy, geo]);
  });
});
