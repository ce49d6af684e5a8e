import { parseIpAddress } from './address.js';
import { parseHostName, type EntryProblem } from './host-name.js';

/** What one entry of `/ip` asks about: an address, or a host name to resolve first. */
export type LookupTarget =
  | { kind: 'address'; address: string }
  /** `name`: lowercase punycode without trailing dot (what DNS is asked); `display`: its Unicode form. */
  | { kind: 'name'; name: string; display: string };

export type ParsedEntry = { ok: true; target: LookupTarget } | { ok: false; problem: EntryProblem };

/** The same target typed twice (`GitHub.com.` and `github.com`, two spellings of an address) counts once. */
export function targetKey(target: LookupTarget): string {
  return target.kind === 'address' ? target.address : target.name;
}

const URL_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;
const BRACKETED = /^\[([^\]]*)\](?::\d{1,5})?$/;
const WITH_PORT = /^([^:]*):\d{1,5}$/;

/**
 * Reads one entry as people paste it: an IPv4/IPv6 address, a host name (Unicode or punycode, a
 * trailing dot allowed), `host:port`, `[v6]:port`, or a URL, of which only the host is kept (`user@`,
 * port, path, query and fragment dropped).
 */
export function parseLookupEntry(input: string): ParsedEntry {
  const entry = input.trim();
  const authority = URL_AUTHORITY.exec(entry)?.[1];
  const host = authority === undefined ? entry : authority.slice(authority.lastIndexOf('@') + 1);
  const bracketed = BRACKETED.exec(host);
  if (bracketed) {
    const address = parseIpAddress(bracketed[1]!);
    return address.ok ? { ok: true, target: { kind: 'address', address: address.address } } : { ok: false, problem: 'notAddress' };
  }
  const address = parseIpAddress(host);
  if (address.ok) return { ok: true, target: { kind: 'address', address: address.address } };
  if (address.problem === 'cidr' || address.problem === 'percentOrZone') return { ok: false, problem: address.problem };
  const withoutPort = WITH_PORT.exec(host)?.[1] ?? host;
  const hostAddress = parseIpAddress(withoutPort);
  if (hostAddress.ok) return { ok: true, target: { kind: 'address', address: hostAddress.address } };
  const name = parseHostName(withoutPort);
  return name.ok ? { ok: true, target: { kind: 'name', name: name.name, display: name.display } } : name;
}
