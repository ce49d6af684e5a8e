import { describe, expect, it, vi } from 'vitest';
import { cardReply, databaseMissing, filtersOf, namedCard, waitForDatabase } from '../../../commands/card/shared.js';
import { en } from '../../../src/i18n/en.js';
import { fr } from '../../../src/i18n/fr.js';
import { UserError } from '../../../src/interaction/errors.js';
import { presentationFor } from '../../../src/interaction/presentation.js';
import { chatContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);
const NOW = Date.UTC(2026, 5, 1, 12);
const FAILURE = { reason: 'unavailable', at: NOW - 60_000, nextAttemptAt: NOW + 5 * 60_000 };

/** A card service whose database loads after `loadMs` (never, for null), as `waitForDatabase` paces it. */
function loadingCards(loadMs: number | null, extra: Record<string, unknown> = {}) {
  return {
    ready: false,
    loadFailure: null,
    waitForDatabase: (pace: (loaded: Promise<boolean>) => Promise<boolean>) =>
      pace(loadMs === null ? Promise.resolve(false) : new Promise((resolve) => setTimeout(() => resolve(true), loadMs))),
    ...extra,
  };
}

async function refusal(work: Promise<unknown>, messages = en): Promise<string> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof UserError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.textIn(messages);
}

describe('waitForDatabase', () => {
  it('defers, with the answer’s ephemerality, while a loading database takes its time, then goes on', async () => {
    const { ctx, defer } = chatContext('search');
    await waitForDatabase(ctx, stubServices({ cards: loadingCards(300) }), true);
    expect(defer).toHaveBeenCalledWith({ ephemeral: true });
  });

  it('refuses with why there are no cards: still loading, or a failed download and its next attempt', async () => {
    expect(await refusal(waitForDatabase(chatContext('set').ctx, stubServices({ cards: loadingCards(null) }), false))).toBe(en.card.databaseLoading);
    const failed = stubServices({ cards: loadingCards(null, { loadFailure: FAILURE }) }, NOW);
    expect(await refusal(waitForDatabase(chatContext('set').ctx, failed, false))).toBe('The card database is not available yet: YGOPRODeck could not be reached, and the next attempt is in about 5 minutes. Try again after that.');
    expect(databaseMissing(failed)(fr)).not.toBe(databaseMissing(failed)(en));
  });
});

describe('namedCard', () => {
  const resolving = (resolution: unknown, ready = true) =>
    stubServices({ cards: { ready, loadFailure: null, resolvePatiently: vi.fn(async () => resolution), localNames: () => new Map() } });

  it('asks for a name when none is given, before any lookup', async () => {
    const app = resolving({ kind: 'none' });
    expect(await refusal(namedCard(chatContext('show', { name: '  ' }).ctx, app, { language: undefined, explicitLanguage: null, view: 'show' }))).toBe(en.card.giveName);
    expect(app.cards.resolvePatiently).not.toHaveBeenCalled();
  });

  it('gives the card found, looked up in the language asked, on the member’s share', async () => {
    const app = resolving({ kind: 'card', card: DARK_MAGICIAN });
    const named = await namedCard(chatContext('show', { name: 'magicien sombre' }).ctx, app, { language: 'fr', explicitLanguage: 'fr', view: 'show' });
    expect(named).toEqual({ card: DARK_MAGICIAN });
    expect(app.cards.resolvePatiently).toHaveBeenCalledWith('magicien sombre', 'fr', expect.objectContaining({ share: {} }));
    expect(app.memberShares.spenderFor).toHaveBeenCalledWith('42', 'ygoprodeck');
  });

  it('offers a "Did you mean" menu whose pick opens the view asked for', async () => {
    const app = resolving({ kind: 'choices', candidates: [DARK_MAGICIAN, dumpCard(38033121)] });
    const named = await namedCard(chatContext('price', { name: 'magician' }).ctx, app, { language: undefined, explicitLanguage: null, view: 'price' });
    if (!('choices' in named)) throw new Error('expected choices');
    expect(JSON.stringify(named.choices.components)).toContain('card:open:price');
    expect(named.choices.ephemeral).toBe(true);
  });

  it('says no card matches, or, before the database has loaded, that it is still loading', async () => {
    const options = { language: undefined, explicitLanguage: null, view: 'show' as const };
    expect(await refusal(namedCard(chatContext('show', { name: 'zzz' }).ctx, resolving({ kind: 'none' }), options))).toBe(en.card.noMatch('“zzz”'));
    expect(await refusal(namedCard(chatContext('show', { name: 'zzz' }).ctx, resolving({ kind: 'none' }, false), options))).toBe(`${en.card.notExactly('“zzz”')} ${en.card.databaseLoading}`);
  });
});

describe('filtersOf', () => {
  const cards = (extra: Record<string, unknown>) => stubServices({ cards: { ready: true, waitForDatabase: async () => true, knowsFormats: true, archetype: () => undefined, ...extra } });

  it('refuses an archetype the database does not know, quoting what was typed', async () => {
    expect(await refusal(filtersOf(chatContext('search', { archetype: 'Nope' }).ctx, cards({}), true))).toBe(en.card.noArchetype('“Nope”'));
  });

  it('keeps the archetype as the database names it, with the other filters', async () => {
    const filters = await filtersOf(chatContext('random', { archetype: 'dark magician', attribute: 'DARK', level: 7 }).ctx, cards({ archetype: () => 'Dark Magician' }), false);
    expect(filters).toMatchObject({ archetype: 'Dark Magician', attribute: 'DARK', level: 7 });
  });

  it('refuses a format when the database lists none, rather than find nothing', async () => {
    expect(await refusal(filtersOf(chatContext('search', { format: 'tcg' }).ctx, cards({ knowsFormats: false }), true))).toBe(en.card.formatsUnknown);
  });
});

describe('cardReply', () => {
  it('does not even fetch the art where Discord allows no attachment, and says so', async () => {
    const present = vi.fn(async () => ({ card: DARK_MAGICIAN, art: null }));
    const { ctx } = chatContext('show', {}, { attachFiles: false });
    const reply = await cardReply(stubServices({ cards: { present, genesysPoints: () => undefined } }), DARK_MAGICIAN, undefined, ctx, presentationFor(ctx));
    expect(present).toHaveBeenCalledWith(DARK_MAGICIAN, undefined, expect.objectContaining({ withArt: false }));
    expect(reply.content).toBe(en.install.artNotAttachable);
    expect(reply.embeds?.[0]?.title).toContain('Dark Magician');
  });
});
