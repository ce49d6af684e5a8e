import type { Logger } from 'pino';
import { CARD_LANGUAGES, type CardLanguage } from '../../cards/card.js';
import type { CardSummary } from '../../cards/card-summary.js';
import type { MatchableCard } from '../../cards/matcher.js';
import { buildCardIndex, cardSetParts, cardSetPartsOf, type CardIndex, type CardIndexSource, type CardSetParts } from '../../cards/card-index.js';
import type { MatcherTables } from '../../cards/matcher-tables.js';
import { notifyAll } from '../../upstream/notify.js';
import { inSlices } from '../../upstream/slices.js';
import type { CardDatabase } from './card-database.js';

/**
 * cardSetParts with the event loop free between slices (see inSlices): over English's 13,700 cards
 * when they arrive after ready, 8-18 ms in one go.
 */
async function cardSetPartsInSlices(cards: readonly CardSummary[]): Promise<CardSetParts> {
  const parts = cardSetPartsOf(cards);
  await inSlices(cards.length, parts.add);
  return parts.done();
}

/** Builds a matcher's tables somewhere other than the event loop (see src/services/off-thread); rejects when `signal` aborts. */
export type MatcherTablesBuild = (
  cards: readonly MatchableCard[],
  aliases: Readonly<Record<string, string>>,
  names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>,
  signal: AbortSignal,
) => Promise<MatcherTables>;

/**
 * `build`'s tables, or undefined when building them off the event loop failed or `signal` aborted.
 * A worker that cannot start (no threads left, say) must not leave cards unmatched: the caller then
 * builds the matcher on the event loop. The failure is logged as `what`'s.
 */
export async function tablesOffThread(
  build: MatcherTablesBuild,
  cards: readonly MatchableCard[],
  aliases: Readonly<Record<string, string>>,
  names: ReadonlyMap<CardLanguage, ReadonlyMap<number, string>>,
  signal: AbortSignal,
  logger: Logger,
  what: string,
): Promise<MatcherTables | undefined> {
  try {
    return await build(cards, aliases, names, signal);
  } catch (error) {
    if (!signal.aborted) logger.warn({ err: error }, `${what} build off the event loop failed; building it on the event loop`);
    return undefined;
  }
}

type IndexedDatabase = Pick<CardDatabase, 'ready' | 'summaries' | 'localNames' | 'onReload' | 'onTextsReload'>;

/**
 * The card index over the database's current card set and every loaded language's names, rebuilt
 * whenever one of them changes. With `buildTables`, the matcher is built off the event loop and the
 * new index replaces the old one in a single assignment once complete: until then the previous
 * index answers every query, so no query ever finds an index half built, or none. Changes that
 * arrive during a build are taken by one more build when it ends. Without `buildTables` the index
 * is built on the event loop, at once.
 */
export class CardIndexKeeper {
  private index: CardIndex | null = null;
  private source: CardIndexSource | null = null;
  /** The parts of the last card set seen (kept across the rebuilds for each language). */
  private cardSet: CardSetParts | null = null;
  private building: Promise<void> | null = null;
  private readonly swapListeners = new Set<() => void>();
  private readonly closed = new AbortController();
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly database: IndexedDatabase,
    private readonly aliases: Readonly<Record<string, string>>,
    private readonly logger: Logger,
    private readonly buildTables?: MatcherTablesBuild,
  ) {
    this.unsubscribe = [database.onReload(() => this.refresh()), database.onTextsReload(() => this.refresh())];
    this.refresh();
  }

  /** The index in use; null until the first one is built. */
  get current(): CardIndex | null {
    return this.index;
  }

  /** True when the index in use holds `language`'s names as the database has them now. */
  holds(language: CardLanguage): boolean {
    return this.source !== null && this.holdsNames(this.source, language);
  }

  /** Called after each new index is in use. Returns an unsubscribe function. */
  onSwap(listener: () => void): () => void {
    this.swapListeners.add(listener);
    return () => this.swapListeners.delete(listener);
  }

  /** Resolves once no build is under way (including the ones that changes during a build called for). */
  async settled(): Promise<void> {
    while (this.building !== null) await this.building;
  }

  /** Stops listening and abandons a build under way. */
  close(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.closed.abort();
  }

  private holdsNames(source: CardIndexSource, language: CardLanguage): boolean {
    const names = this.database.localNames(language);
    return names.size === 0 ? !source.names.has(language) : source.names.get(language) === names;
  }

  /**
   * Builds a new index when the database holds a card set or names that the current one lacks,
   * unless a build is under way. A language's names are matched for its users, so a new set of
   * them means a new matcher; the languages loaded at start come before English, so a start with
   * snapshots builds once.
   */
  private refresh(): void {
    if (this.building !== null || this.closed.signal.aborted || !this.database.ready) return;
    const current = this.source;
    if (current !== null && current.cards === this.database.summaries() && CARD_LANGUAGES.every((language) => this.holdsNames(current, language))) return;
    const started = performance.now();
    if (this.buildTables === undefined) {
      this.install(this.sourceOf(this.cardSetNow()), undefined, started);
      return;
    }
    this.building = this.buildOffThread(this.buildTables, started)
      .catch((error: unknown) => this.logger.error({ err: error }, 'card matcher rebuild failed; the previous one stays in use'))
      .finally(() => {
        this.building = null;
        this.refresh();
      });
  }

  private async buildOffThread(buildTables: MatcherTablesBuild, started: number): Promise<void> {
    const cardSet = await this.cardSetInSlices();
    if (this.closed.signal.aborted) return;
    const source = this.sourceOf(cardSet);
    const tables = await tablesOffThread(buildTables, source.matchable, this.aliases, source.names, this.closed.signal, this.logger, 'card matcher');
    if (!this.closed.signal.aborted) this.install(source, tables, started);
  }

  /** The parts of the database's card set, worked out at once when it is new. */
  private cardSetNow(): CardSetParts {
    const cards = this.database.summaries();
    if (this.cardSet?.cards !== cards) this.cardSet = cardSetParts(cards);
    return this.cardSet;
  }

  /** cardSetNow, in slices when the card set is new. */
  private async cardSetInSlices(): Promise<CardSetParts> {
    const cards = this.database.summaries();
    if (this.cardSet?.cards !== cards) this.cardSet = await cardSetPartsInSlices(cards);
    return this.cardSet;
  }

  /** An index's source: `cardSet`, with each language's names as the database has them now. */
  private sourceOf(cardSet: CardSetParts): CardIndexSource {
    const names = new Map<CardLanguage, ReadonlyMap<number, string>>();
    for (const language of CARD_LANGUAGES) {
      const byPasscode = this.database.localNames(language);
      if (byPasscode.size > 0) names.set(language, byPasscode);
    }
    return { ...cardSet, names };
  }

  private install(source: CardIndexSource, tables: MatcherTables | undefined, started: number): void {
    const swapStarted = performance.now();
    const index = buildCardIndex(source, this.aliases, tables);
    this.index = index;
    this.source = source;
    const now = performance.now();
    this.logger.info(
      { cards: source.cards.length, languages: [...source.names.keys()], buildMs: Math.round(now - started), ...(tables === undefined ? {} : { swapMs: Math.round(now - swapStarted) }) },
      'card matcher rebuilt',
    );
    notifyAll(this.swapListeners, undefined, this.logger, 'card index swap listener failed');
  }
}
