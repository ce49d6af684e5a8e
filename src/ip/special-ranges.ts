import { BlockList, isIP, SocketAddress } from 'node:net';
import { parseIpAddress } from './address.js';

/** A null label: an address of the range is public, whatever a later range says. */
type Ranges = { label: string | null; ranges: [network: string, prefix: number][] }[];

/** Most specific first: the first range that contains an address names it. */
const NATIVE_RANGES: Ranges = [
  { label: 'unspecified', ranges: [['0.0.0.0', 32], ['::', 128]] },
  { label: 'loopback', ranges: [['127.0.0.0', 8], ['::1', 128]] },
  { label: 'broadcast', ranges: [['255.255.255.255', 32]] },
  { label: 'private network (RFC 1918)', ranges: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]] },
  { label: 'carrier-grade NAT (RFC 6598)', ranges: [['100.64.0.0', 10]] },
  { label: 'link-local', ranges: [['169.254.0.0', 16], ['fe80::', 10]] },
  { label: 'documentation range (RFC 5737)', ranges: [['192.0.2.0', 24], ['198.51.100.0', 24], ['203.0.113.0', 24]] },
  { label: 'documentation range (RFC 3849)', ranges: [['2001:db8::', 32]] },
  { label: 'documentation range (RFC 9637)', ranges: [['3fff::', 20]] },
  { label: 'benchmarking (RFC 2544)', ranges: [['198.18.0.0', 15]] },
  { label: 'benchmarking (RFC 5180)', ranges: [['2001:2::', 48]] },
  { label: 'unique local (RFC 4193)', ranges: [['fc00::', 7]] },
  // Deprecated, yet some networks still number their hosts from it: as private as unique local.
  { label: 'site-local (RFC 3879)', ranges: [['fec0::', 10]] },
  // A tunnel's address: it carries the Teredo server's IPv4 address and, obfuscated, the client's
  // NAT address, and GeoJS would place the tunnel's prefix, not the host.
  { label: 'Teredo (RFC 4380)', ranges: [['2001::', 32]] },
  { label: 'discard-only (RFC 6666)', ranges: [['100::', 64]] },
  { label: 'multicast', ranges: [['224.0.0.0', 4], ['ff00::', 8]] },
  {
    label: 'reserved',
    // "this network" 0/8, IETF protocol assignments, the retired 6to4 relay, class E, and the
    // IPv6 ::/8 block (IPv4-compatible and other unassigned forms; mapped ones were unwrapped above).
    ranges: [['0.0.0.0', 8], ['192.0.0.0', 24], ['192.88.99.0', 24], ['240.0.0.0', 4], ['::', 8]],
  },
];

/**
 * The images of each special IPv4 range in an IPv6 form that carries an IPv4 address from bit
 * `at`: an address of that form is special exactly when the IPv4 address it carries is, and is
 * named after that address's range (`<form>-wrapped <range>`); one carrying a public IPv4 address
 * is public. `image` writes the IPv4 address's two groups into the form.
 */
function carried(form: string, at: number, image: (high: string, low: string) => string): Ranges {
  return NATIVE_RANGES.flatMap(({ label, ranges }) => {
    const ipv4 = ranges.filter(([network]) => isIP(network) === 4);
    return ipv4.length === 0 ? [] : [{ label: `${form}-wrapped ${label}`, ranges: ipv4.map(([network, prefix]) => [image(...groupsOf(network)), at + prefix]) }];
  });
}

/** `10.0.0.0` → `['a00', '0']`: an IPv4 address as the two IPv6 groups that carry it. */
function groupsOf(ipv4: string): [string, string] {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/**
 * 6to4 (RFC 3056) puts an IPv4 address in bits 16–47 of `2002::/16`: `2002:a00::/24` is
 * 10.0.0.0/8. After the native ranges, none of which overlaps `2002::/16`, and in their order, so
 * the same range names both forms.
 */
const SIX_TO_FOUR_RANGES = carried('6to4', 16, (high, low) => `2002:${high}:${low}::`);

/**
 * NAT64's well-known prefix (RFC 6052) puts an IPv4 address in the last 32 bits of `64:ff9b::/96`:
 * `64:ff9b::a00:0/104` is 10.0.0.0/8. Before the native ranges, whose reserved `::/8` holds the
 * prefix; the rest of it, public IPv4 addresses translated, is public (`label: null`).
 */
const NAT64_RANGES: Ranges = [...carried('NAT64', 96, (high, low) => `64:ff9b::${high}:${low}`), { label: null, ranges: [['64:ff9b::', 96]] }];

const SPECIAL_RANGES = [...NAT64_RANGES, ...NATIVE_RANGES, ...SIX_TO_FOUR_RANGES];

// One list per family: a BlockList also matches IPv4 addresses against IPv6 rules (as ::ffff:a.b.c.d),
// which would put every IPv4 address inside the IPv6 ::/8 "reserved" block.
const SPECIAL_RANGE_LISTS = SPECIAL_RANGES.map(({ label, ranges }) => {
  const lists = { 4: new BlockList(), 6: new BlockList() };
  for (const [network, prefix] of ranges) {
    const version = isIP(network) === 4 ? 4 : 6;
    lists[version].addSubnet(network, prefix, version === 4 ? 'ipv4' : 'ipv6');
  }
  return { label, lists };
});

/**
 * The labels of the addresses checked lately. One `/ip` lookup asks about each of its addresses up
 * to three times (which to reverse-resolve, which to send to GeoJS, how to describe it), and members
 * ask about the same few addresses again and again; a check parses the address and walks a list per
 * label. Bounded: the oldest answer is forgotten first, so strings made up by the thousand cannot grow it.
 */
const REMEMBERED_CHECKS = 1_024;
const checked = new Map<string, string | null>();

/**
 * Names the special-purpose range an address belongs to (GeoJS answers its "unknown" record for
 * all of them), or null for an ordinary public address or a string that is not an address.
 */
export function describeSpecialRange(address: string): string | null {
  const remembered = checked.get(address);
  if (remembered !== undefined) return remembered;
  const label = rangeOf(address);
  if (checked.size >= REMEMBERED_CHECKS) checked.delete(checked.keys().next().value!);
  checked.set(address, label);
  return label;
}

function rangeOf(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed.ok) return null;
  // One parsed address for every list: given a string, each `check` would parse it again.
  const socket = new SocketAddress({ address: parsed.address, family: parsed.version === 4 ? 'ipv4' : 'ipv6' });
  return SPECIAL_RANGE_LISTS.find(({ lists }) => lists[parsed.version].check(socket))?.label ?? null;
}
