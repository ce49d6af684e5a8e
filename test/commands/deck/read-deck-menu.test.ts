import { describe, expect, it } from 'vitest';
import { readDeckMenu } from '../../../commands/deck/read-deck-menu.js';
import { en } from '../../../src/i18n/en.js';
import { messageContext } from '../../helpers/command-contexts.js';
import { DECK_URL, deckServices, legalityOf } from '../../helpers/deck-fixtures.js';

const YDK_FILE = { name: 'My Deck.YDK', size: 40, url: 'https://cdn.discordapp.com/attachments/1/2/deck.ydk' };

describe('message menu Read deck', () => {
  it('is a message menu named Read deck', () => {
    expect([readDeckMenu.kind, readDeckMenu.data.name]).toEqual(['message', 'Read deck']);
  });

  it('shows the first ydke URL in the message, publicly, before any attachment', async () => {
    const { app, read } = deckServices();
    const reply = await readDeckMenu.execute(messageContext(`try this: ${DECK_URL} !`, [YDK_FILE]).ctx, app);
    expect(reply.ephemeral).toBe(false);
    expect(read).not.toHaveBeenCalled();
    // Genesys at Konami's cap.
    expect(legalityOf(reply)).toContain('❌ **Genesys** · 30 / 100 points');
  });

  it('reads the first .ydk attachment when the text holds no URL, and says when there is neither', async () => {
    const { app, read } = deckServices();
    await readDeckMenu.execute(messageContext('my deck', [{ ...YDK_FILE, name: 'notes.txt' }, YDK_FILE]).ctx, app);
    expect(read).toHaveBeenCalledWith(YDK_FILE, expect.any(Number));
    await expect(readDeckMenu.execute(messageContext('no deck here', [{ ...YDK_FILE, name: 'notes.txt' }]).ctx, app)).rejects.toThrow(en.deck.noDeckInMessage);
  });
});
