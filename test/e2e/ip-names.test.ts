import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeDns, type FakeDns } from '../fakes/dns.js';
import { FAKE_GEO_RECORDS, startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/**
 * `/ip` and Locate IP with host names and URLs, from the fake Discord through the real resolver to
 * the fake DNS server and the fake GeoJS. The bot keeps DNS answers, PTR names and geo records, so
 * every test uses names and addresses of its own; each counts the DNS queries and GeoJS requests it caused.
 */
describe('/ip with host names, URLs and reverse DNS, end to end', () => {
  let dns: FakeDns;
  let geo: FakeGeoJs;
  let bot: TestBot;

  beforeAll(async () => {
    [dns, geo] = await Promise.all([startFakeDns(), startFakeGeoJs()]);
    bot = await startTestBot({ env: { GEOJS_URL: geo.url, DNS_SERVERS: dns.server } });
  });

  afterAll(async () => {
    await bot?.stop();
    await Promise.all([geo?.close(), dns?.close()]);
  });

  beforeEach(() => {
    dns.reset();
    geo.reset();
  });

  const lookup = async (addresses: string, locale?: string) =>
    (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses }, ...(locale ? { locale } : {}) })).final();
  const geoAsked = () => geo.requestsTo('/v1/ip/geo').flatMap((request) => request.query.get('ip')?.split(',') ?? []);

  it('resolves names, IDN, URLs and host:port beside an address, and locates everything in one GeoJS request', async () => {
    dns.set('github.example', { A: ['81.2.69.142'], AAAA: ['2001:4860:4860::8888'] });
    dns.set('xn--bcher-kva.example', { A: ['202.12.27.33'] });
    dns.set('cdn.example.net', { A: ['8.8.8.8'] });
    const final = await lookup('github.example, https://user@Bücher.example./shop?x=1 8.8.8.8 cdn.example.net:8443 1.1.1.1');
    expect(final.ephemeral).toBe(true);
    expect(final.embeds.map((embed) => embed.title)).toEqual([
      'github.example → 81.2.69.142',
      'github.example → 2001:4860:4860::8888',
      'bücher.example → 202.12.27.33',
      '8.8.8.8',
      '1.1.1.1',
    ]);
    expect(final.embeds[0]!.description).toBe('🇬🇧 London, England, United Kingdom');
    // 8.8.8.8 was typed and resolved: located once, as typed.
    expect(final.content).toBe('');
    expect(geo.requestsTo('/v1/ip/geo')).toHaveLength(1);
    expect(geoAsked().sort()).toEqual(['1.1.1.1', '2001:4860:4860::8888', '202.12.27.33', '8.8.8.8', '81.2.69.142']);
    const forward = dns.queries.filter((query) => query.type === 'A' || query.type === 'AAAA').map((query) => `${query.type} ${query.name}`);
    expect(forward.sort()).toEqual(['A cdn.example.net', 'A github.example', 'A xn--bcher-kva.example', 'AAAA cdn.example.net', 'AAAA github.example', 'AAAA xn--bcher-kva.example']);
    // One PTR per located public address, nothing more (none of them has one).
    expect(dns.queries.filter((query) => query.type === 'PTR')).toHaveLength(5);
  });

  it('answers a good name while saying, one line each, which names do not exist, failed or did not answer', async () => {
    dns.set('good.mixed.example', { A: ['81.2.69.143'] });
    dns.set('broken.mixed.example', { behaviour: 'servfail' });
    dns.set('slow.mixed.example', { behaviour: 'never' });
    const final = await lookup('gone.mixed.example good.mixed.example broken.mixed.example slow.mixed.example');
    expect(final.embeds.map((embed) => embed.title)).toEqual(['good.mixed.example → 81.2.69.143']);
    expect(final.content.split('\n')).toEqual([
      '• “gone.mixed.example”: no such name',
      '• “broken.mixed.example”: the DNS server failed',
      '• “slow.mixed.example”: no answer in time',
    ]);
    expect(geoAsked()).toEqual(['81.2.69.143']);
  });

  it('says in the member’s language when no name gave anything, privately and without asking GeoJS', async () => {
    const final = await lookup('nothing.example', 'fr');
    expect(final.ephemeral).toBe(true);
    expect(final.content).toBe('• “nothing.example”: ce nom n’existe pas');
    expect(final.embeds).toEqual([]);
    expect(geo.requests).toHaveLength(0);
  });

  it('shows each located address’s PTR name, marked when it leads back to the address', async () => {
    dns.set('ptr.example', { A: ['81.2.69.144', '202.12.27.35'] });
    dns.setReverse('81.2.69.144', 'mail.aaisp.example');
    dns.set('mail.aaisp.example', { A: ['81.2.69.144'] });
    dns.setReverse('202.12.27.35', 'm.root-servers.example');
    dns.set('m.root-servers.example', { A: ['202.12.27.34'] });
    const final = await lookup('ptr.example');
    const reverse = final.embeds.map((embed) => embed.fields?.find((field) => field.name === 'Reverse DNS')?.value);
    expect(reverse).toEqual(['mail.aaisp.example\n✅ leads back to this address', 'm.root-servers.example\n⚠️ does not lead back to this address']);
    expect(dns.queries.map((query) => query.type).sort()).toEqual(['A', 'A', 'A', 'AAAA', 'PTR', 'PTR']);
  });

  it.each([
    ['localhost', 'localhost'],
    ['a .localhost name', 'grafana.localhost'],
    ['a single label', 'nas'],
    ['a .local name', 'printer.local.'],
    ['an .internal name', 'db.prod.internal'],
    ['a .home.arpa name', 'router.home.arpa'],
    ['the host of a URL to a private name', 'http://admin@intranet.corp:8080/'],
  ])('refuses %s before any DNS query or GeoJS request', async (_label, entry) => {
    const final = await lookup(`8.8.8.8 ${entry}`);
    expect(final.ephemeral).toBe(true);
    expect(final.content).toContain('a local or private name, never looked up');
    expect(dns.queries).toEqual([]);
    expect(geo.requests).toEqual([]);
  });

  it('answers a name that points only to private addresses without showing them or locating anything', async () => {
    dns.set('nas.office.example', { A: ['10.1.2.3'], AAAA: ['fd12:3456::1'] });
    dns.set('leaky.office.example', { A: ['192.168.1.20', '81.2.69.145'] });
    const final = await lookup('nas.office.example leaky.office.example');
    expect(final.content).toBe('• “nas.office.example”: points to a private address, not looked up');
    expect(final.embeds.map((embed) => embed.title)).toEqual(['leaky.office.example → 81.2.69.145']);
    expect(JSON.stringify(final)).not.toMatch(/10\.1\.2\.3|fd12|192\.168/);
    expect(geoAsked()).toEqual(['81.2.69.145']);
    expect(dns.queries.filter((query) => query.type === 'PTR').map((query) => query.name)).toEqual(['145.69.2.81.in-addr.arpa']);
  });

  it('answers a name on 6to4, Teredo or site-local forms of private addresses as private, and names a typed one by range', async () => {
    dns.set('tunnel.office.example', { AAAA: ['2002:a00:1::1', '2001:0:a00:1::1', 'fec0::1'] });
    const final = await lookup('tunnel.office.example 2002:c0a8:101::1');
    expect(final.content).toBe('• “tunnel.office.example”: points to a private address, not looked up');
    expect(final.embeds.map((embed) => [embed.title, embed.description])).toEqual([
      ['2002:c0a8:101::1', 'This address is in a 6to4-wrapped private network (RFC 1918) range: it is not on the public internet, so it has no location.'],
    ]);
    expect(JSON.stringify(final)).not.toMatch(/2002:a00|2001:0:a00|fec0/);
    expect(geo.requests).toEqual([]);
  });

  it.each([
    ['a character DNS does not allow', 'bad!name.example', 'holds characters a host name cannot have'],
    ['a label over 63 octets', `${'a'.repeat(64)}.example`, 'longer than 63 characters'],
    ['a name over 253', `${'abcdefghi.'.repeat(26)}example`, 'longer than 253 characters'],
    ['more than 10 entries', Array.from({ length: 11 }, (_, index) => `h${index}.example`).join(' '), 'That is 11 entries; I look up at most 10'],
  ])('refuses %s with a clear sentence, before any DNS query or GeoJS request', async (_label, input, expected) => {
    const final = await lookup(input);
    expect(final.ephemeral).toBe(true);
    expect(final.content).toContain(expected);
    expect(dns.queries).toEqual([]);
    expect(geo.requests).toEqual([]);
  });

  it('locates the first 10 of a name’s hundreds of addresses and says how many were not, within 40 queries', async () => {
    const many = Array.from({ length: 300 }, (_, index) => `81.2.${70 + (index >> 8)}.${index & 255}`);
    dns.set('huge.example', { A: many });
    const final = await lookup('huge.example');
    expect(final.embeds).toHaveLength(10);
    expect(final.embeds[0]!.title).toBe('huge.example → 81.2.70.0');
    expect(final.content).toBe('Located 10 addresses; 290 more were not (at most 10 per command).');
    expect(geo.requestsTo('/v1/ip/geo')).toHaveLength(1);
    expect(geoAsked()).toHaveLength(10);
    // A over UDP (truncated), again over TCP, AAAA, and one PTR for each located address.
    expect(dns.queriesFor('huge.example').map((query) => `${query.type}/${query.transport}`).sort()).toEqual(['A/tcp', 'A/udp', 'AAAA/udp']);
    expect(dns.queries.filter((query) => query.type === 'PTR')).toHaveLength(10);
  });

  it('follows CNAME chains, answers a CNAME loop with one line, and asks each name no more than A and AAAA', async () => {
    dns.set('www.cname.example', { CNAME: 'edge.cname.example' });
    dns.set('edge.cname.example', { CNAME: 'origin.cname.example' });
    dns.set('origin.cname.example', { A: ['202.12.27.36'] });
    dns.set('a.loop.example', { CNAME: 'b.loop.example' });
    dns.set('b.loop.example', { CNAME: 'a.loop.example' });
    const final = await lookup('www.cname.example a.loop.example');
    expect(final.embeds.map((embed) => embed.title)).toEqual(['www.cname.example → 202.12.27.36']);
    expect(final.content).toBe('• “a.loop.example”: the name has no IPv4 or IPv6 address');
    expect(dns.queries.filter((query) => query.type !== 'PTR')).toHaveLength(4);
    expect(geo.requests).toHaveLength(1);
  });

  it('gives /ip time for a name’s first address, A before AAAA, and says which it used', async () => {
    geo.setRecord('8.8.4.4', FAKE_GEO_RECORDS['8.8.8.8']!);
    dns.set('time.example', { A: ['8.8.4.4', '81.2.69.146'], AAAA: ['2001:4860:4860::8844'] });
    const final = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: 'https://time.example/' } })).final();
    expect(final.content).toMatch(/^`time\.example → 8\.8\.4\.4` · 🇺🇸 United States · America\/Chicago · \d\d:\d\d \(UTC−0[56]:00\)$/);
    expect(geoAsked()).toEqual(['8.8.4.4']);
    expect(dns.queries.filter((query) => query.type === 'PTR')).toEqual([]);
  });

  it('locates the hosts of the URLs in a message beside its addresses, not its bare dotted words', async () => {
    dns.set('api.shop.example', { A: ['202.12.27.37'] });
    const final = await (
      await bot.discord.messageContext({
        name: 'Locate IP addresses',
        targetContent: '[error] app.worker.start: GET https://api.shop.example/v2/cart timed out from 81.2.69.147 (config.yaml)',
      })
    ).final();
    expect(final.embeds.map((embed) => embed.title)).toEqual(['api.shop.example → 202.12.27.37', '81.2.69.147']);
    expect(dns.queries.filter((query) => query.type !== 'PTR').map((query) => query.name)).toEqual(['api.shop.example', 'api.shop.example']);
  });
});
