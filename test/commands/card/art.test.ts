import { describe, expect, it, vi } from 'vitest';
import { art, turnArtPage } from '../../../commands/card/art.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext, componentContext, dumpCard, stubServices, updated } from '../../helpers/command-contexts.js';

const DARK_MAGICIAN = dumpCard(46986414);

function cards() {
  return {
    ready: true,
    resolvePatiently: vi.fn(async () => ({ kind: 'card', card: DARK_MAGICIAN })),
    byId: (id: number) => (id === DARK_MAGICIAN.id ? DARK_MAGICIAN : undefined),
    artwork: vi.fn(async () => ({ format: 'jpg', data: Buffer.from('art') })),
  };
}

describe('/card art', () => {
  it('shows the first artwork, attached, downloaded on the member’s share', async () => {
    const service = cards();
    const reply = await art(chatContext('art', { name: 'dark magician' }).ctx, stubServices({ cards: service }));
    expect(service.artwork).toHaveBeenCalledWith(DARK_MAGICIAN, 0, {});
    expect(reply.files).toHaveLength(1);
    expect(DARK_MAGICIAN.imageIds.length).toBeGreaterThan(1);
  });

  it('does not download an artwork where it could not be attached', async () => {
    const service = cards();
    const reply = await art(chatContext('art', { name: 'dark magician' }, { attachFiles: false }).ctx, stubServices({ cards: service }));
    expect(service.artwork).not.toHaveBeenCalled();
    expect(reply.content).toBe(en.install.artNotAttachable);
  });

  it('turns to the artwork pressed for, in place for its owner and privately for others; a gone card is said', async () => {
    const service = cards();
    const own = updated(await turnArtPage(componentContext('card:art:46986414:1'), stubServices({ cards: service }), DARK_MAGICIAN.id, 1));
    expect(service.artwork).toHaveBeenLastCalledWith(DARK_MAGICIAN, 1, {});
    expect(own.files).toHaveLength(1);
    const other = await turnArtPage(componentContext('card:art:46986414:1', { ownerId: 'x' }), stubServices({ cards: service }), DARK_MAGICIAN.id, 1);
    expect(other).toEqual({ reply: expect.objectContaining({ ephemeral: true }) });
    await expect(turnArtPage(componentContext('card:art:5:0'), stubServices({ cards: service }), 5, 0)).rejects.toThrow(en.card.cardGone);
  });
});
