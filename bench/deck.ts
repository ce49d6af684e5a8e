/**
 * Deck pictures (`/deck show`): composing a 75-card deck whose art is stored (p50/p99), the event
 * loop's longest stall meanwhile (sharp works on libuv's thread pool), RSS growth after 100
 * different decks, and YGOPRODeck art requests per deck on a cold and a warm store. In-process, on
 * generated art (no Discord, no card database): the picture's cost alone. `npm run bench -- --only deck`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { deckLayout } from '../src/decks/deck-layout.js';
import { composeDeckImage, MAX_PICTURE_BYTES } from '../src/render/deck-image.js';
import { CardImageStore } from '../src/services/ygoprodeck/card-images.js';
import { DECK_ART_BACKGROUND, DeckArt } from '../src/services/ygoprodeck/deck-art.js';
import { LocalMemberShareLedger } from '../src/state/member-share-ledger.js';
import { MEMBER_SHARES } from '../src/runtime/member-shares.js';
import { MemberShareSpent } from '../src/interaction/errors.js';
import type { BenchFixtures } from './fixtures.js';
import { exposedGc } from './gc.js';
import { sectionResult, type BenchSection, type BenchSize, type Row } from './section.js';
import { fixed, seededRandom, summarize } from './stats.js';

interface DeckBenchSize {
  /** Compositions of the same 75-card deck timed (after two untimed). */
  rounds: number;
  /** Different decks composed for the RSS figure. */
  decks: number;
  /** Distinct arts the different decks draw from. */
  artPool: number;
}

const SIZES: Readonly<Record<BenchSize, DeckBenchSize>> = {
  full: { rounds: 30, decks: 50, artPool: 400 },
  tiny: { rounds: 2, decks: 3, artPool: 80 },
};
/** 40 + 15 + 20: a deck with a full side, every copy a distinct art (the worst case: no resize shared). */
const DECK = { main: 40, extra: 15, side: 20 } as const;
const CARDS = DECK.main + DECK.extra + DECK.side;
const TARGETS = { composeP99Ms: 500, loopStallMs: 50, rssGrowthBytes: 20e6 } as const;
const LABELS = { main: 'Main (40: 20 monsters / 12 spells / 8 traps)', extra: 'Extra (15: 5 Fusion / 5 Synchro / 3 Xyz / 2 Link)', side: 'Side (20)' };

/** Card-like art: 168 × 246 JPEG of smooth noise, about the size of YGOPRODeck's `cards_small`. */
async function generatedArt(seed: number): Promise<Buffer> {
  const random = seededRandom(seed);
  const small = Buffer.from(Array.from({ length: 21 * 31 * 3 }, () => Math.floor(random() * 256)));
  return sharp(small, { raw: { width: 21, height: 31, channels: 3 } }).resize(168, 246).jpeg({ quality: 85 }).toBuffer();
}

function compose(arts: readonly Buffer[]): Promise<Buffer> {
  const layout = deckLayout(DECK);
  return composeDeckImage({ layout, tiles: layout.tiles.map((_, index) => ({ art: arts[index % arts.length]!, name: `card ${index}` })), labels: LABELS });
}

export interface DeckSectionResult {
  compose: { p50Ms: number; p99Ms: number; maxMs: number; rounds: number; pictureBytes: number; loopDelayMaxMs: number; idleLoopDelayMaxMs: number };
  memory: { decks: number; rssBeforeBytes: number; rssAfterBytes: number; growthBytes: number };
  requests: { coldNow: number; coldBackground: number; warm: number; distinctArt: number };
}

/** Art requests for one deck through the real store and `DeckArt`, on a counting client and a clock the waits move. */
async function artRequests(distinct: number): Promise<DeckSectionResult['requests']> {
  const dataDir = await mkdtemp(join(tmpdir(), 'almanac-bench-deck-'));
  try {
    const art = await generatedArt(1);
    let requests = 0;
    const store = new CardImageStore({
      dataDir,
      client: {
        image: async () => {
          requests++;
          return art;
        },
        setImage: async () => art,
      },
    });
    let now = 0;
    const member = new LocalMemberShareLedger({ name: 'member', ...MEMBER_SHARES.ygoprodeck, now: () => now });
    const share = {
      beforeRequest: async () => {
        const decision = member.take('bench');
        if (!decision.allowed) throw new MemberShareSpent('ygoprodeck', member.limit, decision.retryAfterMs);
      },
    };
    const background = new LocalMemberShareLedger({ name: 'background', ...DECK_ART_BACKGROUND, now: () => now });
    const deckArt = new DeckArt({
      fetch: (id, spender) => store.get(id, 'small', spender),
      background: { take: async (key) => background.take(key) },
      wait: async (ms) => {
        now += ms;
      },
    });
    const ids = Array.from({ length: distinct }, (_, index) => 1_000 + index);
    const cold = await deckArt.gather(ids, share);
    const coldNow = requests;
    await deckArt.complete(cold);
    const coldBackground = requests - coldNow;
    now += 120_000;
    const warm = await deckArt.gather(ids, share);
    await deckArt.complete(warm);
    return { coldNow, coldBackground, warm: requests - coldNow - coldBackground, distinctArt: distinct };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchDeckSection(size: BenchSize, progress: (message: string) => void): Promise<DeckSectionResult> {
  const settings = SIZES[size];
  const gc = exposedGc();
  progress(`deck: generating ${settings.artPool} arts`);
  const pool = await Promise.all(Array.from({ length: settings.artPool }, (_, index) => generatedArt(index + 7)));
  const deckArts = pool.slice(0, CARDS);

  progress(`deck: composing a ${CARDS}-card deck ${settings.rounds} times`);
  await compose(deckArts);
  await compose(deckArts);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const samples: number[] = [];
  let pictureBytes = 0;
  for (let round = 0; round < settings.rounds; round++) {
    const started = performance.now();
    pictureBytes = (await compose(deckArts)).length;
    samples.push(performance.now() - started);
  }
  loop.disable();
  const timing = summarize(samples);
  // The same watch over an idle stretch as long: on a shared machine the OS's scheduling shows up as loop delay too.
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  await sleep(samples.reduce((sum, sample) => sum + sample, 0));
  idle.disable();

  progress(`deck: ${settings.decks} different decks, RSS before and after`);
  gc?.();
  const rssBeforeBytes = process.memoryUsage().rss;
  const random = seededRandom(41);
  for (let deck = 0; deck < settings.decks; deck++) {
    await compose(Array.from({ length: CARDS }, () => pool[Math.floor(random() * pool.length)]!));
  }
  gc?.();
  const rssAfterBytes = process.memoryUsage().rss;

  progress('deck: art requests per deck, cold and warm store');
  const requests = await artRequests(CARDS);
  return {
    compose: { p50Ms: timing.p50Ms, p99Ms: timing.p99Ms, maxMs: timing.maxMs, rounds: samples.length, pictureBytes, loopDelayMaxMs: loop.max / 1e6, idleLoopDelayMaxMs: idle.max / 1e6 },
    memory: { decks: settings.decks, rssBeforeBytes, rssAfterBytes, growthBytes: rssAfterBytes - rssBeforeBytes },
    requests,
  };
}

export function deckRows(result: DeckSectionResult): Row[] {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const { compose, memory, requests } = result;
  return [
    {
      area: 'Deck',
      measure: `picture of a ${CARDS}-card deck, art stored (${compose.rounds} compositions)`,
      target: `p99 ≤ ${TARGETS.composeP99Ms} ms`,
      measured: `p50 ${fixed(compose.p50Ms, 0)} ms, p99 ${fixed(compose.p99Ms, 0)} ms`,
      comparison: `max ${fixed(compose.maxMs, 0)} ms; picture ${mb(compose.pictureBytes)} (≤ ${mb(MAX_PICTURE_BYTES)})`,
      pass: compose.p99Ms <= TARGETS.composeP99Ms,
    },
    {
      area: 'Deck',
      measure: 'event-loop delay max while composing',
      target: `≤ ${TARGETS.loopStallMs} ms`,
      measured: `${fixed(compose.loopDelayMaxMs, 1)} ms`,
      comparison: `${fixed(compose.idleLoopDelayMaxMs, 1)} ms idle for as long (the machine's own scheduling); sharp composes on libuv’s thread pool`,
      pass: compose.loopDelayMaxMs <= TARGETS.loopStallMs,
    },
    {
      area: 'Deck',
      measure: `RSS growth after ${memory.decks} different decks (after GC)`,
      target: `≤ ${mb(TARGETS.rssGrowthBytes)}`,
      measured: mb(memory.growthBytes),
      comparison: `${mb(memory.rssBeforeBytes)} → ${mb(memory.rssAfterBytes)}`,
      pass: memory.growthBytes <= TARGETS.rssGrowthBytes,
    },
    {
      area: 'Deck',
      measure: `YGOPRODeck art requests per deck of ${requests.distinctArt} new arts: cold, warm`,
      target: `cold = ${requests.distinctArt} (each once), warm = 0`,
      measured: `cold ${requests.coldNow + requests.coldBackground}, warm ${requests.warm}`,
      comparison: `cold: ${requests.coldNow} on the member's share now, ${requests.coldBackground} in the background`,
      pass: requests.coldNow + requests.coldBackground === requests.distinctArt && requests.warm === 0,
      assertion: true,
    },
  ];
}

export const deckSection: BenchSection = {
  name: 'deck',
  title: 'deck pictures: compose time, event loop, memory and art requests',
  assertions: true,
  async run(size: BenchSize, fixtures: BenchFixtures) {
    const result = await benchDeckSection(size, fixtures.progress);
    return sectionResult(deckRows(result), { deck: result });
  },
};
