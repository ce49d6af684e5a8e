import { describe, expect, it, vi } from 'vitest';
import { show } from '../../../commands/card/show.js';
import { chatContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);

function cards(resolution: unknown) {
  return {
    ready: true,
    resolvePatiently: vi.fn(async () => resolution),
    present: vi.fn(async (card: unknown, _language?: string) => ({ card, art: { format: 'jpg', data: Buffer.from('art') } })),
    localNames: () => new Map(),
    genesysPoints: vi.fn((card: { id: number }) => (card.id === DARK_MAGICIAN.id ? 0 : undefined)),
  };
}

describe('/card show', () => {
  it('shows the card in the language asked, in public, its art attached', async () => {
    const service = cards({ kind: 'card', card: DARK_MAGICIAN });
    const { ctx } = chatContext('show', { name: 'magicien sombre', language: 'fr' });
    const reply = await show(ctx, stubServices({ cards: service }));
    expect(service.resolvePatiently).toHaveBeenCalledWith('magicien sombre', 'fr', expect.anything());
    expect(service.present).toHaveBeenCalledWith(DARK_MAGICIAN, 'fr', expect.objectContaining({ withArt: true }));
    expect(reply.ephemeral).toBeFalsy();
    expect(reply.files?.map((file) => file.name)).toEqual([expect.stringMatching(/\.jpg$/)]);
    // In the Genesys pool at 0 points: shown, 0 included.
    expect(reply.embeds![0]!.fields).toContainEqual({ name: 'Genesys', value: '0 points', inline: true });
  });

  it('takes the user’s locale for the card text when no language is asked, and English for `en`', async () => {
    const service = cards({ kind: 'card', card: DARK_MAGICIAN });
    await show(chatContext('show', { name: 'x' }, { user: { locale: 'de' } }).ctx, stubServices({ cards: service }));
    await show(chatContext('show', { name: 'x', language: 'en' }, { user: { locale: 'de' } }).ctx, stubServices({ cards: service }));
    expect(service.present.mock.calls.map((call) => call[1])).toEqual(['de', undefined]);
  });

  it('answers a close call with its "Did you mean" menu and presents no card', async () => {
    const service = cards({ kind: 'choices', candidates: [DARK_MAGICIAN, dumpCard(38033121)] });
    const reply = await show(chatContext('show', { name: 'dark magic' }).ctx, stubServices({ cards: service }));
    expect(JSON.stringify(reply.components)).toContain('card:open');
    expect(service.present).not.toHaveBeenCalled();
  });
});
