import { ButtonStyle, ComponentType, type APIEmbed, type APIEmbedField } from 'discord.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Reply } from '../interaction/reply.js';
import type { DigAnswer, DigRecord } from '../ip/dig-answer.js';
import { DIG_TYPES, SYSTEM_RESOLVER, type DigProblem, type DigQuestion } from '../ip/dig-query.js';
import { discordTimestamp, EMBED_LIMITS, truncate } from './format.js';
import { fitText } from './user-text.js';

const DIG_COLOUR = 0x3ba55c;
const FAILED_COLOUR = 0xed4245;
/** The code block's lines, aligned as dig aligns them, within the embed's description. */
const MAX_LINES = 40;

/** A record's line inside a code block: no backtick to close it. */
function recordLine(record: DigRecord, nameWidth: number): string {
  const line = `${record.name.padEnd(nameWidth)}  ${String(record.ttl).padStart(6)}  ${record.type.padEnd(6)}  ${record.data}`;
  return line.replace(/`/g, "'");
}

function recordsBlock(records: readonly DigRecord[]): string {
  const nameWidth = Math.min(40, Math.max(...records.map((record) => record.name.length)));
  const lines = records.slice(0, MAX_LINES).map((record) => truncate(recordLine(record, nameWidth), 300));
  const more = records.length > MAX_LINES ? [`; … ${records.length - MAX_LINES}`] : [];
  let block = [...lines, ...more].join('\n');
  // Room for the fences and a sentence or two after them.
  if (block.length > EMBED_LIMITS.description - 400) block = truncate(block, EMBED_LIMITS.description - 400);
  return `\`\`\`\n${block}\n\`\`\``;
}

export interface DigView {
  question: DigQuestion;
  resolver: string;
  answer: DigAnswer;
  /** The Refresh button's custom_id (its question is stored under a key). */
  refreshId: string;
  askedAt: Date;
  messages: Catalogue;
}

/** The answer as dig shows it: each record with its TTL, the status and flags, the resolver, a Refresh button. */
export function renderDig(view: DigView): Reply {
  const t = view.messages.ops.dig;
  const { answer } = view;
  const flags = [answer.authentic ? t.authentic : t.notAuthentic, ...(answer.truncated ? [t.truncated] : [])];
  const resolver = view.resolver === SYSTEM_RESOLVER ? t.configured : fitText(view.resolver, 40);
  const fields: APIEmbedField[] = [
    { name: t.status, value: `\`${answer.rcode.replace(/`/g, '')}\``, inline: true },
    { name: t.flags, value: flags.join('\n'), inline: true },
    { name: t.resolver, value: `${resolver}, ${t.transports[answer.transport]}\n${discordTimestamp(view.askedAt, 'T')}`, inline: true },
  ];
  const notes = [...(answer.records.length === 0 ? [t.noRecords(view.question.type)] : []), ...(answer.hiddenPrivate > 0 ? [t.hiddenPrivate(answer.hiddenPrivate)] : [])];
  const description = [...(answer.records.length > 0 ? [recordsBlock(answer.records)] : []), ...notes].join('\n');
  const embed: APIEmbed = {
    title: truncate(`${view.question.type} ${view.question.display}`, EMBED_LIMITS.title),
    color: answer.rcode === 'NOERROR' ? DIG_COLOUR : FAILED_COLOUR,
    description,
    fields,
  };
  const refresh = { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: view.refreshId, label: t.refresh, emoji: { name: '🔄' } } as const;
  return { embeds: [embed], components: [{ type: ComponentType.ActionRow, components: [refresh] }], ephemeral: true };
}

/** Why `/ip dig` asked nothing, in the member's language. */
export function renderDigProblem(problem: DigProblem, messages: Catalogue): string {
  const t = messages.ops.dig;
  if (problem === 'unknownType') return t.unknownType(DIG_TYPES.join(', '));
  if (problem === 'specialAddress') return t.specialAddress;
  return t.notAName(messages.ip.problems[problem]);
}
