import type { APIEmbed } from 'discord.js';
import { ComponentType } from 'discord.js';
import type { ActionRow, Reply } from '../interaction/reply.js';

/**
 * A readable terminal rendering of a message payload, for the CLI. Whether Discord would show it
 * only to its user is left out: a terminal has one reader (`--json` keeps the flag).
 */
export function renderAsText(reply: Reply): string {
  const out: string[] = [];
  if (reply.content) out.push(reply.content);
  for (const embed of reply.embeds ?? []) out.push(embedAsText(embed));
  for (const file of reply.files ?? []) out.push(`[attachment ${file.name}, ${file.data.length} bytes]`);
  for (const row of reply.components ?? []) out.push(rowAsText(row));
  return out.join('\n\n');
}

function embedAsText(embed: APIEmbed): string {
  const lines: string[] = [];
  if (embed.author?.name) lines.push(embed.author.name);
  if (embed.title) lines.push(embed.url ? `== ${embed.title} == <${embed.url}>` : `== ${embed.title} ==`);
  if (embed.description) lines.push(embed.description);
  for (const field of embed.fields ?? []) lines.push(`${field.name}: ${field.value.replace(/\n/g, '\n  ')}`);
  if (embed.image?.url) lines.push(`image: ${embed.image.url}`);
  if (embed.thumbnail?.url) lines.push(`thumbnail: ${embed.thumbnail.url}`);
  if (embed.footer?.text) lines.push(`-- ${embed.footer.text}`);
  return lines.join('\n');
}

function rowAsText(row: ActionRow): string {
  return row.components
    .map((component) => {
      switch (component.type) {
        case ComponentType.Button:
          return 'url' in component && component.url ? `[${component.label ?? 'link'} → ${component.url}]` : `[${'label' in component ? component.label ?? '' : ''}${component.disabled ? ' (disabled)' : ''}]`;
        case ComponentType.StringSelect:
          return `[select: ${component.options.map((option) => option.label).join(' | ')}]`;
        default:
          return '[component]';
      }
    })
    .join(' ');
}

/** The exact message payload Discord would receive, with attachments by name and size. */
export function renderAsJson(reply: Reply): string {
  return JSON.stringify(
    {
      content: reply.content ?? '',
      embeds: reply.embeds ?? [],
      components: reply.components ?? [],
      attachments: (reply.files ?? []).map((file, index) => ({ id: index, filename: file.name, size: file.data.length })),
      flags: reply.ephemeral ? 64 : 0,
      allowed_mentions: { parse: [] },
    },
    null,
    2,
  );
}
