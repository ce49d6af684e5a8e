import { parseIpAddress } from './address.js';
import { parseHostName, type EntryProblem } from './host-name.js';
import { describeSpecialRange } from './special-ranges.js';

/** The record types `/ip dig` asks for: what an operator checks during an incident, DNSSEC's included. */
export const DIG_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA', 'SRV', 'PTR', 'DS', 'DNSKEY'] as const;
export type DigType = (typeof DIG_TYPES)[number];

/** `system`: `DNS_SERVERS` (else the host's resolvers); any other value names one of `DOH_RESOLVERS`. */
export const SYSTEM_RESOLVER = 'system';

/** What to ask: `name` in lowercase punycode without trailing dot (what goes on the wire), `display` in Unicode. */
export interface DigQuestion {
  name: string;
  display: string;
  type: DigType;
}

export type DigProblem = EntryProblem | 'specialAddress' | 'unknownType';
export type ParsedDigQuestion = { ok: true; question: DigQuestion } | { ok: false; problem: DigProblem };

export function isDigType(value: string): value is DigType {
  return (DIG_TYPES as readonly string[]).includes(value);
}

/**
 * Reads `/ip dig name [type]` before any query: a host name as `/ip` takes it (local and private
 * names refused), or, for PTR (the default for an address), a public address as its reverse name.
 * A type not in `DIG_TYPES` is refused; none given is A for a name, PTR for an address.
 */
export function parseDigQuestion(input: string, typeInput: string | null): ParsedDigQuestion {
  const typed = typeInput?.trim().toUpperCase() ?? '';
  if (typed !== '' && !isDigType(typed)) return { ok: false, problem: 'unknownType' };
  const address = parseIpAddress(input);
  if (address.ok) {
    if (describeSpecialRange(address.address) !== null) return { ok: false, problem: 'specialAddress' };
    const name = reverseNameOf(address.address, address.version);
    return { ok: true, question: { name, display: name, type: typed === '' ? 'PTR' : (typed as DigType) } };
  }
  if (address.problem !== 'notAddress') return { ok: false, problem: address.problem };
  const name = parseHostName(input);
  if (!name.ok) return name;
  return { ok: true, question: { name: name.name, display: name.display, type: typed === '' ? 'A' : (typed as DigType) } };
}

/** `8.8.4.4` → `4.4.8.8.in-addr.arpa`; IPv6 as its 32 nibbles, reversed, under `ip6.arpa`. */
export function reverseNameOf(address: string, version: 4 | 6): string {
  if (version === 4) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const fill = address.includes('::') ? 8 - groups(head).length - groups(tail).length : 0;
  const nibbles = [...groups(head), ...Array<string>(fill).fill('0'), ...groups(tail)].map((group) => group.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

/** What a Refresh button asks again, stored under its key (a name can be far longer than a custom_id). */
export function digRefreshText(question: DigQuestion, resolver: string): string {
  return `${question.type} ${resolver} ${question.name}`;
}

/** A stored refresh read back and validated again, as typed input is; null when it is not one. */
export function parseDigRefreshText(text: string): { question: DigQuestion; resolver: string } | null {
  const [type = '', resolver = '', name = '', ...rest] = text.split(' ');
  if (rest.length > 0 || resolver === '') return null;
  const parsed = parseDigQuestion(name, type);
  return parsed.ok ? { question: parsed.question, resolver } : null;
}

const DIG_REFRESH = 'ip:dig:';

/** The Refresh button of an answer whose question is stored under `key`. */
export function digRefreshId(key: string): string {
  return `${DIG_REFRESH}${key}`;
}

/** The stored question's key a Refresh button carries, or null for another component. */
export function parseDigRefreshId(customId: string): string | null {
  return customId.startsWith(DIG_REFRESH) ? customId.slice(DIG_REFRESH.length) : null;
}
