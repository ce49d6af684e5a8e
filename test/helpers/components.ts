import { ComponentType, InteractionResponseType, type APIButtonComponent, type APIEmbed, type APIMessage } from 'discord.js';
import { expect } from 'vitest';
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

/** The single item of `items`, asserting there is exactly one (a reply's one action row, say). */
export function only<T>(items: T[] | undefined): T {
  expect(items).toHaveLength(1);
  return items![0]!;
}

/** The value of the embed field named `name`, if there is one. */
export function field(embed: APIEmbed, name: string): string | undefined {
  return embed.fields?.find((candidate) => candidate.name === name)?.value;
}
