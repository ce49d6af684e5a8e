import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSpecialRange } from '../../src/ip/special-ranges.js';

describe('describeSpecialRange', () => {
  it.each([
    ['10.1.2.3', 'private network (RFC 1918)'],
    ['172.31.255.255', 'private network (RFC 1918)'],
    ['192.168.1.1', 'private network (RFC 1918)'],
    ['100.64.0.1', 'carrier-grade NAT (RFC 6598)'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['192.0.2.1', 'documentation range (RFC 5737)'],
    ['203.0.113.7', 'documentation range (RFC 5737)'],
    ['2001:db8::1', 'documentation range (RFC 3849)'],
    ['fd12:3456::1', 'unique local (RFC 4193)'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking (RFC 2544)'],
    ['::ffff:10.0.0.1', 'private network (RFC 1918)'],
    ['fec0::1', 'site-local (RFC 3879)'],
    ['2001:0:a00:1::1', 'Teredo (RFC 4380)'],
    ['2002:a00:1::1', '6to4-wrapped private network (RFC 1918)'],
    ['2002:7f00:1::1', '6to4-wrapped loopback'],
    ['2002:c0a8:101::', '6to4-wrapped private network (RFC 1918)'],
    ['64:ff9b::a00:1', 'NAT64-wrapped private network (RFC 1918)'],
    ['64:ff9b::127.0.0.1', 'NAT64-wrapped loopback'],
    // The local-use NAT64 prefix (RFC 8215) stays in the reserved ::/8, whatever it carries.
    ['64:ff9b:1::808:808', 'reserved'],
  ])('%s is %s', (address, label) => {
    expect(describeSpecialRange(address)).toBe(label);
  });

  it.each(['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '2002:808:808::1', '64:ff9b::808:808', '2001:1:a00:1::1', 'not an address'])('%s is not special', (address) => {
    expect(describeSpecialRange(address)).toBeNull();
  });

  it('answers the same after more addresses than it remembers have been asked about', () => {
    const asked = Array.from({ length: 3_000 }, (_, index) => `10.${index >> 8}.${index & 255}.1`);
    expect(asked.every((address) => describeSpecialRange(address) === 'private network (RFC 1918)')).toBe(true);
    expect(describeSpecialRange('10.0.0.1')).toBe('private network (RFC 1918)');
    expect(describeSpecialRange('8.8.8.8')).toBeNull();
    expect(describeSpecialRange('8.8.8.8')).toBeNull();
  });

  it.each([
    ['6to4', '2002::/16', 'bits 16–47', (high: string, low: string, rest: string[]) => ['2002', high, low, ...rest].join(':')],
    ['NAT64', '64:ff9b::/96', 'its last 32 bits', (high: string, low: string) => `64:ff9b::${high}:${low}`],
  ])('judges a %s address (%s) by the IPv4 address it carries in %s', (form, _prefix, _bits, wrap) => {
    const ipv4 = fc.oneof(fc.ipV4(), fc.constantFrom('10.0.0.1', '127.0.0.1', '100.64.0.1', '169.254.9.9', '192.0.2.1', '192.88.99.1', '0.0.0.0', '255.255.255.255'));
    const group = fc.integer({ min: 0, max: 0xffff }).map((value) => value.toString(16));
    fc.assert(
      fc.property(ipv4, fc.array(group, { minLength: 5, maxLength: 5 }), (address, rest) => {
        const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
        const label = describeSpecialRange(address);
        const wrapped = wrap(((a << 8) | b).toString(16), ((c << 8) | d).toString(16), rest);
        expect(describeSpecialRange(wrapped)).toBe(label === null ? null : `${form}-wrapped ${label}`);
      }),
    );
  });

  it('refuses every site-local (fec0::/10) and Teredo (2001::/32) address', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((value) => value.toString(16));
    const siteLocal = fc.tuple(fc.integer({ min: 0xfec0, max: 0xfeff }), fc.array(group, { minLength: 7, maxLength: 7 })).map(([first, rest]) => [first.toString(16), ...rest].join(':'));
    const teredo = fc.array(group, { minLength: 6, maxLength: 6 }).map((rest) => ['2001', '0', ...rest].join(':'));
    fc.assert(fc.property(siteLocal, (address) => describeSpecialRange(address) === 'site-local (RFC 3879)'));
    fc.assert(fc.property(teredo, (address) => describeSpecialRange(address) === 'Teredo (RFC 4380)'));
  });
});
