import { ButtonStyle, ComponentType, type APIEmbed } from 'discord.js';
import type { MessagePayload } from '../../src/interaction/reply.js';
import { embedCharacterCount } from '../../src/render/format.js';

/**
 * Checks of a message payload against what Discord accepts (developers/resources/message.mdx,
 * components/reference.mdx) and against what a reply must never do with text it did not write: a
 * payload breaking a limit is refused with a 400, and the user then gets no answer at all.
 */

const LIMITS = {
  content: 2_000,
  embeds: 10,
  title: 256,
  description: 4_096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1_024,
  footer: 2_048,
  author: 256,
  embedTotal: 6_000,
  rows: 5,
  buttonsPerRow: 5,
  customId: 100,
  buttonLabel: 80,
  url: 512,
  selectOptions: 25,
  selectPlaceholder: 150,
  optionText: 100,
  files: 10,
  fileBytes: 10 * 1024 * 1024,
} as const;

/** Half of a UTF-16 pair on its own: what cutting a string between the two halves leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

function lengthProblem(where: string, text: string | undefined, max: number, required = false): string[] {
  if (text === undefined) return required ? [`${where} is missing`] : [];
  const problems: string[] = [];
  if (text.length > max) problems.push(`${where} has ${text.length} characters (most ${max})`);
  if (required && text.trim() === '') problems.push(`${where} is empty`);
  if (LONE_SURROGATE.test(text)) problems.push(`${where} holds a lone surrogate (not valid UTF-8 once sent)`);
  return problems;
}


function urlProblem(where: string, url: string | undefined): string[] {
  if (url === undefined) return [];
  if (url.startsWith('attachment://')) return [];
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? lengthProblem(where, url, LIMITS.url) : [`${where} is not a web URL: ${url.slice(0, 80)}`];
  } catch {
    return [`${where} is not a URL: ${url.slice(0, 80)}`];
  }
}

function embedProblems(embed: APIEmbed, index: number): string[] {
  const at = `embed ${index}`;
  const fields = embed.fields ?? [];
  return [
    ...lengthProblem(`${at} title`, embed.title, LIMITS.title),
    ...lengthProblem(`${at} description`, embed.description, LIMITS.description),
    ...lengthProblem(`${at} footer`, embed.footer?.text, LIMITS.footer),
    ...lengthProblem(`${at} author`, embed.author?.name, LIMITS.author),
    ...(fields.length > LIMITS.fields ? [`${at} has ${fields.length} fields`] : []),
    ...fields.flatMap((field, n) => [
      ...lengthProblem(`${at} field ${n} name`, field.name, LIMITS.fieldName, true),
      ...lengthProblem(`${at} field ${n} value`, field.value, LIMITS.fieldValue, true),
    ]),
    ...urlProblem(`${at} url`, embed.url),
    ...urlProblem(`${at} image`, embed.image?.url),
    ...urlProblem(`${at} thumbnail`, embed.thumbnail?.url),
    ...urlProblem(`${at} author url`, embed.author?.url),
    ...urlProblem(`${at} author icon`, embed.author?.icon_url),
  ];
}

function componentProblems(payload: MessagePayload): string[] {
  const rows = payload.components ?? [];
  const problems: string[] = rows.length > LIMITS.rows ? [`${rows.length} action rows`] : [];
  const customIds = new Set<string>();
  rows.forEach((row, r) => {
    const components = row.components;
    if (components.length > LIMITS.buttonsPerRow) problems.push(`row ${r} has ${components.length} components`);
    for (const component of components) {
      if ('custom_id' in component) {
        problems.push(...lengthProblem(`row ${r} custom_id`, component.custom_id, LIMITS.customId, true));
        if (customIds.has(component.custom_id)) problems.push(`custom_id ${component.custom_id} is not unique`);
        customIds.add(component.custom_id);
      }
      if (component.type === ComponentType.Button) {
        if ('label' in component) problems.push(...lengthProblem(`row ${r} button label`, component.label, LIMITS.buttonLabel));
        if (component.style === ButtonStyle.Link) problems.push(...urlProblem(`row ${r} link button`, component.url));
      } else if (component.type === ComponentType.StringSelect) {
        if (component.options.length === 0 || component.options.length > LIMITS.selectOptions) problems.push(`row ${r} select has ${component.options.length} options`);
        problems.push(...lengthProblem(`row ${r} placeholder`, component.placeholder, LIMITS.selectPlaceholder));
        for (const option of component.options) {
          problems.push(...lengthProblem(`row ${r} option label`, option.label, LIMITS.optionText, true));
          problems.push(...lengthProblem(`row ${r} option value`, option.value, LIMITS.optionText, true));
          problems.push(...lengthProblem(`row ${r} option description`, option.description, LIMITS.optionText));
        }
      }
    }
  });
  return problems;
}

/** Everything in `payload` Discord would refuse; empty when it would be accepted. */
export function payloadProblems(payload: MessagePayload): string[] {
  const embeds = payload.embeds ?? [];
  const files = payload.files ?? [];
  const total = embeds.reduce((sum, embed) => sum + embedCharacterCount(embed), 0);
  return [
    ...lengthProblem('content', payload.content, LIMITS.content),
    ...(embeds.length > LIMITS.embeds ? [`${embeds.length} embeds`] : []),
    ...(total > LIMITS.embedTotal ? [`embeds total ${total} characters (most ${LIMITS.embedTotal})`] : []),
    ...embeds.flatMap(embedProblems),
    ...componentProblems(payload),
    ...(files.length > LIMITS.files ? [`${files.length} files`] : []),
    ...files.filter((file) => file.data.length > LIMITS.fileBytes).map((file) => `file ${file.name} is too big`),
    ...(payload.content === '' && embeds.length === 0 && files.length === 0 ? ['an empty message'] : []),
  ];
}

/** The texts of a payload a reader sees, where Discord renders markdown and links. */
export function renderedTexts(payload: MessagePayload): string[] {
  return [
    payload.content ?? '',
    ...(payload.embeds ?? []).flatMap((embed) => [embed.title ?? '', embed.description ?? '', ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]), embed.footer?.text ?? '']),
  ].filter((text) => text !== '');
}

/** Hosts named in `input`, lowercased: a link to one of them was put in the reply by whoever typed it. */
function hostsIn(input: string): Set<string> {
  const hosts = new Set<string>();
  for (const match of input.matchAll(/https?:\/\/([^\s/?#<>()[\]`|*_~]+)/gi)) hosts.add(match[1]!.toLowerCase());
  return hosts;
}

function linkedHost(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Links taken from `input` (someone's option value) that Discord would render clickable in `text`:
 * masked links `[text](url)` whose `[` is not escaped, always; bare URLs too when `publicMessage`
 * (an ephemeral reply that echoes users' own text only shows them what they typed). Discord renders
 * neither inside inline code.
 */
export function injectedLinks(text: string, input: string, publicMessage: boolean): string[] {
  const injectedHosts = hostsIn(input);
  if (injectedHosts.size === 0) return [];
  const outsideCode = text.replace(/`[^`]*`/g, '');
  const found: string[] = [];
  for (const match of outsideCode.matchAll(/(?<!\\)\[[^\]]*\]\(\s*<?(https?:\/\/[^\s)>]+)/gi)) {
    if (injectedHosts.has(linkedHost(match[1]!) ?? '')) found.push(match[0]);
  }
  if (publicMessage) {
    for (const match of outsideCode.matchAll(/https?:\/\/[^\s<>()[\]`|*_~]+/gi)) {
      if (injectedHosts.has(linkedHost(match[0]) ?? '')) found.push(match[0]);
    }
  }
  return found;
}
