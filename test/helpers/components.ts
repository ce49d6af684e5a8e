import { ComponentType, type APIButtonComponent, type APIMessage } from 'discord.js';

/** The custom_id of the button labelled `label` on a message (e.g. a pager's ▶); throws when there is none. */
export function buttonCustomId(message: Pick<APIMessage, 'components'>, label: string): string {
  const button = (message.components ?? [])
    .flatMap((row) => (row.type === ComponentType.ActionRow ? row.components : []))
    .find((component): component is APIButtonComponent & { custom_id: string } => component.type === ComponentType.Button && 'custom_id' in component && component.label === label);
  if (!button) throw new Error(`no ${label} button`);
  return button.custom_id;
}
