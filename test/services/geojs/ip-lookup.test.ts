import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalCacheFactory } from '../../../src/upstream/cache.js';
import { DnsResolver, MAX_DNS_QUERIES_PER_COMMAND } from '../../../src/services/dns/dns.js';
import { GeoService } from '../../../src/services/geojs/geojs.js';
import { IpLookup } from '../../../src/services/geojs/ip-lookup.js';
import { createLocalLimiterFactory } from '../../../src/upstream/limiter.js';
import type { LookupTarget } from '../../../src/ip/lookup-entry.js';
import { startFakeDns, type FakeDns } from '../../fakes/dns.js';
import { startFakeGeoJs, type FakeGeoJs } from '../../fakes/geojs.js';

const name = (value: string): LookupTarget => ({ kind: 'name', name: value, display: value });
const FULL = { max: 10, reverse: true };

describe('IpLookup: names resolved, addresses located, reverse names beside', () => {
  let dns: FakeDns;
  /** A second server, for the tests with two. */
  let spare: FakeDns;
  let geojs: FakeGeoJs;
  let geo: GeoService;
  let resolver: DnsResolver;
  let lookup: IpLookup;

  beforeAll(async () => {
    [dns, spare, geojs] = await Promise.all([startFakeDns(), startFakeDns(), startFakeGeoJs()]);
    geo = new GeoService({ baseUrl: geojs.url, limiterFactory: createLocalLimiterFactory(), cacheFactory: createLocalCacheFactory(), limits: { minTimeMs: 0 } });
    resolver = new DnsResolver({ servers: [dns.server] });
    lookup = new IpLookup(geo, resolver);
  });

  afterAll(async () => {
    resolver?.close();
    await geo?.close();
    await Promise.all([dns?.close(), spare?.close(), geojs?.close()]);
  });

  beforeEach(() => {
    dns.reset();
    spare.reset();
    geojs.reset();
  });

  // Each query is charged the two it may put on the wire (UDP, then TCP if the answer is truncated),
  // however many servers there are: a second is asked only when the first is silent or unreachable.
  describe.each([
    ['one server', 1, 71],
    ['two servers', 2, 73],
  ])('with %s', (_, servers, subnet) => {
    let asked: IpLookup;
    let ownResolver: DnsResolver | undefined;
    /** The servers whose zones a test fills: with two, both answer alike. */
    const zones = () => [dns, spare].slice(0, servers);

    beforeAll(() => {
      ownResolver = servers === 1 ? undefined : new DnsResolver({ servers: [dns.server, spare.server] });
      asked = ownResolver ? new IpLookup(geo, ownResolver) : lookup;
    });

    afterAll(() => ownResolver?.close());

    it('finds five names each a confirmed PTR name, all the 40 queries charged allow, and asks GeoJS once', async () => {
      // 5 × (A + AAAA + PTR + confirmation) × 2 = 40; a sixth name would leave PTR names unconfirmed.
      const targets = Array.from({ length: 5 }, (_, index) => {
        const address = `81.2.${subnet}.${index + 1}`;
        for (const zone of zones()) {
          zone.set(`n${index}.cap${servers}.example`, { A: [address] });
          zone.setReverse(address, `ptr${index}.cap${servers}.example`);
          zone.set(`ptr${index}.cap${servers}.example`, { A: [address] });
        }
        return name(`n${index}.cap${servers}.example`);
      });
      const outcome = await asked.locate(targets, FULL);
      expect(outcome.results).toHaveLength(5);
      expect(outcome.results.every((result) => result.reverse?.confirmed === true)).toBe(true);
      // None of the answers was truncated: 20 on the wire, all to the first server.
      expect(dns.queries).toHaveLength(MAX_DNS_QUERIES_PER_COMMAND / 2);
      expect(spare.queries).toEqual([]);
      expect(geojs.requestsTo('/v1/ip/geo')).toHaveLength(1);
    });

    it('puts at most 40 queries on the wire for ten 12-hop CNAME chains, each answer truncated and asked again over TCP', async () => {
      const targets = Array.from({ length: 10 }, (_, chain) => {
        const hop = (index: number) => `hop${index}-${'x'.repeat(50)}.c${chain}.wire${servers}.example`;
        for (const zone of zones()) {
          for (let index = 0; index < 12; index++) zone.set(hop(index), { CNAME: hop(index + 1) });
          zone.set(hop(12), { A: [`81.2.${subnet + 1}.${chain + 1}`] });
        }
        return name(hop(0));
      });
      const outcome = await asked.locate(targets, FULL);
      expect(outcome.results.map((result) => result.address)).toEqual(Array.from({ length: 10 }, (_, chain) => `81.2.${subnet + 1}.${chain + 1}`));
      expect(dns.queries.filter((query) => query.transport === 'tcp')).toHaveLength(20);
      expect(dns.queries.length + spare.queries.length).toBeLessThanOrEqual(MAX_DNS_QUERIES_PER_COMMAND);
    });
  });

  it('never shows nor locates a name’s 6to4, Teredo or site-local addresses of private hosts, nor the same typed', async () => {
    dns.set('tunnel.office.example', { AAAA: ['2002:a00:1::1', '2001:0:a00:1::1', 'fec0::1'] });
    const outcome = await lookup.locate([name('tunnel.office.example'), { kind: 'address', address: '2002:a00:1::1' }], FULL);
    expect(outcome.notes).toEqual([{ kind: 'private', name: 'tunnel.office.example' }]);
    expect(outcome.results.map(({ address, from, specialRange }) => ({ address, from, specialRange }))).toEqual([
      { address: '2002:a00:1::1', from: null, specialRange: '6to4-wrapped private network (RFC 1918)' },
    ]);
    expect(geojs.requests).toEqual([]);
    expect(dns.queries.filter((query) => query.type === 'PTR')).toEqual([]);
  });

  it('locates a 6to4 address of a public IPv4 address like any public one', async () => {
    dns.set('relay.example', { AAAA: ['2002:5102:4701::1'] });
    const outcome = await lookup.locate([name('relay.example')], FULL);
    expect(outcome.results.map(({ address, specialRange }) => ({ address, specialRange }))).toEqual([{ address: '2002:5102:4701::1', specialRange: null }]);
    expect(geojs.requestsTo('/v1/ip/geo').map((request) => request.query.get('ip'))).toEqual(['2002:5102:4701::1']);
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
