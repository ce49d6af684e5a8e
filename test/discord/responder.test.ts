import { InteractionResponseType, MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DiscordResponder, type InitialResponse } from '../../src/discord/responder.js';
import type { WebhookWriter } from '../../src/discord/webhook-writer.js';

/** A responder whose acknowledgements and webhook writes are recorded instead of sent. */
function recorded() {
  const acknowledgements: InitialResponse[] = [];
  const writes: { kind: string; messageId?: string; body: unknown }[] = [];
  const writer = {
    edit: async (_webhook: unknown, messageId: string, edit: unknown) => void writes.push({ kind: 'edit', messageId, body: edit }),
    delete: async (_webhook: unknown, messageId: string) => void writes.push({ kind: 'delete', messageId, body: null }),
    followUp: async (_webhook: unknown, reply: unknown) => {
      writes.push({ kind: 'followUp', body: reply });
      return { id: 'follow-up-1' };
    },
  } as unknown as WebhookWriter;
  const responder = new DiscordResponder({ applicationId: '1', token: 'token' }, writer, async (response) => void acknowledgements.push(response));
  return { responder, acknowledgements, writes };
}

describe('DiscordResponder: one acknowledgement, then the webhook', () => {
  it('replies once, privately when asked, and refuses a second acknowledgement as Discord would', async () => {
    const { responder, acknowledgements } = recorded();
    await responder.reply({ content: 'hello', ephemeral: true });
    expect(responder.replied).toBe(true);
    expect(acknowledgements).toEqual([
      expect.objectContaining({ type: InteractionResponseType.ChannelMessageWithSource, data: expect.objectContaining({ content: 'hello', flags: MessageFlags.Ephemeral }), files: [] }),
    ]);
    await expect(responder.deferReply({ ephemeral: false })).rejects.toThrow(/already been acknowledged/);
    expect(acknowledgements).toHaveLength(1);
  });

  it('defers privately, then edits the original and follows up through the webhook', async () => {
    const { responder, acknowledgements, writes } = recorded();
    await expect(responder.editReply({ content: 'too early' })).rejects.toThrow(/not been acknowledged/);
    await responder.deferReply({ ephemeral: true });
    expect(responder.deferred).toBe(true);
    expect(acknowledgements).toEqual([{ type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral }, files: [] }]);
    await responder.editReply({ content: 'done' });
    expect(await responder.followUp({ content: 'more' })).toEqual({ id: 'follow-up-1' });
    await responder.editFollowUp('follow-up-1', { content: 'edited' });
    expect(writes.map(({ kind, messageId }) => [kind, messageId])).toEqual([
      ['edit', '@original'],
      ['followUp', undefined],
      ['edit', 'follow-up-1'],
    ]);
  });

  it('answers autocomplete with its choices and a component by updating its message', async () => {
    const autocomplete = recorded();
    await autocomplete.responder.respond([{ name: 'Dark Magician', value: '46986414' }]);
    expect(autocomplete.acknowledgements).toEqual([
      { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [{ name: 'Dark Magician', value: '46986414' }] }, files: [] },
    ]);
    const component = recorded();
    await component.responder.update({ content: 'page 2' });
    expect(component.acknowledgements[0]).toMatchObject({ type: InteractionResponseType.UpdateMessage, data: { content: 'page 2' } });
  });
});
