import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DigAnswer } from '../../../src/ip/dig-answer.js';
import { parseDigQuestion, type DigType } from '../../../src/ip/dig-query.js';
import { DnsDig } from '../../../src/services/dns/dig.js';
import { DnsQueryBudget } from '../../../src/services/dns/dns.js';
import { startFakeDns, type FakeDns, type FakeZoneEntry } from '../../fakes/dns.js';
import { startFakeDoh, type FakeDoh } from '../../fakes/doh.js';

let zone: FakeDns;
let doh: FakeDoh;

beforeAll(async () => {
  zone = await startFakeDns();
  doh = await startFakeDoh(zone);
});
afterAll(async () => {
  await doh.close();
  await zone.close();
});

const EVERY_TYPE: FakeZoneEntry = {
  A: ['93.184.216.34'],
  AAAA: ['2606:2800:220:1:248:1893:25c8:1946'],
  ttl: 3600,
  authentic: true,
  records: [
    { type: 'MX', name: '', ttl: 300, data: { preference: 10, exchange: 'mx.example.com' } },
    { type: 'TXT', name: '', ttl: 300, data: ['v=spf1 -all'] },
    { type: 'NS', name: '', ttl: 86400, data: 'a.iana-servers.net' },
    { type: 'SOA', name: '', ttl: 3600, data: { mname: 'ns.icann.org', rname: 'noc.dns.icann.org', serial: 2025011001, refresh: 7200, retry: 3600, expire: 1209600, minimum: 3600 } },
    { type: 'CAA', name: '', ttl: 300, data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
    { type: 'SRV', name: '', ttl: 300, data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' } },
    { type: 'DS', name: '', ttl: 86400, data: { keyTag: 370, algorithm: 13, digestType: 2, digest: Buffer.from('be74359954660069d5c63d200c39f5603827d7dd02b56f120ee9f3a86764247c', 'hex') } },
    { type: 'DNSKEY', name: '', ttl: 3600, data: { flags: 257, algorithm: 13, key: Buffer.from('a key of the zone') } },
  ],
};

const DATA: Record<Exclude<DigType, 'CNAME' | 'PTR'>, string> = {
  A: '93.184.216.34',
  AAAA: '2606:2800:220:1:248:1893:25c8:1946',
  MX: '10 mx.example.com',
  TXT: '"v=spf1 -all"',
  NS: 'a.iana-servers.net',
  SOA: 'ns.icann.org noc.dns.icann.org 2025011001 7200 3600 1209600 3600',
  CAA: '0 issue "letsencrypt.org"',
  SRV: '10 5 5060 sip.example.com',
  DS: '370 13 2 BE74359954660069D5C63D200C39F5603827D7DD02B56F120EE9F3A86764247C',
  DNSKEY: `257 3 13 ${Buffer.from('a key of the zone').toString('base64')}`,
};

function question(name: string, type: string | null) {
  const parsed = parseDigQuestion(name, type);
  if (!parsed.ok) throw new Error(`not a question: ${parsed.problem}`);
  return parsed.question;
}

async function answer(dig: DnsDig, name: string, type: string | null, resolver = 'system'): Promise<DigAnswer> {
  const outcome = await dig.ask(question(name, type), resolver);
  if (!outcome.ok) throw new Error(`no answer: ${outcome.failure}`);
  return outcome.answer;
}

describe('DnsDig', () => {
  let dig: DnsDig;

  beforeEach(() => {
    zone.reset();
    doh.reset();
    zone.set('example.com', EVERY_TYPE);
    dig = new DnsDig({ servers: [zone.server], doh: [{ name: 'lab', url: doh.endpoint }], timeoutMs: 500 });
  });

  it('reads every record type with its TTL, over UDP and over HTTPS alike', async () => {
    for (const [type, data] of Object.entries(DATA)) {
      const udp = await answer(dig, 'example.com', type);
      expect(udp.records, type).toEqual([{ name: 'example.com', type, ttl: expect.any(Number), data }]);
      expect(udp).toMatchObject({ rcode: 'NOERROR', transport: 'udp', authentic: true, truncated: false });
      const https = await answer(dig, 'example.com', type, 'lab');
      expect(https.records, type).toEqual(udp.records);
      expect(https.transport).toBe('https');
    }
    expect((await answer(dig, 'example.com', 'SOA')).records[0]!.ttl).toBe(3600);
    // DoH queries carry ID 0, so that HTTP caches can answer them.
    const sent = doh.requests.map((request) => Buffer.from(request.query.get('dns')!, 'base64url').readUInt16BE(0));
    expect(new Set(sent)).toEqual(new Set([0]));
  });

  it('reads CNAME and PTR, and asks the reverse name of an address', async () => {
    zone.set('www.example.com', { CNAME: 'example.com' });
    zone.setReverse('93.184.216.34', 'example.com');
    expect((await answer(dig, 'www.example.com', 'CNAME')).records).toEqual([{ name: 'www.example.com', type: 'CNAME', ttl: 300, data: 'example.com' }]);
    expect((await answer(dig, '93.184.216.34', null)).records).toEqual([{ name: '34.216.184.93.in-addr.arpa', type: 'PTR', ttl: 300, data: 'example.com' }]);
  });

  it('shows AD off for an unsigned zone, and NXDOMAIN and SERVFAIL as the status', async () => {
    zone.set('plain.example', { A: ['192.0.2.1', '93.184.216.35'] });
    zone.set('broken.example', { behaviour: 'servfail' });
    const plain = await answer(dig, 'plain.example', 'A');
    expect(plain).toMatchObject({ authentic: false, rcode: 'NOERROR' });
    expect(await answer(dig, 'nothing.example', 'A')).toMatchObject({ rcode: 'NXDOMAIN', records: [] });
    expect(await answer(dig, 'broken.example', 'A')).toMatchObject({ rcode: 'SERVFAIL', records: [] });
  });

  it('never shows a private or special-range address, and counts what it left out', async () => {
    zone.set('mixed.example', { A: ['10.0.0.5', '93.184.216.35', '127.0.0.1'] });
    expect(await answer(dig, 'mixed.example', 'A')).toMatchObject({ records: [{ data: '93.184.216.35' }], hiddenPrivate: 2 });
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    zone.set('big.example', { behaviour: 'truncate', A: ['93.184.216.36'] });
    expect(await answer(dig, 'big.example', 'A')).toMatchObject({ transport: 'tcp', truncated: false, records: [{ data: '93.184.216.36' }] });
    expect(zone.queriesFor('big.example').map((query) => query.transport)).toEqual(['udp', 'tcp']);
  });

  it('says the server did not answer in time, and stays within the command’s queries', async () => {
    zone.set('slow.example', { behaviour: 'never' });
    expect(await dig.ask(question('slow.example', 'A'), 'system')).toEqual({ ok: false, failure: 'timedOut' });
    const budget = new DnsQueryBudget(1);
    zone.set('big.example', { behaviour: 'truncate', A: ['93.184.216.36'] });
    // One query left: the truncated UDP answer is shown as such, no TCP query.
    expect(await dig.ask(question('big.example', 'A'), 'system', budget)).toMatchObject({ ok: true, answer: { truncated: true, transport: 'udp' } });
    expect(await dig.ask(question('example.com', 'A'), 'system', budget)).toEqual({ ok: false, failure: 'queryCap' });
  });
});
