import { describe, expect, it } from 'vitest';
import { basesFor, isNamedServer, parseBootstrap } from '../../../src/services/rdap/bootstrap.js';

const FILE = {
  services: [
    [['8.0.0.0/8'], ['https://rdap.arin.net/registry/', 'http://rdap.arin.net/registry/']],
    [['8.8.0.0/16'], ['https://rdap.more-specific.example']],
    [['2001:4800::/23'], ['https://rdap.arin.net/registry/']],
    [['13312-18431', '3333'], ['https://rdap.arin.net/registry/']],
    [['com', 'co.uk'], ['https://rdap.verisign.com/com/v1/']],
    [['uk'], ['https://rdap.nominet.uk/uk/']],
    [['9.0.0.0/8'], ['http://plain.example/']],
  ],
};

describe('the RDAP bootstrap', () => {
  const services = parseBootstrap(FILE, 'https:');

  it('keeps only bases of the bootstrap scheme, each ending in a slash', () => {
    expect(services[0]!.bases).toEqual(['https://rdap.arin.net/registry/']);
    expect(services[1]!.bases).toEqual(['https://rdap.more-specific.example/']);
    expect(services.some(({ keys }) => keys.includes('9.0.0.0/8'))).toBe(false);
  });

  it('picks the most specific entry: the longest prefix, the longest suffix, the AS range', () => {
    expect(basesFor(services, { kind: 'ip', address: '8.8.8.8' })).toEqual(['https://rdap.more-specific.example/']);
    expect(basesFor(services, { kind: 'ip', address: '8.1.2.3' })).toEqual(['https://rdap.arin.net/registry/']);
    expect(basesFor(services, { kind: 'ip', address: '2001:4860::1' })).toEqual(['https://rdap.arin.net/registry/']);
    expect(basesFor(services, { kind: 'ip', address: '9.9.9.9' })).toEqual([]);
    expect(basesFor(services, { kind: 'autnum', number: 15169 })).toEqual(['https://rdap.arin.net/registry/']);
    expect(basesFor(services, { kind: 'autnum', number: 3333 })).toEqual(['https://rdap.arin.net/registry/']);
    expect(basesFor(services, { kind: 'autnum', number: 3334 })).toEqual([]);
    expect(basesFor(services, { kind: 'domain', name: 'www.example.co.uk', display: '' })).toEqual(['https://rdap.verisign.com/com/v1/']);
    expect(basesFor(services, { kind: 'domain', name: 'example.uk', display: '' })).toEqual(['https://rdap.nominet.uk/uk/']);
    expect(basesFor(services, { kind: 'domain', name: 'notcom', display: '' })).toEqual([]);
  });

  it('names only servers under a listed base', () => {
    expect(isNamedServer(services, new URL('https://rdap.arin.net/registry/ip/8.8.8.8'))).toBe(true);
    expect(isNamedServer(services, new URL('https://rdap.arin.net/other/ip/8.8.8.8'))).toBe(false);
    expect(isNamedServer(services, new URL('https://rdap.arin.net.evil.example/registry/ip/1'))).toBe(false);
  });

  it('refuses a file that is not a list of services', () => {
    expect(() => parseBootstrap({ services: 'no' }, 'https:')).toThrow(/bootstrap/);
  });
});
