import { ApplicationCommandOptionType, ApplicationCommandType, InteractionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { InteractionResponder } from '../../src/interaction/routed-interaction.js';
import { parseApiInteraction, toRoutedInteraction } from '../../src/discord/api-interaction.js';

const responder = {} as InteractionResponder;
const user = { id: '200', username: 'tester' };
const file = { id: '300', filename: 'deck.ydk', size: 120, url: 'https://cdn.discordapp.com/attachments/1/300/deck.ydk', proxy_url: 'x' };

function routed(data: Record<string, unknown>) {
  const payload = parseApiInteraction({ id: '1', application_id: '2', token: 't', type: InteractionType.ApplicationCommand, user, data });
  if (!payload) throw new Error('payload rejected');
  return toRoutedInteraction(payload, responder);
}

describe('HTTP mode: attachments as Discord describes them', () => {
  it('reads an attachment option through resolved.attachments; an id Discord did not resolve is no attachment', () => {
    const options = [{ name: 'show', type: ApplicationCommandOptionType.Subcommand, options: [{ name: 'file', type: ApplicationCommandOptionType.Attachment, value: '300' }] }];
    const chat = routed({ name: 'deck', type: ApplicationCommandType.ChatInput, options, resolved: { attachments: { 300: file } } });
    expect(chat?.kind === 'chat' && chat.options.getAttachment('file')).toEqual({ name: 'deck.ydk', size: 120, url: file.url });
    const unresolved = routed({ name: 'deck', type: ApplicationCommandType.ChatInput, options });
    expect(unresolved?.kind === 'chat' && unresolved.options.getAttachment('file')).toBeNull();
  });

  it('gives a message menu the target message’s attachments', () => {
    const message = routed({ name: 'Read deck', type: ApplicationCommandType.Message, target_id: '9', resolved: { messages: { 9: { id: '9', content: 'hi', attachments: [file] } } } });
    expect(message?.kind === 'message' && message.targetMessage.attachments).toEqual([{ name: 'deck.ydk', size: 120, url: file.url }]);
  });
});
