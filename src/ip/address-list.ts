import { parseIpAddress } from './address.js';

export const MAX_ADDRESSES = 10;

export interface RejectedEntry {
  entry: string;
  reason: string;
}

interface AddressList {
  /** Canonical, de-duplicated addresses, in the order first given. */
  addresses: string[];
  rejected: RejectedEntry[];
  /** Valid addresses beyond the limit, not looked up. */
  skipped: number;
}

/** Splits "a, b c" into entries and validates each one; duplicates (in any spelling) count once. */
export function parseAddressList(input: string, limit = MAX_ADDRESSES): AddressList {
  const entries = input.split(/[\s,;]+/).filter((entry) => entry !== '');
  const addresses: string[] = [];
  const rejected: RejectedEntry[] = [];
  let skipped = 0;
  for (const entry of entries) {
    const parsed = parseIpAddress(entry);
    if (!parsed.ok) rejected.push({ entry, reason: parsed.reason });
    else if (addresses.includes(parsed.address)) continue;
    else if (addresses.length >= limit) skipped++;
    else addresses.push(parsed.address);
  }
  return { addresses, rejected, skipped };
}

// Candidates are deliberately loose (any run of hex digits, dots and colons); `parseIpAddress` decides.
const IPV4_CANDIDATE = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g;
const IPV6_CANDIDATE = /(?<![0-9a-f:])(?=[0-9a-f:.]*:[0-9a-f:.]*:)[0-9a-f:.]{2,45}(?![0-9a-f:])/gi;

/**
 * Finds the IPv4 and IPv6 addresses in free text (log lines, alerts), in order of appearance,
 * de-duplicated by canonical form. Ports (`1.2.3.4:443`, `[::1]:80`) and CIDR suffixes are ignored
 * around an address rather than making it unreadable.
 */
export function findIpAddresses(text: string): string[] {
  const found: { index: number; address: string }[] = [];
  for (const pattern of [IPV4_CANDIDATE, IPV6_CANDIDATE]) {
    for (const match of text.matchAll(pattern)) {
      const candidate = match[0].replace(/^:+(?=[0-9a-f]*\.)/i, '').replace(/[.:]+$/, (tail) => (tail === '::' ? tail : ''));
      const parsed = parseIpAddress(candidate);
      if (parsed.ok) found.push({ index: match.index, address: parsed.address });
    }
  }
  found.sort((a, b) => a.index - b.index);
  return [...new Set(found.map((entry) => entry.address))];
}
