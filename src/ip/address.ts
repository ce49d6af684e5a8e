import { isIP } from 'node:net';

type ParsedIpAddress = { ok: true; address: string; version: 4 | 6 } | { ok: false; problem: 'notAddress' | 'cidr' | 'percentOrZone' };

/**
 * Validates one user-supplied IP address and returns its canonical form (the cache key and the
 * value sent to GeoJS). IPv6 is lowercased and compressed (RFC 5952, via the WHATWG URL host
 * serialiser). An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is returned as the IPv4 address it
 * carries: GeoJS/MaxMind answer the same record for both, so they share one cache entry and one
 * request.
 */
export function parseIpAddress(input: string): ParsedIpAddress {
  const value = input.trim();
  // `net.isIP` accepts zone ids (`fe80::1%eth0`); a `%` can also smuggle percent-encoding into a URL.
  if (value.includes('%')) return { ok: false, problem: 'percentOrZone' };
  if (value.includes('/')) {
    const [address, prefix] = value.split('/', 2);
    return { ok: false, problem: address !== undefined && isIP(address) !== 0 && /^\d{1,3}$/.test(prefix ?? '') ? 'cidr' : 'notAddress' };
  }
  const version = isIP(value);
  if (version === 4) return { ok: true, address: value, version: 4 };
  if (version === 6) {
    const compressed = new URL(`http://[${value}]/`).hostname.slice(1, -1);
    const mapped = ipv4FromMapped(compressed);
    return mapped === undefined ? { ok: true, address: compressed, version: 6 } : { ok: true, address: mapped, version: 4 };
  }
  return { ok: false, problem: 'notAddress' };
}

/** `::ffff:102:304` (the compressed form of `::ffff:1.2.3.4`) → `1.2.3.4`. */
function ipv4FromMapped(compressed: string): string | undefined {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

