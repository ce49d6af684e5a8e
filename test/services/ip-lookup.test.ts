import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalCacheFactory } from '../../src/services/cache.js';
import { DnsResolver, MAX_DNS_QUERIES_PER_COMMAND } from '../../src/services/dns.js';
import { GeoService } from '../../src/services/geojs.js';
import { IpLookup } from '../../src/services/ip-lookup.js';
import { createLocalLimiterFactory } from '../../src/services/limiter.js';
import type { LookupTarget } from '../../src/ip/lookup-entry.js';
import { startFakeDns, type FakeDns } from '../fakes/dns.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';

const name = (value: string): LookupTarget => ({ kind: 'name', name: value, display: value });
const FULL = { max: 10, reverse: true };

describe('IpLookup: names resolved, addresses located, reverse names beside', () => {
  let dns: FakeDns;
  let geojs: FakeGeoJs;
  let geo: GeoService;
  let resolver: DnsResolver;
  let lookup: IpLookup;

  beforeAll(async () => {
    [dns, geojs] = await Promise.all([startFakeDns(), startFakeGeoJs()]);
    geo = new GeoService({ baseUrl: geojs.url, limiterFactory: createLocalLimiterFactory(), cacheFactory: createLocalCacheFactory(), limits: { minTimeMs: 0 } });
    resolver = new DnsResolver({ servers: [dns.server] });
    lookup = new IpLookup(geo, resolver);
  });

  afterAll(async () => {
    resolver?.close();
    await geo?.close();
    await Promise.all([dns?.close(), geojs?.close()]);
  });

  beforeEach(() => {
    dns.reset();
    geojs.reset();
  });

  it('asks at most 40 DNS queries for ten names, each with a confirmed PTR name, and GeoJS once', async () => {
    const targets = Array.from({ length: 10 }, (_, index) => {
      const address = `81.2.71.${index + 1}`;
      dns.set(`n${index}.cap.example`, { A: [address] });
      dns.setReverse(address, `ptr${index}.cap.example`);
      dns.set(`ptr${index}.cap.example`, { A: [address] });
      return name(`n${index}.cap.example`);
    });
    const outcome = await lookup.locate(targets, FULL);
    expect(outcome.results).toHaveLength(10);
    expect(outcome.results.every((result) => result.reverse?.confirmed === true)).toBe(true);
    expect(dns.queries).toHaveLength(MAX_DNS_QUERIES_PER_COMMAND);
    expect(geojs.requestsTo('/v1/ip/geo')).toHaveLength(1);
  });

  it('charges the member one for each name resolved and each address GeoJS is asked about, and nothing for cached ones', async () => {
    dns.set('charged.example', { A: ['81.2.69.150', '81.2.69.151'] });
    let spent = 0;
    const share = { beforeRequest: async () => void spent++ };
    await lookup.locate([name('charged.example')], FULL, share);
    expect(spent).toBe(3);
    await lookup.locate([name('charged.example')], FULL, share);
    expect(spent).toBe(3);
  });

  it('refuses before any DNS query or GeoJS request when the member’s share is spent', async () => {
    const refusal = new Error('slow down');
    await expect(lookup.locate([name('refused.example')], FULL, { beforeRequest: () => Promise.reject(refusal) })).rejects.toBe(refusal);
    expect(dns.queries).toEqual([]);
    expect(geojs.requests).toEqual([]);
  });
});
