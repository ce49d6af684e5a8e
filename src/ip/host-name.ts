import { domainToASCII, domainToUnicode } from 'node:url';

/** Why an entry is neither an address nor a name Almanac resolves; render words each in the member's language. */
export type EntryProblem =
  | 'notAddress'
  | 'cidr'
  | 'percentOrZone'
  | 'badCharacters'
  | 'labelTooLong'
  | 'nameTooLong'
  | 'privateName';

export type ParsedHostName = { ok: true; name: string; display: string } | { ok: false; problem: EntryProblem };

/** RFC 1035: a label is at most 63 octets, a name at most 253 written without its trailing dot. */
const MAX_LABEL = 63;
const MAX_NAME = 253;

/**
 * Names that only mean something inside someone's network (RFC 6761 `localhost`, RFC 6762 `.local`
 * and the private suffixes of its appendix G, RFC 8375 `home.arpa`, ICANN's `.internal`): asking a
 * resolver about them would make Almanac a window into the network it runs in, so they are refused
 * before any query, like single-label names (which a system resolver completes with its search list).
 */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'lan', 'home', 'corp', 'intranet', 'private'];

// Letters, digits, hyphens inside, and the underscore service labels use (`_dmarc`).
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

/**
 * Validates a host name as typed (Unicode or punycode, any case, a trailing dot allowed) and returns
 * its ASCII form (what is sent to DNS: lowercase punycode, no trailing dot) and its Unicode form (what
 * is shown). A name WHATWG would read as an IPv4 address (`1.2.3`, `0x7f.1`) is not a name.
 */
export function parseHostName(input: string): ParsedHostName {
  const typed = input.trim();
  if (typed.includes('%')) return { ok: false, problem: 'percentOrZone' };
  // Before IDNA: a long input costs nothing to refuse, and a label ending in a number makes the URL
  // parser behind domainToASCII read the whole name as an IPv4 address.
  if (typed.length > MAX_NAME * 4) return { ok: false, problem: 'nameTooLong' };
  // ASCII beyond letters, digits, dot, hyphen and underscore is never part of a name; the URL parser
  // behind domainToASCII would even cut the name at a `/` or `?` and resolve what came before.
  if (/[^A-Za-z0-9._\-\u0080-\u{10ffff}]/u.test(typed)) return { ok: false, problem: 'badCharacters' };
  const lastLabel = typed.replace(/\.$/, '').split('.').pop() ?? '';
  if (/^(?:0x[0-9a-f]*|\d+)$/i.test(lastLabel)) return { ok: false, problem: 'notAddress' };
  const ascii = domainToASCII(typed).replace(/\.$/, '');
  if (ascii === '') return { ok: false, problem: typed.replace(/\.$/, '') === '' ? 'notAddress' : 'badCharacters' };
  const labels = ascii.split('.');
  if (labels.some((label) => label.length > MAX_LABEL)) return { ok: false, problem: 'labelTooLong' };
  if (ascii.length > MAX_NAME) return { ok: false, problem: 'nameTooLong' };
  if (!labels.every((label) => LABEL.test(label))) return { ok: false, problem: 'badCharacters' };
  if (labels.length === 1 || PRIVATE_SUFFIXES.some((suffix) => ascii === suffix || ascii.endsWith(`.${suffix}`))) {
    return { ok: false, problem: 'privateName' };
  }
  return { ok: true, name: ascii, display: domainToUnicode(ascii) || ascii };
}
