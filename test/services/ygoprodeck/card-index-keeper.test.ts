import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALIASES } from '../../../src/cards/aliases.js';
import type { CardLanguage } from '../../../src/cards/card.js';
import type { CardSummary } from '../../../src/cards/card-summary.js';
import { CardIndexKeeper, type MatcherTablesBuild } from '../../../src/services/ygoprodeck/card-index-keeper.js';
import { loadCardDump } from '../../helpers/card-dump.js';
import { LogCapture } from '../../helpers/log-capture.js';
import { bundledWorkerJobs } from '../../helpers/off-thread.js';

const DARK_MAGICIAN = 46986414;
const NEW_CARD = { id: 99999999, name: 'Zzyzx Test Dragon', views: 1 } as CardSummary;
const englishCards = loadCardDump()
  .slice(0, 3_000)
  .map(({ id, name, archetype }) => ({ id, name, views: 0, ...(archetype === undefined ? {} : { archetype }) }) as CardSummary);

/** The parts of a card database the keeper listens to, changed by hand. */
class FakeDatabase {
  ready = true;
  private cards: readonly CardSummary[] = englishCards;
  private readonly names = new Map<CardLanguage, ReadonlyMap<number, string>>();
  private readonly reloadListeners = new Set<() => void>();
  private readonly textsListeners = new Set<(reload: { language: CardLanguage }) => void>();

  summaries = () => this.cards;
  localNames = (language: CardLanguage) => this.names.get(language) ?? new Map<number, string>();
  onReload = (listener: () => void) => (this.reloadListeners.add(listener), () => this.reloadListeners.delete(listener));
  onTextsReload = (listener: (reload: { language: CardLanguage }) => void) => (this.textsListeners.add(listener), () => this.textsListeners.delete(listener));

  reload(cards: readonly CardSummary[]): void {
    this.cards = cards;
    for (const listener of this.reloadListeners) listener();
  }

  loadTexts(language: CardLanguage, names: ReadonlyMap<number, string>): void {
    this.names.set(language, names);
    for (const listener of this.textsListeners) listener({ language });
  }
}

const { buildMatcherTables } = bundledWorkerJobs();

function keeperOver(database: FakeDatabase, build?: MatcherTablesBuild, log = new LogCapture()): CardIndexKeeper {
  return new CardIndexKeeper(database as never, DEFAULT_ALIASES, pino(log), build);
}

/** A build that waits until released, counting the builds asked for. */
function heldBuilds(): { build: MatcherTablesBuild; started: () => number; release(): void } {
  let started = 0;
  let release = () => {};
  return {
    build: async (...args) => {
      started++;
      await new Promise<void>((resolve) => (release = resolve));
      return buildMatcherTables(...args);
    },
    started: () => started,
    release: () => release(),
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('CardIndexKeeper building off the event loop', () => {
  it('swaps atomically: every query during a rebuild is answered by the old matcher or the new one, never by none', async () => {
    const database = new FakeDatabase();
    const keeper = keeperOver(database, buildMatcherTables);
    await keeper.settled();
    const old = keeper.current!;
    database.reload([...englishCards, NEW_CARD]);
    let queriesDuringRebuild = 0;
    while (keeper.current === old) {
      const index = keeper.current;
      expect(index.matcher.search('dark magician', 1).map((match) => match.id)).toEqual([DARK_MAGICIAN]);
      expect(index.matcher.search('zzyzx test dragon')).toEqual([]);
      queriesDuringRebuild++;
      await nextTurn();
    }
    expect(queriesDuringRebuild).toBeGreaterThan(0);
    expect(keeper.current!.matcher.search('dark magician', 1).map((match) => match.id)).toEqual([DARK_MAGICIAN]);
    expect(keeper.current!.matcher.search('zzyzx test dragon', 1).map((match) => match.id)).toEqual([NEW_CARD.id]);
    keeper.close();
  });

  it('gives the same index whether its card set is read in slices for a worker’s build or at once on the event loop', async () => {
    const offThread = keeperOver(new FakeDatabase(), buildMatcherTables);
    await offThread.settled();
    const inline = keeperOver(new FakeDatabase());
    const [sliced, atOnce] = [offThread.current!, inline.current!];
    expect(sliced.archetypes.length).toBeGreaterThan(10);
    expect(sliced.archetypes).toEqual(atOnce.archetypes);
    expect([...sliced.archetypeByKey]).toEqual([...atOnce.archetypeByKey]);
    for (const query of ['dark magician', 'blue eyes', 'mistical space tyfoon', 'a', 'mst', String(DARK_MAGICIAN)]) {
      expect(sliced.matcher.search(query)).toEqual(atOnce.matcher.search(query));
    }
    offThread.close();
    inline.close();
  });

  it('serves nothing until the first build lands, then tells its listeners', async () => {
    const held = heldBuilds();
    const keeper = keeperOver(new FakeDatabase(), held.build);
    let swaps = 0;
    keeper.onSwap(() => swaps++);
    // The build starts once the card set's parts are worked out, in slices: a slow machine takes
    // more than one turn for them, and a release before the build starts would release nothing.
    while (held.started() === 0) await nextTurn();
    expect(keeper.current).toBeNull();
    held.release();
    await keeper.settled();
    expect(keeper.current?.matcher.search('dark magician', 1)[0]?.id).toBe(DARK_MAGICIAN);
    expect(swaps).toBe(1);
    keeper.close();
  });

  it('takes the changes that arrive during a build in one more build once it ends', async () => {
    const database = new FakeDatabase();
    const held = heldBuilds();
    const keeper = keeperOver(database, held.build);
    while (held.started() === 0) await nextTurn();
    database.loadTexts('fr', new Map([[DARK_MAGICIAN, 'Magicien Sombre']]));
    database.loadTexts('de', new Map([[DARK_MAGICIAN, 'Dunkler Magier']]));
    expect(held.started()).toBe(1);
    held.release();
    await new Promise<void>((resolve) => keeper.onSwap(resolve));
    expect(keeper.holds('fr')).toBe(false);
    await nextTurn();
    expect(held.started()).toBe(2);
    held.release();
    await keeper.settled();
    expect(held.started()).toBe(2);
    expect(keeper.holds('fr') && keeper.holds('de')).toBe(true);
    expect(keeper.current!.matcher.search('magicien sombre', 1, 'fr')[0]?.id).toBe(DARK_MAGICIAN);
    keeper.close();
  });

  it('builds on the event loop when the worker fails, and swaps nothing in once closed', async () => {
    const log = new LogCapture();
    const keeper = keeperOver(new FakeDatabase(), () => Promise.reject(new Error('no threads')), log);
    await keeper.settled();
    expect(keeper.current?.matcher.search('dark magician', 1)[0]?.id).toBe(DARK_MAGICIAN);
    expect(log.entries().map((entry) => entry.msg)).toContain('card matcher build off the event loop failed; building it on the event loop');

    const held = heldBuilds();
    const closing = keeperOver(new FakeDatabase(), held.build);
    closing.close();
    held.release();
    await closing.settled();
    expect(closing.current).toBeNull();
  });
});
