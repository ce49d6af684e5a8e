import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import type { RdapNetwork } from '../../../src/ip/rdap.js';
import { RdapService, type RdapServiceOptions } from '../../../src/services/rdap/rdap.js';
import { createLocalCacheFactory } from '../../../src/upstream/cache.js';
import { createLocalLimiterFactory } from '../../../src/upstream/limiter.js';
import { FakeServer } from '../../fakes/fake-server.js';
import { startFakeRdap, type FakeRdap } from '../../fakes/rdap.js';
import { takeBlockedAttempts } from '../../fence/network-fence.js';
import { upstreamFailure } from '../../helpers/upstream-failure.js';

let fake: FakeRdap;
const services: RdapService[] = [];

beforeAll(async () => {
  fake = await startFakeRdap();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  fake.reset();
});

function makeService(options: Partial<RdapServiceOptions> = {}): RdapService {
  const service = new RdapService({
    bootstrapUrl: fake.bootstrapUrl,
    limiterFactory: createLocalLimiterFactory(),
    cacheFactory: createLocalCacheFactory(),
    limits: { minTimeMs: 5 },
    requestTimeoutMs: 2_000,
    ...options,
  });
  services.push(service);
  return service;
}

const ip = (address: string) => ({ kind: 'ip' as const, address });

describe('RdapService', () => {
  it('finds the registry through the bootstrap and reads the network, with the abuse contact nested in the registrant', async () => {
    const network = (await makeService().lookup(ip('8.8.8.8'))) as RdapNetwork;
    expect(network).toMatchObject({
      kind: 'ip',
      name: 'GOGL',
      handle: 'NET-8-8-8-0-2',
      range: '8.8.8.0/24',
      registrant: 'Google LLC',
      registry: new URL(fake.arin.url).host,
      abuse: { name: 'Abuse', emails: ['network-abuse@google.com'], phones: ['+1-650-253-0000'] },
      events: { registration: '2023-12-28T17:24:33-05:00' },
    });
    expect(fake.iana.requestsTo('/rdap/ipv4.json')).toHaveLength(1);
    expect(fake.arin.asked('ip/8.8.8.8')[0]!.headers.accept).toContain('application/rdap+json');
  });

  it('reads IPv6 from ipv6.json, AS numbers from asn.json and domains from dns.json, each from its registry', async () => {
    const service = makeService();
    expect(await service.lookup(ip('2001:4860:4860::8888'))).toMatchObject({ kind: 'ip', name: 'GOOGLE-IPV6', range: '2001:4860:: – 2001:4860:ffff:ffff:ffff:ffff:ffff:ffff' });
    expect(await service.lookup({ kind: 'autnum', number: 13335 })).toMatchObject({ kind: 'autnum', numbers: 'AS13335', name: 'CLOUDFLARENET', abuse: { emails: ['abuse@cloudflare.com'] } });
    expect(await service.lookup({ kind: 'domain', name: 'example.com', display: 'example.com' })).toMatchObject({
      kind: 'domain',
      name: 'example.com',
      registrar: 'RESERVED-Internet Assigned Numbers Authority',
      status: ['client delete prohibited', 'client transfer prohibited'],
      nameServers: ['a.iana-servers.net', 'b.iana-servers.net'],
      abuse: { emails: ['abuse@iana.org'] },
      events: { expiration: '2026-08-13T04:00:00Z' },
    });
    expect(fake.verisign.asked('domain/example.com')).toHaveLength(1);
    expect(fake.iana.requests.map((request) => request.path).sort()).toEqual(['/rdap/asn.json', '/rdap/dns.json', '/rdap/ipv6.json']);
  });

  it('follows a redirect to another registry the bootstrap names', async () => {
    const network = await makeService().lookup(ip('8.1.2.3'));
    expect(network).toMatchObject({ name: 'TRANSFERRED-NET', country: 'NL', registry: new URL(fake.ripe.url).host, range: '8.1.2.0 – 8.1.3.255' });
    expect(fake.arin.asked('ip/8.1.2.3')).toHaveLength(1);
    expect(fake.ripe.asked('ip/8.1.2.3')).toHaveLength(1);
  });

  it('refuses a redirect to a server the bootstrap does not name, without asking it', async () => {
    const failure = await upstreamFailure(makeService().lookup(ip('8.6.6.6')));
    expect(failure).toMatchObject({ upstream: 'rdap', kind: 'bad_response' });
  });

  it('stops a loop of redirects between two registries', async () => {
    const failure = await upstreamFailure(makeService().lookup(ip('8.9.9.9')));
    expect(failure).toMatchObject({ upstream: 'rdap', kind: 'bad_response' });
    expect(fake.arin.asked('ip/8.9.9.9').length + fake.ripe.asked('ip/8.9.9.9').length).toBeLessThanOrEqual(4);
  });

  it('pauses only the registry that answered 429, for its Retry-After', async () => {
    const service = makeService();
    const failure = await upstreamFailure(service.lookup(ip('8.4.2.9')));
    expect(failure).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 });
    // ARIN is paused: the next question to it is refused without a request…
    await expect(service.lookup(ip('8.8.4.4'))).rejects.toBeInstanceOf(UpstreamError);
    expect(fake.arin.asked('ip/8.8.4.4')).toHaveLength(0);
    // …while RIPE answers.
    expect(await service.lookup(ip('81.2.69.142'))).toMatchObject({ name: 'LONDON-NET' });
  });

  it('refuses a body over 256 KiB', async () => {
    const failure = await upstreamFailure(makeService().lookup(ip('8.7.7.7')));
    expect(failure).toMatchObject({ upstream: 'rdap', kind: 'bad_response' });
  });

  it('shows a network without an abuse entity as having none', async () => {
    expect(await makeService().lookup(ip('8.8.4.4'))).toMatchObject({ name: 'NO-ABUSE-NET', abuse: null, registrant: 'Quiet Networks Inc.' });
  });

  it('answers null for what no registry has, and remembers it', async () => {
    const service = makeService();
    expect(await service.find(ip('8.0.0.1'))).toBeNull();
    expect(await service.find(ip('8.0.0.1'))).toBeNull();
    expect(fake.arin.asked('ip/8.0.0.1')).toHaveLength(1);
    // Served by no registry at all (only an https base, which an http bootstrap never uses): nothing asked.
    expect(await service.find(ip('9.9.9.9'))).toBeNull();
    expect(await service.find({ kind: 'domain', name: 'example.org', display: 'example.org' })).toBeNull();
  });

  it('keeps answers and the bootstrap for a day, and charges the member only for what it asks', async () => {
    let spent = 0;
    const share = { beforeRequest: async () => void spent++ };
    const service = makeService();
    await service.lookup(ip('8.8.8.8'), share);
    await service.lookup(ip('8.8.8.8'), share);
    await service.lookup(ip('2001:4860:4860::8888'), share);
    expect(spent).toBe(2);
    expect(fake.arin.asked('ip/8.8.8.8')).toHaveLength(1);
    expect(fake.iana.requestsTo('/rdap/ipv4.json')).toHaveLength(1);
  });

  it('asks one registry at most once a second by default', async () => {
    const service = makeService({ limits: {} });
    await Promise.all([service.lookup(ip('8.8.8.8')), service.lookup(ip('8.8.4.4'))]);
    expect(fake.arin.maxInWindow(900, '/registry/')).toBe(1);
  });
});

describe('RdapService behind the network fence', () => {
  it('never reaches IANA or a registry off loopback: the default bootstrap and a registry it would name are refused and recorded', async () => {
    const iana = makeService({ bootstrapUrl: 'https://data.iana.org/rdap' });
    expect(await upstreamFailure(iana.lookup(ip('8.8.8.8')))).toMatchObject({ kind: 'unavailable' });
    const far = await new FakeServer(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ services: [[['8.0.0.0/8'], ['http://192.0.2.1/registry/']]] }),
    })).start();
    try {
      const registry = makeService({ bootstrapUrl: far.url });
      expect(await upstreamFailure(registry.lookup(ip('8.8.8.8')))).toMatchObject({ kind: 'unavailable' });
    } finally {
      await far.close();
    }
    const targets = takeBlockedAttempts().map((attempt) => attempt.target);
    expect(targets).toContain('data.iana.org:443');
    expect(targets).toContain('192.0.2.1:80');
  });
});
