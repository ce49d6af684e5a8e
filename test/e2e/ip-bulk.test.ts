import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/** A log of about 1 MiB: 1,000 distinct addresses (public IPv4 and IPv6, private ones), repeated, in noise. */
function bigLog(): { text: string; addresses: Set<string> } {
  const addresses = new Set<string>();
  for (let i = 0; i < 900; i++) addresses.add(`23.${i >> 8}.${i & 255}.7`);
  for (let i = 0; i < 90; i++) addresses.add(`2a00:1450::${(i + 1).toString(16)}`);
  for (let i = 0; i < 10; i++) addresses.add(`10.0.0.${i + 1}`);
  const list = [...addresses];
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < 1_000_000; n++) {
    const address = list[(n * 7919) % list.length]!;
    const line =
      n % 3 === 0
        ? `2026-11-28T02:${String(n % 60).padStart(2, '0')}:00Z web-1 app.worker.start v1.2.3 build 10.20.30 job=${n} ok`
        : `2026-11-28T02:00:00Z sshd[${n}]: Failed password for root from ${address.includes(':') ? `[${address}]:22` : `${address} port 52113`} ssh2`;
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, addresses };
}

describe('a whole log at once (/ip bulk and Locate IP on an attachment) end to end', () => {
  let geo: FakeGeoJs;
  let bot: TestBot;

  beforeAll(async () => {
    geo = await startFakeGeoJs();
    bot = await startTestBot({ env: { GEOJS_URL: geo.url } });
  });

  afterAll(async () => {
    await bot?.stop();
    await geo?.close();
  });

  beforeEach(() => geo.reset());

  it('answers a 1 MiB log of 1,000 addresses with counts and a CSV of every address, within GeoJS limits, another member answered meanwhile', async () => {
    const { text, addresses } = bigLog();
    expect(text.length).toBeLessThanOrEqual(1024 * 1024);
    const file = bot.discord.attachment({ name: 'auth.log', data: Buffer.from(text) });
    const started = performance.now();
    const exchange = await bot.discord.chatInput({ name: 'ip', subcommand: 'bulk', attachments: { file } });
    // Once the log's batches are on their way, another member's lookup.
    await bot.discord.waitUntil(() => (geo.requestsTo('/v1/ip/geo').length >= 2 ? true : undefined));
    const other = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8' }, user: { id: '4242', username: 'other' } })).final();
    expect(other.embeds[0]!.title).toBe('8.8.8.8');
    // The progress line is edited first; the answer is the edit with the counts.
    const write = await bot.discord.waitUntil(() => exchange.edits().find((edit) => edit.message.embeds.length > 0), 60_000);
    const answer = { ...write.message, files: write.files };
    expect(performance.now() - started).toBeLessThan(60_000);

    expect((await exchange.callback()).data?.flags).toBe(64);
    const seen = text.split('\n').filter((line) => line.includes('sshd')).length;
    expect(answer.embeds[0]!.description).toBe(en.ops.bulk.summary(1_000, seen, 0, 10));
    expect(answer.embeds[0]!.fields!.map((field) => field.name)).toEqual([en.ops.bulk.byCountry, en.ops.bulk.byNetwork, en.ops.bulk.byAddress]);
    const csv = answer.files.find((uploaded) => uploaded.name === 'addresses.csv')!;
    const rows = csv.data.toString('utf8').trim().split('\r\n');
    expect(rows[0]).toBe('address,count,special_range,country_code,country,region,city,asn,organization,latitude,longitude,timezone');
    expect(new Set(rows.slice(1).map((row) => row.split(',')[0]))).toEqual(addresses);
    expect(rows.find((row) => row.startsWith('10.0.0.1,'))).toContain('private network (RFC 1918)');
    // Private addresses never reach GeoJS; its limit (10 a second) held throughout.
    const asked = geo.requestsTo('/v1/ip/geo').flatMap((request) => request.query.get('ip')!.split(','));
    expect(asked.some((address) => address.startsWith('10.'))).toBe(false);
    expect(new Set(asked.filter((address) => address !== '8.8.8.8')).size).toBe(990);
    // Starts 100 ms apart at least: at most 9 in any 900 ms, 10 allowing for the arrival's jitter.
    expect(geo.maxInWindow(900, '/v1/ip/geo')).toBeLessThanOrEqual(10);
    expect(exchange.edits().some((edit) => /Locating addresses: \d+ of 990/.test(String(edit.message.content)))).toBe(true);
  });

  it('reads a log attached to a message through Locate IP, and refuses files that are too big or not text', async () => {
    const log = bot.discord.attachment({ name: 'access.log', data: Buffer.from('GET / from 81.2.69.142\nGET /x from 81.2.69.142\n') });
    const answer = await (await bot.discord.messageContext({ name: 'Locate IP addresses', targetContent: 'see attached', targetAttachments: [log] })).final();
    expect(answer.embeds[0]!.description).toBe(en.ops.bulk.summary(1, 2, 1, 0));
    expect(answer.embeds[0]!.fields![0]!.value).toBe('2 · 🇬🇧 United Kingdom');
    expect(answer.files.map((file) => file.name)).toEqual(['addresses.csv']);

    // Two located places: a map is attached and shown.
    const two = bot.discord.attachment({ name: 'two.log', data: Buffer.from('81.2.69.142 8.8.8.8 8.8.8.8\n') });
    const mapped = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'bulk', attachments: { file: two } })).final();
    expect(mapped.embeds[0]!.image?.url).toBe('attachment://map.png');
    const png = mapped.files.find((file) => file.name === 'map.png')!;
    expect((await sharp(png.data).metadata()).width).toBe(1_200);

    const asked = geo.requestsTo('/v1/ip/geo').length;
    const huge = bot.discord.attachment({ name: 'huge.log', data: Buffer.alloc(2 * 1024 * 1024, 'a') });
    expect((await (await bot.discord.chatInput({ name: 'ip', subcommand: 'bulk', attachments: { file: huge } })).final()).content).toBe(en.ops.bulk.tooLarge('1.0 MiB'));
    const lying = bot.discord.attachment({ name: 'liar.log', data: Buffer.alloc(2 * 1024 * 1024, '1'), declaredSize: 100 });
    expect((await (await bot.discord.chatInput({ name: 'ip', subcommand: 'bulk', attachments: { file: lying } })).final()).content).toBe(en.ops.bulk.tooLarge('1.0 MiB'));
    const binary = bot.discord.attachment({ name: 'core.log', data: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]) });
    expect((await (await bot.discord.chatInput({ name: 'ip', subcommand: 'bulk', attachments: { file: binary } })).final()).content).toBe(en.ops.bulk.notText);
    const empty = bot.discord.attachment({ name: 'quiet.txt', data: Buffer.from('nothing here 1.2.3\n') });
    expect((await (await bot.discord.chatInput({ name: 'ip', subcommand: 'bulk', attachments: { file: empty } })).final()).content).toBe(en.ops.bulk.noAddresses);
    expect(geo.requestsTo('/v1/ip/geo')).toHaveLength(asked);
  });
});
