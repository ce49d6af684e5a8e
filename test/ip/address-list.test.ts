import { describe, expect, it } from 'vitest';
import { findIpAddresses, parseAddressList } from '../../src/ip/address-list.js';

describe('parseAddressList', () => {
  it('splits on commas and spaces, canonicalises and de-duplicates in input order', () => {
    const list = parseAddressList(' 8.8.8.8, 2001:4860:4860:0:0:0:0:8888  1.1.1.1,8.8.8.8 2001:4860:4860::8888,,');
    expect(list).toEqual({ addresses: ['8.8.8.8', '2001:4860:4860::8888', '1.1.1.1'], rejected: [], skipped: 0 });
  });

  it.each([
    ['example.com', /host name/],
    ['10.0.0.0/8', /CIDR/],
    ['../../etc/passwd', /not an IP address/],
    ['%2e%2e', /percent/],
    ['fe80::1%eth0', /zone id/],
    ['1.2.3.4:443', /port/],
    ['256.1.1.1', /not an IP address/],
  ])('rejects %s with a reason', (entry, reason) => {
    const list = parseAddressList(`8.8.8.8 ${entry}`);
    expect(list.rejected).toHaveLength(1);
    expect(list.rejected[0]!.entry).toBe(entry);
    expect(list.rejected[0]!.reason).toMatch(reason);
  });

  it('counts valid addresses past the limit as skipped', () => {
    const addresses = Array.from({ length: 12 }, (_, index) => `8.8.8.${index}`).join(',');
    const list = parseAddressList(addresses);
    expect(list.addresses).toHaveLength(10);
    expect(list.skipped).toBe(2);
  });

  it('returns nothing for empty input', () => {
    expect(parseAddressList('  , ,')).toEqual({ addresses: [], rejected: [], skipped: 0 });
  });
});

describe('findIpAddresses', () => {
  it('finds IPv4 and IPv6 addresses in a log line and ignores ports, versions, times and MACs', () => {
    const line =
      '2026-11-21T10:00:01Z sshd[811]: Failed password for root from 203.0.113.7 port 2222 ssh2 ' +
      'via [2001:db8::1]:443 and 10.0.0.1:8080, agent 1.2.3 at 12:30:45 mac aa:bb:cc:dd:ee:ff, again 203.0.113.7';
    expect(findIpAddresses(line)).toEqual(['203.0.113.7', '2001:db8::1', '10.0.0.1']);
  });

  it('finds nothing in ordinary prose', () => {
    expect(findIpAddresses('Deploy 1.2 went out at 10:30; see ticket #4521.')).toEqual([]);
  });

  it('unwraps IPv4-mapped IPv6 and drops a zone id', () => {
    expect(findIpAddresses('peer ::ffff:8.8.8.8 and fe80::1%eth0')).toEqual(['8.8.8.8', 'fe80::1']);
  });
});
