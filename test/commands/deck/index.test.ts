import { describe, expect, it } from 'vitest';
import { deck } from '../../../commands/deck/index.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { DECK_URL, deckServices } from '../../helpers/deck-fixtures.js';

describe('/deck definition', () => {
  it('has show, with an optional url (bounded), file, public and points-cap (0–1000)', () => {
    const [show] = (deck.data.options ?? []) as { name: string; options?: { name: string; required?: boolean; max_length?: number; min_value?: number; max_value?: number }[] }[];
    expect(show!.name).toBe('show');
    expect(show!.options?.map((option) => [option.name, option.required ?? false])).toEqual([['url', false], ['file', false], ['public', false], ['points-cap', false]]);
    expect(show!.options?.[3]).toMatchObject({ min_value: 0, max_value: 1000 });
    expect(show!.options?.[0]?.max_length).toBe(2000);
  });

  it('answers /deck show', async () => {
    const { app, draw } = deckServices();
    await deck.execute(chatContext('show', { url: DECK_URL }).ctx, app);
    expect(draw).toHaveBeenCalledOnce();
  });
});
