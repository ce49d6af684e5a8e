/**
 * Deck pictures under load, the bot in its own process: rounds of decks of 200 passwords the
 * database does not know (200 name tiles each, no upstream request), sent at once by as many
 * members, while a member asks a cached `/ip time` every 250 ms. Measured: the bot's RSS and its
 * children's (the deck composer) sampled from /proc every 50 ms, settled RSS before and after, the
 * event loop's longest delay during the rounds, every deck's acknowledgement and `/ip time`'s answer.
 * `npm run bench -- --only deck-load`.
 */
import { CARD_LANGUAGES } from '../src/cards/card.js';
import { toYdke } from '../src/decks/ydke.js';
import type { InteractionExchange } from '../test/fakes/discord.js';
import { childrenOf, childrenResidentBytes, samplePeakResident } from '../test/helpers/process-memory.js';
import { withBotChild, type BotChild } from './bot-child.js';
import type { BenchFixtures } from './fixtures.js';
import { sleep, timeCallback } from './harness.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, summarize, type LatencySummary } from './stats.js';

interface DeckLoadSize {
  rounds: number;
  /** Decks sent at once in a round, each by its own member. */
  decksAtOnce: number;
  /** Unknown passwords per deck: each a name tile. */
  cards: number;
  /** How long the composer may take to leave once idle, and the bot's memory to settle. */
  settleMs: number;
  /**
   * The composer's idle time before it leaves (the bot's default is 20 s): the settled RSS is read
   * once it has left, and the rounds follow each other with no idle gap, so a short one changes
   * nothing measured but the wait.
   */
  composerIdleMs: number;
}

const SIZES: Readonly<Record<BenchSize, DeckLoadSize>> = {
  full: { rounds: 3, decksAtOnce: 20, cards: 200, settleMs: 25_000, composerIdleMs: 2_000 },
  tiny: { rounds: 1, decksAtOnce: 2, cards: 10, settleMs: 500, composerIdleMs: 100 },
};
const TARGETS = { settledGrowthBytes: 20e6, peakBytes: 450e6, loopDelayMs: 50, acknowledgementMs: 1_000, ipTimeMs: 500 } as const;
const IP_TIME_EVERY_MS = 250;
const DECK_ANSWER_TIMEOUT_MS = 120_000;
const ADDRESS = '8.8.8.8';

export interface DeckLoadResult {
  rounds: number;
  decksAtOnce: number;
  decks: number;
  cardsPerDeck: number;
  rssBeforeBytes: number;
  rssSettledBytes: number;
  /** The bot and its children together, sampled. */
  peakTotalBytes: number;
  peakBotBytes: number;
  /** The bot's children once settled (the composer gone: 0). */
  childrenSettledBytes: number;
  loopDelayMaxMs: number;
  gcPauseMaxMs: number;
  acknowledgement: LatencySummary;
  ipTime: LatencySummary;
  pictured: number;
}

/** A deck of `cards` passwords the card database does not know (far above any real password). */
function unknownDeck(seed: number, cards: number): string {
  const passwords = Array.from({ length: cards }, (_, index) => 990_000_000 + seed * 1_000 + index);
  return toYdke({ main: passwords.slice(0, 60), extra: passwords.slice(60, 75), side: passwords.slice(75) });
}

const member = (index: number) => ({ id: String(1_359_000_000_000_000_000n + BigInt(index)), username: `decks${index}` });

async function benchDeckLoad(bot: BotChild, size: DeckLoadSize): Promise<DeckLoadResult> {
  const discord = bot.discord;
  // "Before" is the bot settled with its five databases: the languages load after ready.
  while ((await bot.languagesReady()).length < CARD_LANGUAGES.length) await sleep(250);
  await (await discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: ADDRESS } })).final();
  await sleep(size.settleMs / 5);
  const before = await bot.measureMemory();
  const sampler = samplePeakResident(bot.pid);
  let peak = { ownBytes: 0, withChildrenBytes: 0 };
  const acknowledgements: number[] = [];
  const ipTimes: number[] = [];
  let pictured = 0;
  let loopDelayMaxMs = 0;
  let gcPauseMaxMs = 0;
  try {
    for (let round = 0; round < size.rounds; round++) {
      await bot.readStalls();
      let decksDone = false;
      const pinger = (async () => {
        while (!decksDone) {
          const timed = await timeCallback(discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: ADDRESS }, user: member(999) }));
          ipTimes.push(timed.latencyMs);
          await sleep(IP_TIME_EVERY_MS);
        }
      })();
      const decks = await Promise.all(
        Array.from({ length: size.decksAtOnce }, (_, index) =>
          timeCallback(discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: unknownDeck(round * size.decksAtOnce + index, size.cards) }, user: member(index) })),
        ),
      );
      for (const deck of decks) acknowledgements.push(deck.latencyMs);
      const answers = await Promise.all(decks.map((deck) => pictureOf(deck.exchange)));
      pictured += answers.filter(Boolean).length;
      decksDone = true;
      await pinger;
      const stalls = await bot.readStalls();
      loopDelayMaxMs = Math.max(loopDelayMaxMs, stalls.loopDelayMaxMs);
      gcPauseMaxMs = Math.max(gcPauseMaxMs, stalls.gcPauseMaxMs);
    }
  } finally {
    peak = sampler.stop();
  }
  // The composer leaves once idle; the bot's memory is read after it has, and after as long idle as "before" was.
  const deadline = performance.now() + size.settleMs;
  while (childrenOf(bot.pid).length > 0 && performance.now() < deadline) await sleep(250);
  await sleep(size.settleMs / 5);
  const settled = await bot.measureMemory();
  return {
    rounds: size.rounds,
    decksAtOnce: size.decksAtOnce,
    decks: size.rounds * size.decksAtOnce,
    cardsPerDeck: size.cards,
    rssBeforeBytes: before.rssBytes,
    rssSettledBytes: settled.rssBytes,
    peakTotalBytes: peak.withChildrenBytes,
    peakBotBytes: peak.ownBytes,
    childrenSettledBytes: childrenResidentBytes(bot.pid),
    loopDelayMaxMs,
    gcPauseMaxMs,
    acknowledgement: summarize(acknowledgements),
    ipTime: summarize(ipTimes),
    pictured,
  };
}

/** Whether the deck's answer (its edit, after the deferral and any note) carries its picture. */
async function pictureOf(exchange: InteractionExchange): Promise<boolean> {
  const edit = await exchange.waitForEdit((write) => write.files.some((file) => file.name === 'deck.jpg'), DECK_ANSWER_TIMEOUT_MS).catch(() => undefined);
  return edit !== undefined;
}

function deckLoadRows(result: DeckLoadResult): Row[] {
  const area = 'Deck load';
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const growth = result.rssSettledBytes - result.rssBeforeBytes;
  const what = `${result.rounds} rounds of ${result.decksAtOnce} decks of ${result.cardsPerDeck} name tiles at once`;
  return [
    {
      area,
      measure: `bot RSS settled after ${what}, against before`,
      target: `≤ +${mb(TARGETS.settledGrowthBytes)}`,
      measured: `${growth >= 0 ? '+' : ''}${mb(growth)}`,
      comparison: `${mb(result.rssBeforeBytes)} → ${mb(result.rssSettledBytes)}; children then ${mb(result.childrenSettledBytes)}`,
      pass: growth <= TARGETS.settledGrowthBytes,
    },
    {
      area,
      measure: 'peak RSS, the bot and its deck composer together',
      target: `≤ ${mb(TARGETS.peakBytes)}`,
      measured: mb(result.peakTotalBytes),
      comparison: `the bot alone ${mb(result.peakBotBytes)}`,
      pass: result.peakTotalBytes <= TARGETS.peakBytes,
    },
    {
      area,
      measure: 'event loop: longest delay during the rounds',
      target: `≤ ${TARGETS.loopDelayMs} ms`,
      measured: `${fixed(result.loopDelayMaxMs, 0)} ms`,
      comparison: `GC pauses max ${fixed(result.gcPauseMaxMs, 0)} ms`,
      pass: result.loopDelayMaxMs <= TARGETS.loopDelayMs,
    },
    {
      area,
      measure: 'deck acknowledgements (all decks at once)',
      target: `every one ≤ ${TARGETS.acknowledgementMs} ms`,
      measured: `max ${fixed(result.acknowledgement.maxMs, 0)} ms`,
      comparison: `p50 ${fixed(result.acknowledgement.p50Ms, 0)} ms; ${result.pictured}/${result.decks} pictured`,
      pass: result.acknowledgement.maxMs <= TARGETS.acknowledgementMs && result.pictured === result.decks,
    },
    {
      area,
      measure: `cached /ip time meanwhile (every ${IP_TIME_EVERY_MS} ms)`,
      target: `every one ≤ ${TARGETS.ipTimeMs} ms`,
      measured: `max ${fixed(result.ipTime.maxMs, 0)} ms`,
      comparison: `p50 ${fixed(result.ipTime.p50Ms, 0)} ms, ${result.ipTime.count} answers`,
      pass: result.ipTime.maxMs <= TARGETS.ipTimeMs,
    },
  ];
}

export const deckLoadSection: BenchSection = {
  name: 'deck-load',
  title: 'deck pictures under load: rounds of decks of 200 name tiles at once, memory, event loop, acknowledgements',
  assertions: false,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const settings = SIZES[size];
    const snapshotDir = await fixtures.snapshotDir();
    const compiledScript = await fixtures.compiledScript();
    const result = await fixtures.withUpstreams((upstreams) => withBotChild(snapshotDir, { compiledScript, upstreamEnv: upstreams.env, deckComposerIdleMs: settings.composerIdleMs }, (bot) => benchDeckLoad(bot, settings)));
    return sectionResult(deckLoadRows(result), { ...result });
  },
};
