import { ComponentType, InteractionResponseType, type APIButtonComponent, type APIMessage } from 'discord.js';
import type { FinalMessage, InteractionExchange } from '../fakes/discord.js';

/** The custom_id of the button labelled `label` on a message (e.g. a pager's ▶); throws when there is none. */
export function buttonCustomId(message: Pick<APIMessage, 'components'>, label: string): string {
  const button = (message.components ?? [])
    .flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []))
    .find((component): component is APIButtonComponent & { custom_id: string } => component.type === ComponentType.Button && 'custom_id' in component && component.label === label);
  if (!button) throw new Error(`no ${label} button`);
  return button.custom_id;
}

/**
 * The new message a press on a component sends (a listing opened from a button or menu): the reply
 * itself, or the follow-up after a deferred update of the message pressed on.
 */
export async function newMessageFrom(exchange: InteractionExchange): Promise<FinalMessage> {
  if ((await exchange.callback()).type !== InteractionResponseType.DeferredMessageUpdate) return exchange.final();
  const { message, files } = await exchange.waitForFollowUp();
  return { ...message, ephemeral: ((message.flags ?? 0) & 64) !== 0, files };
}
