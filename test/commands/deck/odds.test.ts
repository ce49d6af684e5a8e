import type { APIButtonComponent, APIStringSelectComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { deck } from '../../../commands/deck/index.js';
import { odds } from '../../../commands/deck/odds.js';
import { showDeck } from '../../../commands/deck/shared.js';
import { en } from '../../../src/i18n/en.js';
import { fr } from '../../../src/i18n/fr.js';
import type { ComponentResult } from '../../../src/interaction/context.js';
import type { Reply } from '../../../src/interaction/reply.js';
import { toYdke } from '../../../src/decks/ydke.js';
import { chatContext, componentContext } from '../../helpers/command-contexts.js';
import { DARK_MAGICIAN, DECK, DECK_URL, deckServices } from '../../helpers/deck-fixtures.js';

function selects(reply: Reply | ComponentResult): APIStringSelectComponent[] {
  const payload = 'update' in reply ? reply.update : 'reply' in reply ? reply.reply : reply;
  return payload.components!.map((row) => row.components[0] as APIStringSelectComponent);
}

describe('Opening odds', () => {
  it('a shown deck carries the button; its owner gets the menus privately; anyone else a sentence', async () => {
    const { app, texts } = deckServices();
    const shown = await showDeck(chatContext('show').ctx, app, DECK, { ephemeral: false, pointsCap: 100 });
    const button = shown.components![0]!.components[0] as APIButtonComponent & { custom_id: string; label: string };
    expect(button.label).toBe('Opening odds');
    expect([...texts.values()]).toEqual([`${DARK_MAGICIAN.id},${DARK_MAGICIAN.id},${DARK_MAGICIAN.id},12345`]);
    const pressed = await deck.handleComponent!(componentContext(button.custom_id), app);
    expect(pressed).toMatchObject({ reply: { ephemeral: true, embeds: [{ description: en.deck.odds.pick }] } });
    expect(selects(pressed)[0]!.options.map((option) => option.label)).toEqual(['Dark Magician ×3', 'unknown card 12345 ×1']);
    expect(await deck.handleComponent!(componentContext(button.custom_id, { ownerId: 'someone else' }), app)).toEqual({ reply: { content: en.deck.odds.notYours, ephemeral: true } });
  });

  it('/deck odds: marking a starter answers the odds in place; the deck forgotten or a forged id gets a sentence', async () => {
    const { app, texts } = deckServices();
    const reply = await odds(chatContext('odds', { url: DECK_URL }).ctx, app);
    expect(reply.ephemeral).toBe(true);
    const menu = selects(reply)[0]!;
    const picked = await deck.handleComponent!(componentContext(menu.custom_id, { values: ['0'] }), app);
    // 3 Dark Magician in 4 cards: a hand of 5 or 6 holds one for sure.
    expect('update' in picked && picked.update.embeds![0]!.description).toContain('Going first (5 cards): **100.00%** · 3.00 starters expected');
    texts.clear();
    expect(await deck.handleComponent!(componentContext(menu.custom_id, { values: ['0'] }), app)).toEqual({ reply: { content: en.deck.odds.forgotten, ephemeral: true } });
    expect(await deck.handleComponent!(componentContext('deck:os:nonsense'), app)).toEqual({ reply: { content: en.errors.buttonsExpired, ephemeral: true } });
  });

  it('a deck of more than 25 distinct cards pages its menu, keeping the marks of other pages', async () => {
    const { app } = deckServices();
    const main = Array.from({ length: 40 }, (_, index) => index + 1);
    const reply = await odds(chatContext('odds', { url: toYdke({ main, extra: [], side: [] }) }).ctx, app);
    const first = selects(reply)[0]!;
    expect(first.options).toHaveLength(25);
    const turned = await deck.handleComponent!(componentContext(first.custom_id, { values: ['0', 'more'] }), app);
    const second = selects(turned)[0]!;
    expect(second.options.map((option) => option.value)).toEqual([...Array.from({ length: 16 }, (_, index) => String(24 + index)), 'more']);
    const marked = await deck.handleComponent!(componentContext(second.custom_id, { values: ['39'] }), app);
    expect('update' in marked && marked.update.embeds![0]!.description).toContain('**Starters (2 of 40 cards)**: Card 1 ×1, Card 40 ×1');
  });

  it('refuses with one sentence: two sources or none, an empty Main Deck, more than 60 distinct cards; in the member’s language', async () => {
    const { app } = deckServices();
    await expect(odds(chatContext('odds').ctx, app)).rejects.toThrow(en.deck.oneSource);
    await expect(odds(chatContext('odds', { url: toYdke({ main: [], extra: [DARK_MAGICIAN.id], side: [] }) }).ctx, app)).rejects.toThrow(en.deck.odds.noMain);
    const wide = Array.from({ length: 61 }, (_, index) => index + 1);
    await expect(odds(chatContext('odds', { url: toYdke({ main: wide, extra: [], side: [] }) }).ctx, app)).rejects.toThrow(en.deck.odds.tooMany);
    const french = await deck.handleComponent!(componentContext('deck:odds:k000000000', { user: { locale: 'fr' } }), app);
    expect(french).toEqual({ reply: { content: fr.deck.odds.forgotten, ephemeral: true } });
  });
});
