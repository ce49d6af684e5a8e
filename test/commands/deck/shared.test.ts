import { describe, expect, it } from 'vitest';
import { deckFromFile, readDeck, showDeck } from '../../../commands/deck/shared.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { DARK_MAGICIAN, DECK, deckServices, PICTURE } from '../../helpers/deck-fixtures.js';

const FILE = { name: 'deck.ydk', size: 40, url: 'https://cdn.discordapp.com/attachments/1/2/deck.ydk' };

describe('reading a deck', () => {
  it('gives the parsed deck, or refuses with the one sentence for its problem', () => {
    expect(readDeck({ ok: true, deck: DECK })).toBe(DECK);
    expect(() => readDeck({ ok: false, problem: 'badBase64' })).toThrow(en.deck.problems.badBase64);
  });

  it('reads a .ydk from Discord’s CDN, at most 64 KiB, and says why one cannot be read', async () => {
    const { app, read } = deckServices();
    const deck = await deckFromFile(chatContext('show').ctx, app, FILE, false);
    expect(read).toHaveBeenCalledWith(FILE, 64 * 1024);
    expect(deck.main).toEqual([DARK_MAGICIAN.id]);
    const refused = deckServices({ read: { ok: false, problem: 'notDiscord' } });
    await expect(deckFromFile(chatContext('show').ctx, refused.app, FILE, false)).rejects.toThrow(en.deck.fileProblems.notDiscord);
  });
});

describe('showing a deck', () => {
  it('answers with the report and its picture, with the ephemerality asked, and completes nothing when all art is there', async () => {
    const { app, draw, complete } = deckServices();
    const reply = await showDeck(chatContext('show').ctx, app, DECK, { ephemeral: true, pointsCap: 100 });
    expect(reply.ephemeral).toBe(true);
    expect(draw).toHaveBeenCalledWith('42', expect.anything(), expect.any(Function));
    expect(reply.files?.find((file) => file.name === 'deck.jpg')?.data).toBe(PICTURE);
    expect(JSON.stringify(reply.embeds)).toContain('unknown card 12345');
    expect(reply.completion).toBeUndefined();
    expect(complete).not.toHaveBeenCalled();
  });

  it('completes the picture later when some art was left for the background', async () => {
    const { app, complete } = deckServices({ pending: [DARK_MAGICIAN.id] });
    const reply = await showDeck(chatContext('show').ctx, app, DECK, { ephemeral: false, pointsCap: 100 });
    expect(reply.completion).toBeInstanceOf(Promise);
    await reply.completion;
    expect(complete).toHaveBeenCalledOnce();
  });

  it('refuses while the card database is not there, before drawing anything', async () => {
    const { app, draw } = deckServices({ ready: false });
    await expect(showDeck(chatContext('show').ctx, app, DECK, { ephemeral: false, pointsCap: 100 })).rejects.toThrow(en.card.databaseLoading);
    expect(draw).not.toHaveBeenCalled();
  });
});
