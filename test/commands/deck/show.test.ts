import { describe, expect, it } from 'vitest';
import { show } from '../../../commands/deck/show.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { DECK_URL, deckServices, legalityOf } from '../../helpers/deck-fixtures.js';

const FILE = { name: 'deck.ydk', size: 40, url: 'https://cdn.discordapp.com/attachments/1/2/deck.ydk' };

describe('/deck show', () => {
  it('takes exactly one of url and file', async () => {
    const { app, read } = deckServices();
    await expect(show(chatContext('show').ctx, app)).rejects.toThrow(en.deck.oneSource);
    await expect(show(chatContext('show', { url: DECK_URL, file: FILE }).ctx, app)).rejects.toThrow(en.deck.oneSource);
    expect(read).not.toHaveBeenCalled();
  });

  it('shows a ydke URL publicly by default, privately with public:false, reading no file', async () => {
    const { app, read } = deckServices();
    expect((await show(chatContext('show', { url: DECK_URL }).ctx, app)).ephemeral).toBe(false);
    expect((await show(chatContext('show', { url: DECK_URL, public: false }).ctx, app)).ephemeral).toBe(true);
    expect(read).not.toHaveBeenCalled();
  });

  it('judges Genesys against points-cap, 100 when absent', async () => {
    const { app } = deckServices();
    expect(legalityOf(await show(chatContext('show', { url: DECK_URL }).ctx, app))).toContain('❌ **Genesys** · 30 / 100 points');
    const capped = legalityOf(await show(chatContext('show', { url: DECK_URL, 'points-cap': 25 }).ctx, app));
    expect(capped).toContain('❌ **Genesys** · 30 / 25 points');
    expect(capped).toContain('30 points, over the cap of 25');
  });

  it('reads a .ydk file when given one, and refuses a damaged URL before anything else runs', async () => {
    const { app, read, draw } = deckServices();
    await show(chatContext('show', { file: FILE }).ctx, app);
    expect(read).toHaveBeenCalledOnce();
    await expect(show(chatContext('show', { url: 'ydke://A!!!' }).ctx, app)).rejects.toThrow(en.deck.problems.badBase64);
    expect(draw).toHaveBeenCalledOnce();
  });
});
