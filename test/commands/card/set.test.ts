import { describe, expect, it, vi } from 'vitest';
import { openPickedSet, showSet, turnSetPage } from '../../../commands/card/set.js';
import type { CardSet } from '../../../src/cards/card-set.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext, componentContext, stubServices, updated } from '../../helpers/command-contexts.js';

const LOB: CardSet = { key: 'lob1', name: 'Legend of Blue Eyes White Dragon', code: 'LOB', cardCount: 126, tcgDate: '2002-03-08', imageStem: 'LOB' };

function cards(resolution: unknown, extra: Record<string, unknown> = {}) {
  return {
    ready: true,
    setsReady: true,
    waitForDatabase: async () => true,
    resolveSet: vi.fn(() => resolution),
    setByKey: (key: string) => (key === LOB.key ? LOB : undefined),
    setListing: () => [],
    setsWithCode: () => [LOB],
    art: vi.fn(async () => null),
    ...extra,
  };
}

describe('/card set', () => {
  it('asks for a name, and says the set list is loading when it is still', async () => {
    await expect(showSet(chatContext('set', { name: ' ' }).ctx, stubServices({ cards: cards({ kind: 'none' }) }))).rejects.toThrow(en.card.giveSetName);
    const loading = cards({ kind: 'none' }, { setsReady: false, whenSetsReady: async () => false });
    await expect(showSet(chatContext('set', { name: 'LOB' }).ctx, stubServices({ cards: loading }))).rejects.toThrow(en.card.setListLoading);
  });

  it('shows the set resolved, with its image fetched on the member’s share; offers a menu for several', async () => {
    const service = cards({ kind: 'set', set: LOB });
    const reply = await showSet(chatContext('set', { name: 'LOB' }).ctx, stubServices({ cards: service }));
    expect(service.resolveSet).toHaveBeenCalledWith('LOB');
    expect(service.art).toHaveBeenCalledWith(LOB, {});
    expect(reply.embeds?.[0]?.title).toContain('Legend of Blue Eyes White Dragon');
    const choices = await showSet(chatContext('set', { name: 'legend' }).ctx, stubServices({ cards: cards({ kind: 'choices', candidates: [LOB, { ...LOB, key: 'lob2', name: 'LOB 25th' }] }) }));
    expect(JSON.stringify(choices.components)).toContain('lob2');
    await expect(showSet(chatContext('set', { name: 'nope' }).ctx, stubServices({ cards: cards({ kind: 'none' }) }))).rejects.toThrow(/No card set matches/);
  });

  it('turns a set’s page in place for its owner, privately for anyone else; a gone set is said', async () => {
    const app = stubServices({ cards: cards({ kind: 'none' }) });
    expect(updated(await turnSetPage(componentContext('card:set-page:lob1:1'), app, LOB.key, 1)).embeds).toHaveLength(1);
    expect(await turnSetPage(componentContext('card:set-page:lob1:1', { ownerId: 'x' }), app, LOB.key, 1)).toEqual({ reply: expect.objectContaining({ ephemeral: true }) });
    await expect(turnSetPage(componentContext('card:set-page:gone:0'), app, 'gone', 0)).rejects.toThrow(en.card.setGone);
  });

  it('opens a set picked from the menu, and says when the menu is stale', async () => {
    const app = stubServices({ cards: cards({ kind: 'none' }) });
    expect((await openPickedSet(componentContext('card:set-open', { values: ['lob1'] }), app)).embeds?.[0]?.title).toContain('Legend');
    await expect(openPickedSet(componentContext('card:set-open', { values: [] }), app)).rejects.toThrow(en.card.setMenuExpired);
  });
});
