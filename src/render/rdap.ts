import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Reply } from '../interaction/reply.js';
import type { RdapContact, RdapEvents, RdapObject } from '../ip/rdap.js';
import type { WhoisProblem, WhoisQuery } from '../ip/whois-query.js';
import { discordTimestamp, EMBED_LIMITS, truncate } from './format.js';
import { flagEmoji } from './ip.js';
import { fitText } from './user-text.js';

const RDAP_COLOUR = 0x5865f2;

/** A registry's text inside a code block: no backticks to close it, on one line. */
function codeSafe(text: string, max: number): string {
  return truncate(text.replace(/`/g, "'").replace(/\s+/g, ' ').trim(), max);
}

function contactLines(contact: RdapContact): string {
  const lines = [
    ...(contact.name ? [fitText(contact.name, 200)] : []),
    ...contact.emails.map((email) => `📧 ${fitText(email, 200)}`),
    ...contact.phones.map((phone) => `📞 ${fitText(phone, 60)}`),
  ];
  return lines.join('\n') || '—';
}

function dateOf(iso: string | null): string | null {
  const time = iso === null ? NaN : Date.parse(iso);
  return Number.isNaN(time) ? null : discordTimestamp(time, 'D');
}

function eventFields(events: RdapEvents, t: Catalogue['ops']['whois']): APIEmbedField[] {
  const dated: [string, string | null][] = [
    [t.registered, dateOf(events.registration)],
    [t.changed, dateOf(events.lastChanged)],
    [t.expires, dateOf(events.expiration)],
  ];
  return dated.flatMap(([name, value]) => (value === null ? [] : [{ name, value, inline: true }]));
}

/**
 * The line an operator pastes into a mail to the abuse contact. English whatever the member's
 * language: it is read by the network's abuse desk, not by the member.
 */
function reportLine(object: RdapObject, subject: string, contact: RdapContact): string | null {
  const [email] = contact.emails;
  if (email === undefined) return null;
  const what = object.kind === 'ip' ? object.range : object.kind === 'autnum' ? object.numbers : object.name;
  const owner = object.name ?? object.handle;
  const about = owner === null || object.kind === 'domain' ? what : `${owner}, ${what}`;
  return codeSafe(`To: ${email} · Subject: Abuse from ${subject} (${about}) · Seen: <time, UTC> · Evidence: <log lines>`, 900);
}

function titleOf(object: RdapObject, subject: string): string {
  if (object.kind === 'domain') return object.name ?? subject;
  const owner = object.name ?? object.handle;
  return owner === null ? subject : `${subject} · ${owner}`;
}

/** The registration of an address, AS or domain: who holds it, since when, and whom to tell about abuse. */
export function renderRdap(object: RdapObject, subject: string, ephemeral: boolean, messages: Catalogue): Reply {
  const t = messages.ops.whois;
  const fields: APIEmbedField[] = [];
  if (object.kind === 'ip') fields.push({ name: t.range, value: `\`${codeSafe(object.range, 200)}\``, inline: true });
  if (object.kind === 'autnum') fields.push({ name: t.network, value: `\`${object.numbers}\``, inline: true });
  if (object.kind !== 'domain' && object.country) fields.push({ name: t.country, value: `${flagEmoji(object.country)} ${fitText(object.country, 10)}`.trim(), inline: true });
  if (object.kind === 'domain' && object.registrar) fields.push({ name: t.registrar, value: fitText(object.registrar, 300), inline: true });
  if (object.registrant) fields.push({ name: t.registrant, value: fitText(object.registrant, 300), inline: true });
  fields.push({ name: t.registry, value: fitText(object.registry, 200), inline: true });
  fields.push(...eventFields(object.events, t));
  if (object.kind === 'domain') {
    if (object.status.length > 0) fields.push({ name: t.status, value: fitText(object.status.slice(0, 10).join(', '), 1000), inline: false });
    if (object.nameServers.length > 0) fields.push({ name: t.nameServers, value: fitText(object.nameServers.slice(0, 13).join('\n'), 1000), inline: false });
  }
  const report = object.abuse === null ? null : reportLine(object, subject, object.abuse);
  fields.push({ name: t.abuse, value: object.abuse === null ? t.noAbuse : contactLines(object.abuse), inline: false });
  const embed: APIEmbed = {
    title: truncate(titleOf(object, subject), EMBED_LIMITS.title),
    color: RDAP_COLOUR,
    fields,
    ...(report === null ? {} : { description: `${t.reportLine}\n\`\`\`\n${report}\n\`\`\`` }),
  };
  return { embeds: [embed], ephemeral };
}

/** How a question is named in the answer: the address, `AS13335`, or the domain in its Unicode form. */
export function whoisSubject(query: WhoisQuery): string {
  if (query.kind === 'ip') return query.address;
  if (query.kind === 'autnum') return `AS${query.number}`;
  return query.display;
}

/** Why `/ip whois` asked no registry, in the member's language. */
export function renderWhoisProblem(problem: WhoisProblem, messages: Catalogue): string {
  const t = messages.ops.whois;
  if (problem === 'specialAddress') return t.specialAddress;
  if (problem === 'asnTooLarge') return t.asnTooLarge;
  if (problem === 'notAddress') return t.giveQuery;
  return t.notAQuery(messages.ip.problems[problem]);
}
