import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { createLocalLimiter } from '../../src/upstream/limiter.js';
import type { FakeChannelName, RecordedCall } from '../fakes/discord.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../helpers/bot.js';
import { writeCardSnapshot } from '../helpers/card-snapshot.js';
import { HOSTILE_STRING } from '../helpers/hostile-input.js';
import { injectedLinks, payloadProblems, renderedTexts } from '../helpers/payload-checks.js';
import { answerOf, crashLines, expectNoSecretLeaks } from '../helpers/reliability.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/**
 * Hostile input through the whole path: the fake Discord sends each value in a real interaction,
 * the real discord.js client and router deliver it, and what reaches Discord is checked: every
 * request accepted, every message sent with mentions disabled, within Discord's limits, and without
 * a link taken from the input. A few hundred cases (the in-process fuzz has thousands per option).
 */

const CASES = fuzzRuns(300);

interface Case {
  command: string;
  subcommand: string | undefined;
  options: Record<string, string>;
}

/** Every (command, subcommand, string option), with a good value for the required ones. */
function targets(): { command: string; subcommand: string | undefined; option: string; required: Record<string, string> }[] {
  const good: Record<string, string> = { addresses: '8.8.8.8', address: '8.8.8.8', name: 'Dark Magician', query: 'dragon', id: 'abcdef' };
  const found: ReturnType<typeof targets> = [];
  for (const command of commands) {
    if (command.kind !== 'chat') continue;
    const visit = (options: readonly APIApplicationCommandOption[] | undefined, subcommand: string | undefined) => {
      const strings = (options ?? []).filter((option) => option.type === ApplicationCommandOptionType.String);
      const required = Object.fromEntries(strings.filter((option) => option.required).map((option) => [option.name, good[option.name] ?? 'x']));
      for (const option of options ?? []) {
        if (option.type === ApplicationCommandOptionType.Subcommand) visit(option.options, option.name);
        else if (option.type === ApplicationCommandOptionType.String) found.push({ command: command.data.name, subcommand, option: option.name, required });
      }
    };
    visit(command.data.options, undefined);
  }
  return found;
}

const hostileCase: fc.Arbitrary<Case> = fc
  .tuple(fc.constantFrom(...targets()), HOSTILE_STRING)
  .map(([target, value]) => ({ command: target.command, subcommand: target.subcommand, options: { ...target.required, [target.option]: value } }));

/** The message fields of everything the bot sent to Discord for one interaction. */
function messagesSent(calls: RecordedCall[]): Record<string, unknown>[] {
  return calls.flatMap((call) => {
    const body = call.json as { data?: Record<string, unknown> } & Record<string, unknown> | undefined;
    if (!body) return [];
    if (call.path.endsWith('/callback')) return body.data && ('content' in body.data || 'embeds' in body.data) ? [body.data] : [];
    return [body];
  });
}

describe('hostile input through the fake Discord, end to end', () => {
  let geo: FakeGeoJs;
  let wallhaven: FakeWallhaven;
  let ygoprodeck: FakeYgoprodeck;
  let dataDir: string;
  let bot: TestBot;

  beforeAll(async () => {
    [geo, wallhaven, ygoprodeck] = await Promise.all([
      startFakeGeoJs(),
      startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } }),
      startFakeYgoprodeck({ rateLimit: { windowMs: 1_000, maxRequests: Number.MAX_SAFE_INTEGER } }),
    ]);
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-fuzz-e2e-'));
    await writeCardSnapshot(dataDir, ygoprodeck.cards, ygoprodeck.version);
    bot = await startTestBot({
      env: { GEOJS_URL: geo.url, WALLHAVEN_URL: wallhaven.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY, YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl, DATA_DIR: dataDir },
      overrides: {
        limiterFactory: (options) => createLocalLimiter({ ...options, minTimeMs: 0, maxQueued: 10_000 }),
        memberShares: { wallhaven: { limit: Number.MAX_SAFE_INTEGER } },
      },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await Promise.all([geo?.close(), wallhaven?.close(), ygoprodeck?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`answers ${CASES} interactions with hostile option values, sending Discord only what it accepts`, { timeout: 120_000 }, async () => {
    const channels: FakeChannelName[] = ['normal', 'ageRestricted', 'dm'];
    await fc.assert(
      fc.asyncProperty(hostileCase, fc.constantFrom(...channels), async (input, channel) => {
        const exchange = await bot.discord.chatInput({ name: input.command, ...(input.subcommand ? { subcommand: input.subcommand } : {}), options: input.options, channel });
        const answer = await answerOf(exchange);
        const calls = bot.discord.calls.filter((call) => call.path.includes(exchange.token));
        expect(calls.map((call) => call.status).filter((status) => status >= 400)).toEqual([]);
        for (const message of messagesSent(calls)) expect(message.allowed_mentions).toMatchObject({ parse: [] });
        const shown = { content: answer.content, embeds: answer.embeds, components: answer.components } as Parameters<typeof payloadProblems>[0];
        expect(payloadProblems(shown)).toEqual([]);
        const typed = Object.values(input.options).join('\n');
        for (const text of renderedTexts(shown)) expect(injectedLinks(text, typed, !answer.ephemeral)).toEqual([]);
      }),
      { numRuns: CASES },
    );
    expect(crashLines(bot)).toEqual([]);
  });

  it(`reads ${CASES / 3} hostile messages with "Locate IP addresses"`, { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(HOSTILE_STRING, async (content) => {
        const exchange = await bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: `${content} 8.8.8.8` });
        const answer = await answerOf(exchange);
        expect(answer.ephemeral).toBe(true);
        expect(bot.discord.calls.filter((call) => call.path.includes(exchange.token) && call.status >= 400)).toEqual([]);
      }),
      { numRuns: CASES / 3 },
    );
  });

  it('leaked no secret through any of it', async () => {
    await expectNoSecretLeaks(bot, [geo, wallhaven, ygoprodeck.server]);
  });
});
