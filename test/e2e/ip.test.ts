import sharp from 'sharp';
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_GEO_RECORDS, startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { TEST_REQUEST_TIMEOUT_MS } from '../helpers/reliability.js';
import { controlsAsked, controlsSent, TYPED_CONTROLS } from '../helpers/hostile-input.js';

describe('/ip and "Locate IP addresses" end to end', () => {
  let geo: FakeGeoJs;
  let bot: TestBot;
  let now = new Date('2026-07-01T19:32:00Z');

  beforeAll(async () => {
    geo = await startFakeGeoJs();
    // GeoJS given up after 1 s rather than production's 5-6 s, so the timeout test ends sooner.
    bot = await startTestBot({ env: { GEOJS_URL: geo.url }, overrides: { clock: { now: () => now }, requestTimeoutMs: { geojs: TEST_REQUEST_TIMEOUT_MS.geojs } } });
  });

  afterAll(async () => {
    await bot?.stop();
    await geo?.close();
  });

  beforeEach(() => {
    geo.reset();
    now = new Date('2026-07-01T19:32:00Z');
  });

  it('looks up a mixed list (IPv4, IPv6, private) in one GeoJS request without the private one, one embed each in input order', async () => {
    const exchange = await bot.discord.chatInput({
      name: 'ip',
      subcommand: 'lookup',
      options: { addresses: '8.8.8.8, 2001:4860:4860::8888 10.0.0.1,8.8.8.8' },
    });
    const final = await exchange.final();
    expect(final.ephemeral).toBe(true);
    expect(final.embeds.map((embed) => embed.title)).toEqual(['8.8.8.8', '2001:4860:4860::8888', '10.0.0.1']);
    expect(final.embeds[0]!.description).toBe('🇺🇸 United States');
    expect(final.embeds[2]!.description).toContain('private network (RFC 1918)');
    expect(JSON.stringify(final.embeds)).not.toMatch(/\bnil\b|undefined|null|NaN/);
    const requests = geo.requestsTo('/v1/ip/geo');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.query.get('ip')?.split(',').sort()).toEqual(['2001:4860:4860::8888', '8.8.8.8']);
  });

  it('attaches a world map once two places are located, and none for one place', async () => {
    const two = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8 81.2.69.142' } })).final();
    const map = two.files.find((file) => file.name === 'map.png');
    expect(map).toBeDefined();
    expect((await sharp(map!.data).metadata()).width).toBe(1_200);
    // 8.8.8.8 and 2001:4860:4860::8888 are located at the same place.
    const one = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8 2001:4860:4860::8888' } })).final();
    expect(one.files.some((file) => file.name === 'map.png')).toBe(false);
  });

  it('posts in the channel with public:true, and serves a repeat from the cache', async () => {
    const final = await (
      await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8', public: true } })
    ).final();
    expect(final.ephemeral).toBe(false);
    expect(geo.requestsTo('/v1/ip/geo')).toHaveLength(0);
  });

  it('gives /ip time as one line, public by default, right on both sides of a DST change', async () => {
    now = new Date('2026-03-08T07:59:00Z');
    const before = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' } })).final();
    now = new Date('2026-03-08T08:01:00Z');
    const after = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' } })).final();
    expect(before.content).toBe('`8.8.8.8` · 🇺🇸 United States · America/Chicago · 01:59 (UTC−06:00)');
    expect(after.content).toBe('`8.8.8.8` · 🇺🇸 United States · America/Chicago · 03:01 (UTC−05:00)');
    expect(before.ephemeral).toBe(false);
  });

  it('locates the addresses in a log line with noise, ephemerally', async () => {
    const exchange = await bot.discord.messageContext({
      name: 'Locate IP addresses',
      targetContent:
        'Nov 21 10:00:01 web-1 sshd[811]: Failed password for root from 81.2.69.142 port 2222 ssh2 (v1.2.3 at 12:30:45), ' +
        'upstream [2001:4860:4860::8888]:443 timeout; retry via 202.12.27.33 then 81.2.69.142 again',
    });
    const final = await exchange.final();
    expect(final.ephemeral).toBe(true);
    expect(final.embeds.map((embed) => embed.title)).toEqual(['81.2.69.142', '2001:4860:4860::8888', '202.12.27.33']);
    expect(final.embeds[0]!.description).toBe('🇬🇧 London, England, United Kingdom');
    expect(geo.requestsTo('/v1/ip/geo')).toHaveLength(1);
  });

  it('says so when a message has no address, without asking GeoJS', async () => {
    const final = await (await bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: 'deploy 1.2 done at 10:30' })).final();
    expect(final.content).toBe('I found no IPv4 or IPv6 address and no URL in that message.');
    expect(final.ephemeral).toBe(true);
    expect(geo.requests).toHaveLength(0);
  });

  it('says how many addresses were skipped past ten', async () => {
    const addresses = Array.from({ length: 12 }, (_, index) => `198.51.100.${index + 1}`).join(' ');
    const final = await (await bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: addresses })).final();
    expect(final.embeds).toHaveLength(10);
    expect(final.content).toContain('2 more were skipped');
  });

  it.each([
    ['a private name', 'printer.local', 'a local or private name'],
    ['a CIDR range', '10.0.0.0/8', 'CIDR range'],
    ['path traversal', '../../v1/dns/ptr', 'holds characters a host name cannot have'],
    ['percent-encoding', '%2e%2e%2f', 'percent-encoded'],
    ['a zone id', 'fe80::1%eth0', 'zone ids'],
    ['more than ten', Array.from({ length: 11 }, (_, index) => `8.8.4.${index}`).join(','), 'at most 10'],
    ['an empty list', ' , , ', 'Give at least one IP address'],
  ])('refuses %s before any GeoJS request, ephemerally and precisely', async (_label, addresses, expected) => {
    const final = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses } })).final();
    expect(final.ephemeral).toBe(true);
    expect(final.content).toContain(expected);
    expect(geo.requests).toHaveLength(0);
  });

  it('lists exactly which entries were rejected when some are good', async () => {
    const final = await (
      await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8 printer.local 1.1.1.1/32' } })
    ).final();
    expect(final.content).toContain('“printer.local”: a local or private name, never looked up');
    expect(final.content).toContain('“1.1.1.1/32”: looks like a CIDR range');
    expect(final.content).not.toContain('8.8.8.8');
    expect(geo.requests).toHaveLength(0);
  });

  it('looks up an address typed with a bidi control, and quotes an entry holding NUL and bidi controls without them', async () => {
    // An address no other test looks up: it is not in the bot's cache, so GeoJS is asked.
    const lookup = await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '\u202e81.2.69.160' } });
    expect((await lookup.final()).embeds.map((embed) => embed.title)).toEqual(['81.2.69.160']);
    const refusal = await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: `8.8.4.4 1.2.3${TYPED_CONTROLS}` } });
    expect((await refusal.final()).content).toContain('“1.2.3\uFFFD\uFFFD”: holds characters a host name cannot have');
    for (const exchange of [lookup, refusal]) expect(await controlsSent(exchange)).toEqual([]);
    expect(geo.requests).toHaveLength(1);
    expect(controlsAsked(geo.requests)).toEqual([]);
  });

  it.each([
    ['a 5xx HTML page', 'html500' as const],
    ['a connection reset', 'reset' as const],
    ['malformed JSON', 'malformed' as const],
  ])('answers plainly within the deadline when GeoJS sends %s', async (_label, mode) => {
    geo.mode = mode;
    const exchange = await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '81.2.69.200' } });
    await exchange.callback(3_000);
    const final = await exchange.final(20_000);
    expect(final.content).toMatch(/^GeoJS (is unavailable right now, try again in a minute|sent an answer we could not read)/);
    expect(final.ephemeral).toBe(true);
  });

  it('defers, then answers plainly, when GeoJS times out', async () => {
    geo.mode = 'slow';
    geo.slowMs = 15_000;
    const exchange = await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '81.2.69.201' } });
    const callback = await exchange.callback(3_000);
    expect(callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(callback.data?.flags).toBe(MessageFlags.Ephemeral);
    const edit = await exchange.waitForEdit(undefined, 20_000);
    expect(edit.message.content).toBe('GeoJS is unavailable right now, try again in a minute.');
  });

  it('serves a stale cached record while GeoJS is down', async () => {
    geo.setRecord('9.9.9.9', { ...FAKE_GEO_RECORDS['202.12.27.33']!, organization_name: 'Quad9' });
    const lookup = () => bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '9.9.9.9' } });
    await (await lookup()).final();
    now = new Date(now.getTime() + 24 * 60 * 60_000);
    geo.mode = 'html500';
    const final = await (await lookup()).final();
    expect(final.embeds[0]!.description).toBe('🇯🇵 Tokyo, Japan');
    // The expired entry was answered at once and refreshed in the background: the refresh and its
    // one retry (a 500 is worth one) both failed. Waiting for the count, not for a moment between
    // the two, which a busy machine can miss.
    await expect.poll(() => geo.requestsTo('/v1/ip/geo').length).toBe(3);
    await expect.poll(() => bot.app.services.geo.health().lastFailure).toBe('unavailable');
  });
});
