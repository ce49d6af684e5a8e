import { describe, expect, it } from 'vitest';
import { findLookupTargets, parseLookupList } from '../../src/ip/address-list.js';

const address = (value: string) => ({ kind: 'address', address: value });
const name = (value: string, display = value) => ({ kind: 'name', name: value, display });

describe('parseLookupList', () => {
  it('splits on commas and spaces, canonicalises and de-duplicates in input order', () => {
    const list = parseLookupList(' 8.8.8.8, 2001:4860:4860:0:0:0:0:8888  1.1.1.1,8.8.8.8 2001:4860:4860::8888,,');
    expect(list).toEqual({ targets: [address('8.8.8.8'), address('2001:4860:4860::8888'), address('1.1.1.1')], rejected: [], skipped: 0 });
  });

  it('takes names, URLs and host:port beside addresses, each name once in any spelling', () => {
    const list = parseLookupList('github.com https://GitHub.com./login 1.2.3.4:443 [2001:db8::1]:8443 Bücher.example api.example.com:8080');
    expect(list.targets).toEqual([
      name('github.com'),
      address('1.2.3.4'),
      address('2001:db8::1'),
      name('xn--bcher-kva.example', 'bücher.example'),
      name('api.example.com'),
    ]);
    expect(list.rejected).toEqual([]);
  });

  it.each([
    ['10.0.0.0/8', 'cidr'],
    ['../../etc/passwd', 'badCharacters'],
    ['%2e%2e', 'percentOrZone'],
    ['fe80::1%eth0', 'percentOrZone'],
    ['256.1.1.1', 'notAddress'],
    ['1.2.3', 'notAddress'],
    ['0x7f.1', 'notAddress'],
    ['printer.local', 'privateName'],
    ['localhost:8080', 'privateName'],
    ['intranet', 'privateName'],
    ['x.home.arpa', 'privateName'],
  ])('rejects %s as %s', (entry, problem) => {
    const list = parseLookupList(`8.8.8.8 ${entry}`);
    expect(list.rejected).toEqual([{ entry, problem }]);
  });

  it('counts valid entries past the limit as skipped', () => {
    const entries = Array.from({ length: 12 }, (_, index) => `host${index}.example.com`).join(',');
    const list = parseLookupList(entries);
    expect(list.targets).toHaveLength(10);
    expect(list.skipped).toBe(2);
  });

  it('returns nothing for empty input', () => {
    expect(parseLookupList('  , ,')).toEqual({ targets: [], rejected: [], skipped: 0 });
  });
});

describe('findLookupTargets', () => {
  it('finds IPv4 and IPv6 addresses in a log line and ignores ports, versions, times and MACs', () => {
    const line =
      '2026-11-21T10:00:01Z sshd[811]: Failed password for root from 203.0.113.7 port 2222 ssh2 ' +
      'via [2001:db8::1]:443 and 10.0.0.1:8080, agent 1.2.3 at 12:30:45 mac aa:bb:cc:dd:ee:ff, again 203.0.113.7';
    expect(findLookupTargets(line)).toEqual([address('203.0.113.7'), address('2001:db8::1'), address('10.0.0.1')]);
  });

  it('takes the hosts of URLs, in order, but never bare dotted words or private names', () => {
    const line =
      'GET https://user:pw@cdn.example.net:8443/x.js failed (see <https://status.example.org>), app.service.start at ' +
      'config.yaml; retry http://10.1.2.3/health, http://localhost:3000/ and [docs](https://docs.example.com/a).';
    expect(findLookupTargets(line)).toEqual([name('cdn.example.net'), name('status.example.org'), address('10.1.2.3'), name('docs.example.com')]);
  });

  it('finds nothing in ordinary prose', () => {
    expect(findLookupTargets('Deploy 1.2 went out at 10:30; see ticket #4521 in app.config.')).toEqual([]);
  });

  it('unwraps IPv4-mapped IPv6 and drops a zone id', () => {
    expect(findLookupTargets('peer ::ffff:8.8.8.8 and fe80::1%eth0')).toEqual([address('8.8.8.8'), address('fe80::1')]);
  });
});
