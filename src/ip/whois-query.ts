import { parseIpAddress } from './address.js';
import type { EntryProblem } from './host-name.js';
import { parseLookupEntry } from './lookup-entry.js';
import { describeSpecialRange } from './special-ranges.js';

/** What `/ip whois query` asks the registries about. `name` is lowercase punycode, `display` its Unicode form. */
export type WhoisQuery =
  | { kind: 'ip'; address: string }
  | { kind: 'autnum'; number: number }
  | { kind: 'domain'; name: string; display: string };

/** Why a query is refused before any registry is asked: `specialAddress` is a private, loopback… address. */
export type WhoisProblem = EntryProblem | 'specialAddress' | 'asnTooLarge';

export type ParsedWhoisQuery = { ok: true; query: WhoisQuery } | { ok: false; problem: WhoisProblem };

/** `AS13335`, `as13335`, `ASN 13335`: an AS number as operators write it. */
const AS_NUMBER = /^ASN?\s?(\d{1,10})$/i;
/** AS numbers are 32 bits (RFC 6793). */
const MAX_AS_NUMBER = 4_294_967_295;

/**
 * Reads `/ip whois query`: an AS number, an address (public ones only: a registry knows nothing of
 * private space, and asking would tell it what the member's network uses), or a domain as `/ip`
 * takes host names (a URL's host, `host:port`), with local and private names refused.
 */
export function parseWhoisQuery(input: string): ParsedWhoisQuery {
  const typed = input.trim();
  const asn = AS_NUMBER.exec(typed);
  if (asn) {
    const number = Number(asn[1]);
    return number <= MAX_AS_NUMBER ? { ok: true, query: { kind: 'autnum', number } } : { ok: false, problem: 'asnTooLarge' };
  }
  const entry = parseLookupEntry(typed);
  if (!entry.ok) return entry;
  const { target } = entry;
  if (target.kind === 'name') return { ok: true, query: { kind: 'domain', name: target.name, display: target.display } };
  return publicAddress(target.address);
}

/** An address RDAP may be asked about: public, canonical. */
export function publicAddress(input: string): ParsedWhoisQuery {
  const parsed = parseIpAddress(input);
  if (!parsed.ok) return { ok: false, problem: parsed.problem };
  if (describeSpecialRange(parsed.address) !== null) return { ok: false, problem: 'specialAddress' };
  return { ok: true, query: { kind: 'ip', address: parsed.address } };
}

/** The custom_id prefix of `/ip`'s components. */
export const IP_COMPONENT_PREFIX = 'ip';
const OWNER_BUTTON = `${IP_COMPONENT_PREFIX}:owner:`;

/** The registration button of one address (at most 47 characters, within Discord's 100). */
export function ownerButtonId(address: string): string {
  return `${OWNER_BUTTON}${address}`;
}

/** The address a registration button asks about, validated again: a custom_id is input like any other. */
export function parseOwnerButtonId(customId: string): ParsedWhoisQuery | null {
  return customId.startsWith(OWNER_BUTTON) ? publicAddress(customId.slice(OWNER_BUTTON.length)) : null;
}
