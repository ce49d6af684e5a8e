import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalCacheFactory } from '../../../src/upstream/cache.js';
import { GEOJS_LIMITS, GeoService, type GeoServiceOptions } from '../../../src/services/geojs/geojs.js';
import { maxStartsInWindow } from '../../../src/services/wallhaven/wallhaven.js';
import { parseIpAddress } from '../../../src/ip/address.js';
import type { GeoRecord } from '../../../src/ip/geo-record.js';
import { UpstreamHttp } from '../../../src/upstream/http.js';
import { createLocalLimiterFactory } from '../../../src/upstream/limiter.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { htmlPage, json } from '../../fakes/fake-server.js';
import { startFakeGeoJs, type FakeGeoJs } from '../../fakes/geojs.js';
import { upstreamFailure } from '../../helpers/upstream-failure.js';

let fake: FakeGeoJs;
const services: GeoService[] = [];

beforeAll(async () => {
  fake = await startFakeGeoJs();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  fake.reset();
});

function makeService(options: Partial<GeoServiceOptions> = {}): GeoService {
  const service = new GeoService({
    baseUrl: fake.url,
    limiterFactory: createLocalLimiterFactory(),
    cacheFactory: createLocalCacheFactory(),
    limits: { minTimeMs: 5 },
    requestTimeoutMs: 1_000,
    ...options,
  });
  services.push(service);
  return service;
}

function geoRequests() {
  return fake.requestsTo('/v1/ip/geo.json');
}

/** Every value in a record is a real value: no "nil" placeholders, no NaN, no empty strings. */
function expectClean(record: GeoRecord): void {
  const walk = (value: unknown): void => {
    if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
    else if (typeof value === 'string') expect(['', 'nil', 'Unknown']).not.toContain(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(record);
}

describe('parseIpAddress', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8', 4],
    ['  81.2.69.142\t', '81.2.69.142', 4],
    ['2001:4860:4860::8888', '2001:4860:4860::8888', 6],
    ['2001:4860:4860:0:0:0:0:8888', '2001:4860:4860::8888', 6],
    ['2001:DB8::1', '2001:db8::1', 6],
    ['::1', '::1', 6],
    // IPv4-mapped IPv6 is answered as the IPv4 address it carries.
    ['::ffff:1.2.3.4', '1.2.3.4', 4],
    ['::FFFF:0102:0304', '1.2.3.4', 4],
  ])('accepts %j as %s', (input, address, version) => {
    expect(parseIpAddress(input)).toEqual({ ok: true, address, version });
  });

  it.each([
    ['10.0.0.0/8', 'cidr'],
    ['2001:db8::/32', 'cidr'],
    ['fe80::1%eth0', 'percentOrZone'],
    ['%2e%2e', 'percentOrZone'],
    // Ports, host names and URLs are the lookup entry's to read (src/ip/lookup-entry.ts), not an address.
    ['1.2.3.4:80', 'notAddress'],
    ['[::1]:443', 'notAddress'],
    ['example.com', 'notAddress'],
    ['../../x', 'notAddress'],
    ['http://evil.example/', 'notAddress'],
    ['1.2.3', 'notAddress'],
    ['01.2.3.4', 'notAddress'],
    ['8.8.8.8,1.1.1.1', 'notAddress'],
    ['', 'notAddress'],
    ['   ', 'notAddress'],
  ])('refuses %j: %s', (input, problem) => {
    expect(parseIpAddress(input)).toEqual({ ok: false, problem });
  });
});

describe('GeoService.lookup', () => {
  it('looks up a mixed list (IPv4, IPv6, private) in exactly one request, without the private one, and normalises every record', async () => {
    const service = makeService();
    const records = await service.lookup(['8.8.8.8', '2001:4860:4860::8888', '10.0.0.1']);

    expect(geoRequests()).toHaveLength(1);
    expect(geoRequests()[0]!.query.get('ip')).toBe('8.8.8.8,2001:4860:4860::8888');
    expect(records.get('8.8.8.8')).toEqual({
      ip: '8.8.8.8',
      known: true,
      country: { code: 'US', code3: 'USA', name: 'United States' },
      continentCode: 'NA',
      latitude: 37.751,
      longitude: -97.822,
      accuracyKm: 1000,
      asn: 15169,
      organization: 'Google LLC',
      timezone: 'America/Chicago',
    });
    expect(records.get('2001:4860:4860::8888')).toMatchObject({ ip: '2001:4860:4860::8888', known: true, asn: 15169 });
    expect(records.get('10.0.0.1')).toEqual({ ip: '10.0.0.1', known: false });
    for (const record of records.values()) expectClean(record);
  });

  it('answers special-purpose addresses without asking GeoJS', async () => {
    const special = ['127.0.0.1', '192.168.1.10', '100.64.0.1', '169.254.1.1', '203.0.113.7', '224.0.0.1', '::1', 'fe80::1', '2001:db8::1', 'fd00::1'];
    const records = await makeService().lookup(special);
    expect(geoRequests()).toHaveLength(0);
    expect([...records.values()]).toEqual(special.map((ip) => ({ ip, known: false })));
  });

  it('keeps an ASN-only record known, without inventing a location', async () => {
    const records = await makeService().lookup(['1.1.1.1']);
    expect(records.get('1.1.1.1')).toEqual({ ip: '1.1.1.1', known: true, asn: 13335, organization: 'Cloudflare, Inc.' });
  });

  it('returns city-level records with accuracy and coordinates', async () => {
    const records = await makeService().lookup(['81.2.69.142', '202.12.27.33']);
    expect(records.get('81.2.69.142')).toMatchObject({
      city: 'London',
      region: 'England',
      country: { code: 'GB', name: 'United Kingdom' },
      continentCode: 'EU',
      latitude: 51.5142,
      longitude: -0.0931,
      accuracyKm: 10,
      timezone: 'Europe/London',
    });
    expect(records.get('202.12.27.33')).toMatchObject({ city: 'Tokyo', timezone: 'Asia/Tokyo', continentCode: 'AS', accuracyKm: 100 });
    expect(geoRequests()).toHaveLength(1);
  });

  it('treats a documentation address as unknown', async () => {
    const records = await makeService().lookup(['203.0.113.9']);
    expect(records.get('203.0.113.9')).toEqual({ ip: '203.0.113.9', known: false });
  });

  it('looks duplicates up once, whatever their spelling, and answers each spelling', async () => {
    const records = await makeService().lookup(['8.8.8.8', ' 8.8.8.8 ', '::ffff:8.8.8.8', '2001:4860:4860:0:0:0:0:8888', '2001:4860:4860::8888']);
    expect(geoRequests()).toHaveLength(1);
    expect(geoRequests()[0]!.query.get('ip')).toBe('8.8.8.8,2001:4860:4860::8888');
    expect([...records.keys()]).toHaveLength(5);
    expect(records.get('::ffff:8.8.8.8')).toBe(records.get('8.8.8.8'));
    expect(records.get('2001:4860:4860:0:0:0:0:8888')?.ip).toBe('2001:4860:4860::8888');
  });

  it('answers from the cache without a request', async () => {
    const service = makeService();
    await service.lookup(['81.2.69.142']);
    const again = await service.lookup(['81.2.69.142']);
    expect(again.get('81.2.69.142')?.city).toBe('London');
    expect(geoRequests()).toHaveLength(1);
    expect(service.health().caches[0]).toMatchObject({ name: 'geojs-ip', hits: 1, misses: 1 });
  });

  it('asks only for the cache misses', async () => {
    const service = makeService();
    await service.lookup(['8.8.8.8']);
    await service.lookup(['8.8.8.8', '1.1.1.1']);
    expect(geoRequests().map((request) => request.query.get('ip'))).toEqual(['8.8.8.8', '1.1.1.1']);
  });

  it('coalesces concurrent lookups into one request, same or different addresses', async () => {
    const service = makeService();
    const [a, b, c] = await Promise.all([
      service.lookup(['81.2.69.142']),
      service.lookup(['81.2.69.142', '8.8.8.8']),
      service.lookup(['1.1.1.1']),
    ]);
    expect(geoRequests()).toHaveLength(1);
    expect(geoRequests()[0]!.query.get('ip')!.split(',').sort()).toEqual(['1.1.1.1', '8.8.8.8', '81.2.69.142']);
    expect(a.get('81.2.69.142')).toBe(b.get('81.2.69.142'));
    expect(c.get('1.1.1.1')?.asn).toBe(13335);
  });

  it('splits a list longer than the batch size into several requests', async () => {
    const service = makeService({ maxBatchSize: 2 });
    const records = await service.lookup(['8.8.8.8', '1.1.1.1', '81.2.69.142']);
    expect(records.size).toBe(3);
    expect(geoRequests()).toHaveLength(2);
  });

  it('maps answers back by their ip echo, whatever the order', async () => {
    fake.answerOrder = 'reversed';
    const records = await makeService().lookup(['81.2.69.142', '202.12.27.33', '10.0.0.1']);
    expect(records.get('81.2.69.142')?.city).toBe('London');
    expect(records.get('202.12.27.33')?.city).toBe('Tokyo');
    expect(records.get('10.0.0.1')?.known).toBe(false);
  });

  it('reads an echo in another spelling of the same address', async () => {
    fake.echo = 'uppercase';
    fake.answerOrder = 'reversed';
    const records = await makeService().lookup(['2001:4860:4860::8888', '1.1.1.1']);
    expect(records.get('2001:4860:4860::8888')?.asn).toBe(15169);
    expect(records.get('1.1.1.1')?.asn).toBe(13335);
  });

  it('falls back to the position when the echo is missing', async () => {
    fake.echo = 'omitted';
    const records = await makeService().lookup(['81.2.69.142', '202.12.27.33']);
    expect(records.get('81.2.69.142')?.city).toBe('London');
    expect(records.get('202.12.27.33')?.city).toBe('Tokyo');
  });

  it('refuses an answer that leaves an address out', async () => {
    fake.nextResponses.push(json(200, [{ asn: 13335, ip: '1.1.1.1', latitude: 'nil', longitude: 'nil' }]));
    const error = await upstreamFailure(makeService().lookup(['1.1.1.1', '8.8.8.8']));
    expect(error.kind).toBe('bad_response');
  });

  it('normalises odd field values instead of passing them on', async () => {
    fake.setRecord('9.9.9.9', {
      asn: 19281,
      country: '',
      country_code: 'ch',
      latitude: '47.1449',
      longitude: 'nil',
      organization_name: 'Quad9',
      timezone: 'Not/AZone',
    });
    const records = await makeService().lookup(['9.9.9.9']);
    // A lone latitude is useless without a longitude; an unknown zone would crash a formatter.
    expect(records.get('9.9.9.9')).toEqual({ ip: '9.9.9.9', known: true, country: { code: 'CH', name: 'CH' }, asn: 19281, organization: 'Quad9' });
  });

  it('refuses invalid input before any request, including path and URL tricks', async () => {
    const service = makeService();
    for (const input of ['../../x', '%2e%2e', 'http://evil.example/', '10.0.0.0/8', 'fe80::1%eth0', '8.8.8.8,1.1.1.1', '']) {
      const error = await upstreamFailure(service.lookup(['8.8.8.8', input]));
      expect(error.kind).toBe('invalid_input');
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('returns an empty map for no addresses', async () => {
    expect((await makeService().lookup([])).size).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('GeoService failures', () => {
  it('serves a stale record while GeoJS is down, and keeps it after the failed refresh', async () => {
    let clock = 1_000_000;
    const service = makeService({ now: () => clock, cacheTtlMs: 60_000 });
    await service.lookup(['81.2.69.142']);
    clock += 120_000;
    // lru-cache memoises its clock reading until its next 1 ms timer tick; let that tick pass.
    await new Promise((resolve) => setTimeout(resolve, 5));
    fake.mode = 'html500';

    expect((await service.lookup(['81.2.69.142'])).get('81.2.69.142')?.city).toBe('London');
    // The background refresh failed (first try and its one retry) ...
    await vi.waitFor(() => {
      expect(geoRequests()).toHaveLength(3);
      expect(service.health().limiter.running).toBe(0);
    });
    expect(service.health().lastFailure).toBe('unavailable');
    // ... and the stale record is still served.
    expect((await service.lookup(['81.2.69.142'])).get('81.2.69.142')?.city).toBe('London');
    // A cold address has nothing stale to fall back on.
    expect((await upstreamFailure(service.lookup(['8.8.8.8']))).kind).toBe('unavailable');
  });

  it('gives up on a slow GeoJS within the request timeout, without retrying', async () => {
    fake.mode = 'slow';
    fake.slowMs = 2_000;
    const service = makeService({ requestTimeoutMs: 200 });
    const error = await upstreamFailure(service.lookup(['8.8.8.8']));
    expect(error.kind).toBe('unavailable');
    expect(geoRequests()).toHaveLength(1);
    expect(service.health()).toMatchObject({ lastFailure: 'unavailable', lastSuccessAt: null });
  });

  it('retries a reset connection once, then reports unavailable', async () => {
    fake.mode = 'reset';
    const error = await upstreamFailure(makeService().lookup(['8.8.8.8']));
    expect(error.kind).toBe('unavailable');
    expect(geoRequests()).toHaveLength(2);
  });

  it('retries an HTML 500 once, then reports unavailable', async () => {
    fake.mode = 'html500';
    const error = await upstreamFailure(makeService().lookup(['8.8.8.8']));
    expect(error).toMatchObject({ kind: 'unavailable', status: 500 });
    expect(geoRequests()).toHaveLength(2);
  });

  it('recovers when the retry succeeds', async () => {
    fake.nextResponses.push(htmlPage(502, '502 Bad Gateway'));
    const records = await makeService().lookup(['8.8.8.8']);
    expect(records.get('8.8.8.8')?.country?.code).toBe('US');
    expect(geoRequests()).toHaveLength(2);
  });

  it('does not retry when told not to', async () => {
    fake.mode = 'html500';
    await upstreamFailure(makeService({ retryOnce: false }).lookup(['8.8.8.8']));
    expect(geoRequests()).toHaveLength(1);
  });

  it('reports an HTML 404 as unavailable', async () => {
    // A base path GeoJS does not serve: OpenResty answers its HTML 404 page.
    const service = makeService({ baseUrl: `${fake.url}/elsewhere` });
    const error = await upstreamFailure(service.lookup(['8.8.8.8']));
    expect(error).toMatchObject({ kind: 'unavailable', status: 404 });
    expect(fake.requests[0]!.path).toBe('/elsewhere/v1/ip/geo.json');
  });

  it('reports malformed JSON as bad_response', async () => {
    fake.mode = 'malformed';
    const error = await upstreamFailure(makeService().lookup(['8.8.8.8']));
    expect(error.kind).toBe('bad_response');
    expect(geoRequests()).toHaveLength(1);
  });

  it.each([
    ['an object instead of an array', { ip: '8.8.8.8', asn: 15169 }],
    ['a field of the wrong type', [{ ip: '8.8.8.8', asn: 'AS15169' }]],
    ['entries that are not objects', ['8.8.8.8']],
  ])('reports %s as bad_response', async (_label, body) => {
    fake.nextResponses.push(json(200, body));
    const error = await upstreamFailure(makeService().lookup(['8.8.8.8']));
    expect(error.kind).toBe('bad_response');
  });

  it('pauses on a 429 and refuses further lookups until Retry-After has passed', async () => {
    fake.nextResponses.push(htmlPage(429, 'Too Many Requests', { 'retry-after': '30' }));
    const service = makeService();
    const error = await upstreamFailure(service.lookup(['8.8.8.8']));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 });
    const refused = await upstreamFailure(service.lookup(['1.1.1.1']));
    expect(refused.kind).toBe('rate_limited');
    expect(geoRequests()).toHaveLength(1);
    expect(service.health().limiter.pausedUntil).not.toBeNull();
  });

  it('reports busy when its queue is full, without sending more', async () => {
    fake.mode = 'slow';
    fake.slowMs = 300;
    // A timeout far beyond the two slow answers: on a busy machine the second one, queued behind the first, must not time out.
    const service = makeService({ limits: { minTimeMs: 1, maxConcurrent: 1, maxQueued: 1 }, maxBatchSize: 1, batchWindowMs: 0, requestTimeoutMs: 30_000 });
    const outcomes = await Promise.allSettled(['8.8.8.8', '1.1.1.1', '81.2.69.142', '202.12.27.33'].map((ip) => service.lookup([ip])));
    const kinds = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'ok' : (outcome.reason as UpstreamError).kind));
    expect(kinds.filter((kind) => kind === 'busy')).toHaveLength(2);
    expect(kinds.filter((kind) => kind === 'ok')).toHaveLength(2);
    expect(geoRequests()).toHaveLength(2);
  });
});

describe('GeoService setup', () => {
  it('spaces requests so that one slowed by its connection cannot bring an eleventh into its second', () => {
    expect(maxStartsInWindow(GEOJS_LIMITS.minTimeMs, 1_000)).toBe(10);
    // Eleven requests span ten gaps: GeoJS receives them within a second only past 100 ms of delay.
    expect(GEOJS_LIMITS.minTimeMs * 10 - 1_000).toBeGreaterThanOrEqual(100);
  });

  it.each([
    ['requestTimeoutMs', { requestTimeoutMs: 0 }],
    ['maxBatchSize', { maxBatchSize: -1 }],
    ['cacheTtlMs', { cacheTtlMs: Number.NaN }],
  ])('names the bad option %s', (name, options) => {
    expect(() => makeService(options)).toThrow(`option "${name}"`);
  });

  it('reports its health for /status', async () => {
    const service = makeService();
    await service.lookup(['8.8.8.8']);
    expect(service.health()).toMatchObject({
      upstream: 'geojs',
      lastFailure: null,
      limiter: { queued: 0, pausedUntil: null },
      caches: [{ name: 'geojs-ip', size: 1 }, { name: 'geojs-egress', size: 0 }],
    });
    expect(service.health().lastSuccessAt).toEqual(expect.any(Number));
    expect(service.health().lastLatencyMs).toEqual(expect.any(Number));
  });

  it('says which address GeoJS sees this host from, with its network, asking once an hour; an unreadable answer is an error', async () => {
    const service = makeService();
    fake.callerIp = '81.2.69.142';
    expect(await service.egress()).toMatchObject({ ip: '81.2.69.142', asn: 20712, organization: 'Andrews & Arnold Ltd' });
    expect(await service.egress()).toMatchObject({ ip: '81.2.69.142' });
    expect(fake.requestsTo('/v1/ip.json')).toHaveLength(1);
    const other = makeService();
    fake.nextResponses.push(json(200, { ip: '../../x' }));
    await expect(other.egress()).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('builds no URL outside the GeoJS API, whatever the path', () => {
    const http = new UpstreamHttp({ upstream: 'geojs', baseUrl: fake.url, pathPrefixes: ['/v1/ip/geo.json'] });
    for (const path of ['../../x', '/v1/ip/geo/../../../x.json', '/v1/%2e%2e/%2e%2e/x', 'https://evil.example/v1/ip/geo.json', '//evil.example/v1/ip/geo.json']) {
      expect(() => http.url(path), path).toThrow(UpstreamError);
    }
    expect(http.url('/v1/ip/geo.json', { ip: '8.8.8.8' }).href).toBe(`${fake.url}/v1/ip/geo.json?ip=8.8.8.8`);
  });
});

describe('fake GeoJS', () => {
  async function raw(path: string) {
    const response = await fetch(`${fake.url}${path}`, { redirect: 'manual' });
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
  }

  it('answers the path form with one record: sorted keys, escaped slashes, "nil" coordinates, trailing newline', async () => {
    const google = await raw('/v1/ip/geo/8.8.8.8.json');
    expect(google.body.endsWith('}\n')).toBe(true);
    expect(google.body).toContain('"timezone":"America\\/Chicago"');
    const keys = Object.keys(JSON.parse(google.body) as object);
    expect(keys).toEqual([...keys].sort());
    const unknown = await raw('/v1/ip/geo/10.0.0.1.json');
    expect(unknown.body).toBe(
      '{"area_code":"0","asn":64512,"ip":"10.0.0.1","latitude":"nil","longitude":"nil","organization":"AS64512 Unknown","organization_name":"Unknown"}\n',
    );
  });

  it('answers an HTML 404 for a path that is not a strict address', async () => {
    for (const path of ['/v1/ip/geo/notanip.json', '/v1/ip/geo/..%2F..%2Fx.json', '/v1/ip/geo/fe80::1%25eth0.json', '/v1/nothing']) {
      const response = await raw(path);
      expect(response.status, path).toBe(404);
      expect(response.type).toContain('text/html');
    }
  });

  it('answers arrays for lists, unknown records for bad entries and {} for an empty list', async () => {
    const list = JSON.parse((await raw('/v1/ip/geo.json?ip=1.1.1.1,%201.1.1.1,banana')).body) as { ip: string; asn: number }[];
    expect(list.map((entry) => [entry.ip, entry.asn])).toEqual([
      ['1.1.1.1', 13335],
      [' 1.1.1.1', 64512],
      ['banana', 64512],
    ]);
    expect((await raw('/v1/ip/geo.json?ip=')).body).toBe('{}\n');
  });

  it('serves JSONP with an escaped callback and plain-text countries with nil', async () => {
    expect((await raw('/v1/ip/geo/8.8.8.8.js?callback=%3Cscript%3E')).body.startsWith('%3Cscript%3E({')).toBe(true);
    expect((await raw('/v1/ip/country/10.0.0.1')).body).toBe('nil\n');
    expect((await raw('/v1/ip/country/8.8.8.8')).body).toBe('US\n');
    expect((await raw('/v1/ip/country?ip=8.8.8.8,10.0.0.1')).status).toBe(500);
    expect((await raw('/v1/ip/geo/8.8.8.8')).status).toBe(301);
  });
});
